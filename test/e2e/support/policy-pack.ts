/**
 * The example policy pack (examples/pipeline/policy-pack) copied into a
 * directory of its own, as a user keeps one, with its node_modules resolving
 * this repository's packages (`pulumi-agent-hosting`, `@pulumi/policy`,
 * `@pulumi/pulumi`); and the analyzer launcher the engine falls back to
 * where no Node.js language host is installed (as on this machine):
 * `pulumi-analyzer-policy-nodejs`, started in the pack's directory, runs
 * `@pulumi/pulumi/cmd/run-policy-pack` with node.
 */
import { chmodSync, copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./stack";

export interface PolicyPackDir {
  /** The pack's directory (`--policy-pack`). */
  dir: string;
  /** A directory holding `pulumi-analyzer-policy-nodejs`, to put first on PATH. */
  launcherDir: string;
  /** Writes a `--policy-pack-config` file and returns its path. */
  config(name: string, settings: Record<string, unknown>): string;
  remove(): void;
}

export function policyPackDir(label: string): PolicyPackDir {
  const root = join(repoRoot, ".e2e-work", `${label}-${process.pid}-${Date.now().toString(36)}`);
  const dir = join(root, "policy-pack");
  const launcherDir = join(root, "bin");
  mkdirSync(dir, { recursive: true });
  mkdirSync(launcherDir, { recursive: true });
  for (const file of ["PulumiPolicy.yaml", "package.json", "index.cjs"]) {
    copyFileSync(join(repoRoot, "examples/pipeline/policy-pack", file), join(dir, file));
  }
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
  const launcher = join(launcherDir, "pulumi-analyzer-policy-nodejs");
  writeFileSync(launcher, '#!/bin/sh\nexec node ./node_modules/@pulumi/pulumi/cmd/run-policy-pack "$@"\n');
  chmodSync(launcher, 0o755);
  return {
    dir,
    launcherDir,
    config(name, settings) {
      const file = join(root, `${name}.json`);
      writeFileSync(file, JSON.stringify(settings, null, 2));
      return file;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
