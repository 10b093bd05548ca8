// `npm run release`: builds the package afresh (dist/ removed first, as
// `npm pack` would) and writes every file of a release of package.json's
// version into dist-release/ (or the directory given):
//   pulumi-resource-agent-hosting-v<V>-<os>-<arch>.tar.gz   the plugin, for the GitHub release
//   pulumi_agent_hosting-<V>-py3-none-any.whl, pulumi_agent_hosting-<V>.tar.gz   for PyPI
//   pulumi-agent-hosting-<V>.tgz                             for npm
//   goproxy/                                                 the Go SDK at v<V>, in a module proxy's layout
//   maven/                                                   the Java SDK (jar, sources, javadoc, pom), in a Maven repository's layout
//   SHA256SUMS
// Needs Node.js, npm, Go, python3 (PyPA's build is installed into a cached virtualenv),
// a JDK (11 or later) and Maven (3.8 or later).
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { repoRoot } from "./lib/pulumi-env.mjs";
import { RELEASE_DIR } from "./lib/release/names.mjs";
import { writeRelease } from "./lib/release/write-release.mjs";

const outDir = resolve(process.argv[2] ?? join(repoRoot, RELEASE_DIR));
rmSync(join(repoRoot, "dist"), { recursive: true, force: true });
execFileSync("npm", ["run", "build"], { cwd: repoRoot, stdio: ["ignore", "inherit", "inherit"] });
const version = await writeRelease(outDir);
console.log(`release v${version} written to ${outDir}`);
