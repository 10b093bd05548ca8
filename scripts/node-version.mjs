// Provides the Node.js releases the compatibility tests run (see
// scripts/lib/node-releases.mjs): installs each one asked for, by major line
// or exact version (default: every pinned one), from the npm registry into
// ~/.cache/pulumi-agent-hosting/node/<version>/ on first use, and prints the
// directory holding its `node`, one line each; the last line is the last
// one asked for. Put that directory first on PATH to run a program, and the
// processes it starts by the name `node`, on that release:
//
//   PATH="$(node scripts/node-version.mjs 24 | tail -1):$PATH" node --version
import { NODE_RELEASES, nodeBinDir } from "./lib/node-releases.mjs";

const wanted = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(NODE_RELEASES);
try {
  for (const w of wanted) console.log(nodeBinDir(w));
} catch (error) {
  process.stderr.write(`[node-version] ${error.stderr ?? ""}${error.message}\n`);
  process.exitCode = 1;
}
