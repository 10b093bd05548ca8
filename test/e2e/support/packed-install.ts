/**
 * The package as users install it, shared by the files that install its
 * tarball (test/e2e/packed-package.test.ts, test/e2e/typescript-generations.test.ts):
 * one `npm pack` per content of what it packs, cached outside the repository
 * (packing skips the prepack build, so that the other test files, which load
 * the same dist/, are never left without it); npm run as a user runs it; and
 * the environment of an offline file backend in a program's directory; the
 * runner a program's directory gets (copyPackedRunner).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { delimiter, join } from "node:path";
import { cacheRoot, sourceHash } from "../../support/project-scripts";
import { repoRoot } from "./stack";

/** The environment of npm run by a user: none of the `npm_*` settings of the `npm test` that runs this file. */
export function userNpmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
}

/** A user's environment with `nodeBin` first on PATH (when given), and no node_modules/.bin (where a test runner puts the repository's bins). */
export function userEnvOnNode(nodeBin?: string): NodeJS.ProcessEnv {
  const path = (process.env["PATH"] ?? "").split(delimiter).filter((dir) => !dir.includes("node_modules"));
  return { ...userNpmEnv(), PATH: [...(nodeBin ? [nodeBin] : []), ...path].join(delimiter) };
}

/** test/e2e/programs/packed-runner.cjs copied into `dir` as `name`, with the module it requires beside it; its path. */
export function copyPackedRunner(dir: string, name = "runner.cjs"): string {
  const runner = join(dir, name);
  copyFileSync(join(repoRoot, "test/e2e/programs/packed-runner.cjs"), runner);
  copyFileSync(join(repoRoot, "scripts/lib/up-phases.cjs"), join(dir, "up-phases.cjs"));
  return runner;
}

export function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = userNpmEnv()): string {
  return execFileSync("npm", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The files `npm pack` takes (package.json's `files`, the README and package.json). */
function packKey(): string {
  const hash = createHash("sha256").update(sourceHash([join(repoRoot, "dist")]));
  for (const file of ["package.json", "README.md", "schema.json"]) hash.update("\0").update(file).update(readFileSync(join(repoRoot, file)));
  return hash.digest("hex").slice(0, 16);
}

/** The package's tarball, packed once per content of dist/ and the files beside it, under ~/.cache/pulumi-agent-hosting/packed/. */
export function packedTarball(): string {
  if (!existsSync(join(repoRoot, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
  const dir = join(cacheRoot, "packed", `${version}-${packKey()}`);
  const tarball = join(dir, `pulumi-agent-hosting-${version}.tgz`);
  if (existsSync(tarball)) return tarball;
  const partial = `${dir}.${process.pid}`;
  mkdirSync(partial, { recursive: true });
  npm(["pack", "--json", "--ignore-scripts", "--pack-destination", partial], repoRoot);
  // Another test file may have packed the same content meanwhile: keep its copy.
  if (existsSync(tarball)) rmSync(partial, { recursive: true, force: true });
  else renameSync(partial, dir);
  return tarball;
}

/** The environment of a stack operation in `dir` on an offline file backend there (state and PULUMI_HOME under `.pulumi-state`). */
export function offlineStackEnv(dir: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const state = join(dir, ".pulumi-state");
  mkdirSync(join(state, "backend"), { recursive: true });
  mkdirSync(join(state, "home"), { recursive: true });
  return {
    ...env,
    PULUMI_BACKEND_URL: `file://${join(state, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "agent-hosting-local-passphrase",
    PULUMI_HOME: join(state, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
}
