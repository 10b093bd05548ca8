// A temporary build of dist/provider/implementation.js whose `create` first
// calls a generated function of at least `bytes` bytes of code, which leaves
// a marker file when it runs, so the bench can tell that the grown code was
// really called (and not just present). The `provider` object's create (what
// the serialized text hands to Pulumi) is grown; the exported `create` (what
// the provider texts of earlier versions call) goes through it.
// `restore()` puts the file back.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** JavaScript source of a function `__benchGrowth` with at least `bytes` bytes of statements. */
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

export function growImplementation(repoRoot, bytes, markerFile) {
  const file = join(repoRoot, "dist/provider/implementation.js");
  const original = readFileSync(file, "utf8");
  for (const name of ["create", "provider"]) {
    if (!new RegExp(`^exports\\.${name} = `, "m").test(original)) {
      throw new Error(`${file} no longer assigns exports.${name}; the code-size figure needs a new place to grow`);
    }
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
