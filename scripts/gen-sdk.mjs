// Generates the Python, Go and Java SDKs (sdk/python, sdk/go, sdk/java) from schema.json.
// `--check` regenerates into a temporary directory and exits 1 when the
// committed SDKs differ from it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./lib/pulumi-env.mjs";
import { LANGUAGES, generateSdks, sdkDrift } from "./lib/sdk-gen.mjs";

if (process.argv.includes("--check")) {
  const temp = mkdtempSync(join(tmpdir(), "agent-hosting-sdk-"));
  try {
    await generateSdks(temp);
    const drift = LANGUAGES.flatMap((l) => sdkDrift(join(temp, l), join(repoRoot, "sdk", l)).map((p) => `sdk/${l}/${p}`));
    if (drift.length > 0) {
      console.error(`the committed SDKs differ from schema.json in: ${drift.join(", ")}\nrun \`npm run gen\``);
      process.exitCode = 1;
    } else {
      console.log(`${LANGUAGES.map((l) => `sdk/${l}`).join(", ")} are up to date`);
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
} else {
  await generateSdks(join(repoRoot, "sdk"));
  console.log(`wrote ${LANGUAGES.map((l) => `sdk/${l}`).join(", ")}`);
}
