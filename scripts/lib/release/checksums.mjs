// SHA256SUMS: one line per file under the release directory, sorted by path,
// in the format `sha256sum -c SHA256SUMS` reads.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { CHECKSUMS_FILE } from "./names.mjs";

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Writes <dir>/SHA256SUMS over every other file under `dir`; returns its path. */
export function writeChecksums(dir) {
  const paths = filesUnder(dir)
    .map((path) => relative(dir, path).split(sep).join("/"))
    .filter((path) => path !== CHECKSUMS_FILE)
    .sort();
  const lines = paths.map((path) => `${createHash("sha256").update(readFileSync(join(dir, path))).digest("hex")}  ${path}\n`);
  const target = join(dir, CHECKSUMS_FILE);
  writeFileSync(target, lines.join(""));
  return target;
}
