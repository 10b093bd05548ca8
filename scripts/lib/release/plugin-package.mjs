// The native provider plugin as Pulumi plugin tarballs, one per platform the
// engine downloads for, named as it asks for them
// (pulumi-resource-agent-hosting-v<version>-<os>-<arch>.tar.gz), and for
// `pulumi plugin install resource agent-hosting <version> --file <tarball>`.
//
// Layout (the tarball's root becomes the plugin's directory under
// ~/.pulumi/plugins/resource-agent-hosting-v<version>/):
//   pulumi-resource-agent-hosting   launcher: runs Node.js (>= 20, from PATH) on the bundle
//                                   (pulumi-resource-agent-hosting.cmd on Windows)
//   lib/native/plugin.js            the plugin and every dependency it starts with, in CommonJS
//   lib/native/*.js                 what it loads on first use: the client, the schemas, the verbs
//   schema.json, package.json       read by the plugin (GetSchema, GetPluginInfo)
// The bundle is made by rolldown from the built dist/hosts/grpc/plugin-bin.js, so the
// user's machine needs Node.js and nothing from npm; they are the same files in
// every tarball, only the launcher differs. Entries carry one fixed time, so
// the same sources give the same bytes.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../pulumi-env.mjs";
import { pluginTarballName, releaseVersion } from "./names.mjs";
import { sourceDateEpoch } from "./source-date.mjs";
import { tarGz } from "./tar-gz.mjs";

// The launcher passes Node no V8 flag: any flag on Node's command line makes
// Node compile its built-in modules from source rather than from the code
// cache it ships, about 20 ms of every start (launcher to listening, Node 20,
// 22 and 24 alike). The plugin sets the WebAssembly flags it wants itself,
// once it listens (src/hosts/wasm-baseline.ts).

// Node 22.1 and later keep the compiled bundle in NODE_COMPILE_CACHE and
// start from it the next time (launcher to listening 128 → 95 ms on Node 22,
// 121 → 87 ms on Node 24); Node 20 ignores the variable. The cache sits in
// the plugin's own directory, which belongs to the user and goes with the
// plugin; one the user set is kept. Where it cannot be written, Node starts
// as without it.
const COMPILE_CACHE_DIR = ".node-compile-cache";

const SH_LAUNCHER = `#!/bin/sh
# pulumi-resource-agent-hosting: the agent-hosting provider plugin, run on Node.js >= 20.
dir=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "pulumi-resource-agent-hosting: Node.js >= 20 must be on PATH (https://nodejs.org)" >&2
  exit 1
fi
NODE_COMPILE_CACHE="\${NODE_COMPILE_CACHE:-$dir/${COMPILE_CACHE_DIR}}"
export NODE_COMPILE_CACHE
exec node "$dir/lib/native/plugin.js" "$@"
`;

const CMD_LAUNCHER = [
  "@echo off",
  "rem pulumi-resource-agent-hosting: the agent-hosting provider plugin, run on Node.js >= 20.",
  "setlocal",
  `if not defined NODE_COMPILE_CACHE set "NODE_COMPILE_CACHE=%~dp0${COMPILE_CACHE_DIR}"`,
  "where node >nul 2>nul",
  "if errorlevel 1 (",
  "  echo pulumi-resource-agent-hosting: Node.js ^>= 20 must be on PATH ^(https://nodejs.org^) 1>&2",
  "  exit /b 1",
  ")",
  `node "%~dp0lib\\native\\plugin.js" %*`,
  "",
].join("\r\n");

export const pluginVersion = releaseVersion;

/** @typedef {import("./release/names.mjs").PluginTarget} PluginTarget */

/** The platform this process runs on, in the engine's names. @returns {PluginTarget} */
export function hostTarget() {
  /** @type {Record<string, PluginTarget["os"]>} */
  const systems = { linux: "linux", darwin: "darwin", win32: "windows" };
  /** @type {Record<string, PluginTarget["arch"]>} */
  const machines = { x64: "amd64", arm64: "arm64" };
  const os = systems[process.platform];
  const arch = machines[process.arch];
  if (!os || !arch) throw new Error(`no plugin tarball for ${process.platform}-${process.arch}`);
  return { os, arch };
}

/**
 * The launcher of one OS: its file name in the tarball and its text.
 * @param {PluginTarget["os"]} os
 * @returns {{ name: string, text: string }}
 */
export function launcher(os) {
  return os === "windows"
    ? { name: "pulumi-resource-agent-hosting.cmd", text: CMD_LAUNCHER }
    : { name: "pulumi-resource-agent-hosting", text: SH_LAUNCHER };
}

/**
 * The bundle's legal comments (`/*! ... *\/`, kept for their notices) with any
 * non-ASCII character written as a `\\u` escape: rolldown's `charset: "ascii"`
 * escapes the code's but leaves comments as they are, and one such character
 * makes V8 hold the whole source two bytes a character.
 * @param {string} text
 * @returns {string}
 */
