// @ts-check
// A Python virtualenv made once and cached outside the repository, keyed by
// the caller (the directory names what went into it). It is built under a
// temporary name and renamed into place, so two processes making the same
// one at once end with one complete copy; `install(python)` fills it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The interpreter of the virtualenv at `dir`, made with `install` on first use; `label` prefixes the progress line on stderr.
 * @param {string} dir
 * @param {string} label
 * @param {(python: string) => void} install
 * @returns {string}
 */
export function cachedVenv(dir, label, install) {
  const python = join(dir, "bin", "python");
  if (existsSync(python)) return python;
  mkdirSync(dirname(dir), { recursive: true });
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  process.stderr.write(`[${label}] creating ${dir}\n`);
  execFileSync("python3", ["-m", "venv", partial], { stdio: ["ignore", "inherit", "inherit"] });
  install(join(partial, "bin", "python"));
  // A venv's scripts name its directory; the interpreter resolves its prefix from where it is run, so the rename is safe for it.
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another process made the same virtualenv at the same time and renamed its copy first.
    if (!existsSync(python)) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
  return python;
}
