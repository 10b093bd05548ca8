/**
 * The package schema answered by GetSchema: schema.json at the package root,
 * generated from the registry (scripts/gen-schema.mjs) and committed. The
 * root is the nearest folder above this module that holds schema.json: the
 * npm package's root (dist/hosts/grpc/ is three levels down) or the plugin
 * tarball's (its bundle is lib/native/plugin.js).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

function packageRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "schema.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no schema.json in any folder above ${__dirname}`);
  }
}

/** Read at each GetSchema call, which the engine makes once per plugin at most. */
export function schemaText(): string {
  return readFileSync(join(packageRoot(), "schema.json"), "utf8");
}

export function pluginVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}