export function asciiLegalComments(text) {
  return text.replace(/\/\*![\s\S]*?\*\//g, (comment) =>
    comment.replace(/[^ -~\t\n\r]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

/**
 * A rolldown plugin that keeps only zod's English locale, the one zod
 * registers itself with and the only one the provider's messages use: zod's
 * CommonJS entry exports every locale (`z.locales`), which schemas.js would
 * otherwise carry (about 430 KB, read and compiled when the plugin first
 * parses an answer of the service). The replacement is zod's own locales
 * index with `en` alone.
 */
export const englishOnlyZod = {
  name: "english-only-zod",
  /** @param {string} id */
  load(id) {
    if (!/[\\/]zod[\\/]v4[\\/]locales[\\/]index\.cjs$/.test(id)) return null;
    return 'Object.defineProperty(exports, "__esModule", { value: true });\nexports.en = require("./en.cjs").default;\n';
  },
};

/**
 * tsc's CommonJS output of `await import("x")` (dist/), which a bundler sees
 * as a plain `require`; lazyImports turns it back into `import("x")`.
 */
const TSC_LAZY_IMPORT = /Promise\.resolve\(\)\.then\(\(\) => __importStar\(require\(("[^"]+")\)\)\)/g;

/**
 * A rolldown plugin that gives the bundler back the package's lazy imports
 * (the client with undici, the response schemas with zod, the verbs that
 * call the service), so each becomes a file of its own that Node reads and
 * compiles only when the plugin first needs it. A preview needs none of
 * them: the file the plugin starts from is 1.3 MB rather than 2.25 MB.
 */
export const lazyImports = {
  name: "lazy-imports",
  /** @param {string} code @param {string} id */
  transform(code, id) {
    if (!/[\\/]dist[\\/]/.test(id)) return null;
    const lazy = code.replace(TSC_LAZY_IMPORT, (_call, specifier) => `import(${specifier})`);
    return lazy === code ? null : lazy;
  },
};

/**
 * The plugin and its dependencies as CommonJS files for lib/native/, bundled
 * from the built dist/hosts/grpc/plugin-bin.js: plugin.js, which the
 * launcher runs, and the files it loads on first use (lazyImports), by name.
 * @returns {Promise<{ name: string, data: Buffer }[]>}
 */
export async function bundlePlugin() {
  const require = createRequire(join(repoRoot, "package.json"));
  const { build } = await import(require.resolve("rolldown"));
  const stage = mkdtempSync(join(tmpdir(), "agent-hosting-plugin-"));
  try {
    await build({
      input: { plugin: join(repoRoot, "dist/hosts/grpc/plugin-bin.js") },
      platform: "node",
      logLevel: "warn",
      plugins: [englishOnlyZod, lazyImports],
      // ASCII only: V8 keeps a script's source as one byte a character when
      // every character fits, two otherwise, so one non-ASCII character (zod's
      // locales have many) doubles the bundle's source in the heap (~3 MiB).
      output: {
        dir: stage,
        format: "cjs",
        entryFileNames: "[name].js",
        chunkFileNames: "[name].js",
        charset: "ascii",
        comments: { legal: true, annotation: true, jsdoc: false },
      },
    });
    const files = readdirSync(stage)
      .sort()
      .map((name) => ({ name, data: Buffer.from(asciiLegalComments(readFileSync(join(stage, name), "utf8"))) }));
    if (!files.some((f) => f.name === "client.js")) {
      throw new Error(`the bundle has no client.js of its own (files: ${files.map((f) => f.name).join(", ")}): lazyImports no longer finds tsc's output of import(), so the plugin would compile the client at every start`);
    }
    return files;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * The bytes of the tarball for one platform.
 * @param {{ name: string, data: Buffer }[]} bundle the files of lib/native/ (bundlePlugin)
 * @param {PluginTarget} target
 * @param {string} [version]
 * @param {number} [mtime]
 * @returns {Buffer}
 */
export function pluginTarball(bundle, target, version = releaseVersion(), mtime = sourceDateEpoch()) {
  const start = launcher(target.os);
  const packageJson = `${JSON.stringify({ name: "pulumi-resource-agent-hosting", version, private: true }, null, 2)}\n`;
  const entries = [
    { path: "lib/", mode: 0o755 },
    { path: "lib/native/", mode: 0o755 },
    ...bundle.map((file) => ({ path: `lib/native/${file.name}`, mode: 0o644, data: file.data })),
    { path: "package.json", mode: 0o644, data: packageJson },
    { path: start.name, mode: 0o755, data: start.text },
    { path: "schema.json", mode: 0o644, data: readFileSync(join(repoRoot, "schema.json")) },
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  return tarGz(entries, mtime);
}

/**
 * Writes the tarball of each target into `outDir`; returns their paths.
 * @param {string} outDir
 * @param {readonly PluginTarget[]} targets
 * @param {string} [version]
 * @param {number} [mtime]
 * @returns {Promise<string[]>}
 */
export async function writePluginTarballs(outDir, targets, version = releaseVersion(), mtime = sourceDateEpoch()) {
  const bundle = await bundlePlugin();
  mkdirSync(outDir, { recursive: true });
  return targets.map((target) => {
    const path = join(outDir, pluginTarballName(version, target));
    writeFileSync(path, pluginTarball(bundle, target, version, mtime));
    return path;
  });
}

/** Bundles the built plugin and writes this platform's tarball into `outDir`; returns its path. @param {string} [outDir] @returns {Promise<string>} */
export async function packPlugin(outDir = join(repoRoot, "dist-plugin")) {
  const [tarball] = await writePluginTarballs(outDir, [hostTarget()]);
  return tarball;
}
