// @ts-check
// A temporary build of the Agent's dynamic provider module
// (dist/hosts/dynamic/provider-impl.js, what the serialized text loads)
// whose `provider.create` first calls a generated function of at least
// `bytes` bytes of code, which leaves a marker file when it runs, so the
// bench can tell that the grown code was really called (and not just
// present). `restore()` puts the file back.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * JavaScript source of a function `__benchGrowth` with at least `bytes` bytes of statements.
 * @param {number} bytes
 * @param {string} markerFile
 * @returns {string}
 */
export function growthFunction(bytes, markerFile) {
  const statement = "  n = (n * 31 + 7) % 1000003;\n";
  const body = statement.repeat(Math.ceil(bytes / statement.length));
  return [
    "function __benchGrowth() {",
    "  let n = 1;",
    body,
    `  require("node:fs").writeFileSync(${JSON.stringify(markerFile)}, String(n));`,
    "}",
  ].join("\n");
}

/** The module the serialized provider text loads, below the package root. */
export const PROVIDER_MODULE = "dist/hosts/dynamic/provider-impl.js";

/**
 * @param {string} repoRoot
 * @param {number} bytes
 * @param {string} markerFile
 * @returns {{ addedBytes: number, called: () => boolean, restore: () => void }}
 */
export function growImplementation(repoRoot, bytes, markerFile) {
  const file = join(repoRoot, PROVIDER_MODULE);
  const original = readFileSync(file, "utf8");
  if (!/^exports\.provider = /m.test(original)) {
    throw new Error(`${file} no longer assigns exports.provider; the code-size figure needs a new place to grow`);
  }
  const growth = growthFunction(bytes, markerFile);
  const wrapper = [
    "const __benchCreate = exports.provider.create;",
    "exports.provider.create = async function create(props) {",
    "  __benchGrowth();",
    "  return __benchCreate(props);",
    "};",
  ].join("\n");
  rmSync(markerFile, { force: true });
  writeFileSync(file, `${original}\n${growth}\n${wrapper}\n`);
  return {
    addedBytes: Buffer.byteLength(growth) + Buffer.byteLength(wrapper),
    called: () => existsSync(markerFile),
    restore: () => writeFileSync(file, original),
  };
}
