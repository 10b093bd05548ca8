// pulumi-java's two programs, built from its Go module at the version
// tools/pulumi-java/go.mod pins (github.com/pulumi/pulumi-java/pkg): the Java
// language host `pulumi-language-java`, which runs Java programs for the
// pulumi CLI, and the code generator `pulumi-java-gen`, which writes
// sdk/java's sources. Built once into a cache outside the repository keyed
// by a hash of that module's files; the Go module proxy serves exact
// versions only, so the tools module names the version and `go build`
// builds its commands (as scripts/pulumi-yaml.sh does for Pulumi YAML).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, goBinary, goEnv, sourceHash } from "./go-tool.mjs";
import { repoRoot } from "./pulumi-env.mjs";

export const TOOLS_MODULE = join(repoRoot, "tools/pulumi-java");
const MODULE = "github.com/pulumi/pulumi-java/pkg";
const COMMANDS = ["pulumi-language-java", "pulumi-java-gen"];

/**
 * The pulumi-java version tools/pulumi-java/go.mod requires, without its "v" (also the com.pulumi:pulumi version the SDK builds against).
 * @returns {string}
 */
export function pulumiJavaVersion() {
  const match = readFileSync(join(TOOLS_MODULE, "go.mod"), "utf8").match(/^\s*github\.com\/pulumi\/pulumi-java\/pkg v(\S+)/m);
  if (!match) throw new Error(`tools/pulumi-java/go.mod requires no ${MODULE}`);
  return match[1];
}

/**
 * The directory holding pulumi-language-java and pulumi-java-gen, built on first use (progress on stderr).
 * @returns {string}
 */
export function pulumiJavaDir() {
  const version = pulumiJavaVersion();
  const dir = join(cacheRoot, "pulumi-java", `v${version}-${sourceHash([TOOLS_MODULE])}`);
  if (COMMANDS.every((c) => existsSync(join(dir, c)))) return dir;
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  process.stderr.write(`[pulumi-java] building ${COMMANDS.join(" and ")} v${version} into ${dir} (first run only)\n`);
  const ldflags = `-s -w -X ${MODULE}/version.Version=${version}`;
  execFileSync(goBinary(), ["build", "-trimpath", "-ldflags", ldflags, "-o", `${partial}/`, ...COMMANDS.map((c) => `${MODULE}/cmd/${c}`)], {
    cwd: TOOLS_MODULE,
    // -mod=readonly: the committed go.sum holds every module the build needs; nothing rewrites it.
    env: goEnv({ GOFLAGS: "-mod=readonly" }),
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another process finished the same build first.
    rmSync(partial, { recursive: true, force: true });
    if (!COMMANDS.every((c) => existsSync(join(dir, c)))) throw error;
  }
  return dir;
}
