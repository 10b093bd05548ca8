// The npm package's tarball, as `npm publish` uploads it: `npm pack` of the
// built dist/ (its prepack build is skipped: the caller has built, and other
// processes may be reading dist/). npm gives its entries fixed times.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "../pulumi-env.mjs";

export function writeNpmTarball(outDir) {
  // Without the npm_* settings of an `npm run` this may be called from (they would change what npm packs).
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", outDir], {
    cwd: repoRoot,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return join(outDir, JSON.parse(out)[0].filename);
}
