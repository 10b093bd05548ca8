/**
 * Before any test: build the package's dist/ link and provide the pulumi CLI,
 * Pulumi YAML's language host and pulumi-java's language host and generator
 * once (scripts/pulumi-cli.sh, scripts/pulumi-yaml.sh and
 * scripts/lib/pulumi-java.mjs build them from source on a cold machine and
 * cache them outside the repo), so parallel test files never race to build them.
 */
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { pulumiJavaDir } from "../../../scripts/lib/pulumi-java.mjs";

export default function setup(): void {
  const root = resolve(__dirname, "../../..");
  execFileSync(process.execPath, [join(root, "scripts/link-self.mjs")], { stdio: "inherit" });
  const dir = execFileSync("bash", [join(root, "scripts/pulumi-cli.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .pop();
  if (dir) {
    process.env["PATH"] = `${dir}:${process.env["PATH"] ?? ""}`;
    process.env["AGENT_HOSTING_PULUMI_CLI_DIR"] = dir;
  }
  // Pulumi YAML's language host, for the YAML program tests (built once, cached like the CLI).
  execFileSync("bash", [join(root, "scripts/pulumi-yaml.sh")], { stdio: ["ignore", "ignore", "inherit"] });
  // pulumi-language-java for the Java program tests, pulumi-java-gen for the generated SDKs' check.
  pulumiJavaDir();
}
