/**
 * A Python program's environment as a user of the release makes it: a new
 * virtualenv holding the released wheel and what its requirements name.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * A program directory's virtualenv as its README makes it (`python3 -m venv
 * venv`, then `venv/bin/pip install -r requirements.txt`), with the release
 * directory as a place pip finds the wheel (`--find-links`): the package is
 * on no index here. Returns the interpreter.
 */
export function installRequirements(programDir: string, releaseDir: string): string {
  execFileSync("python3", ["-m", "venv", "venv"], { cwd: programDir, stdio: ["ignore", "ignore", "pipe"] });
  const pip = ["install", "--quiet", "--disable-pip-version-check", "--find-links", releaseDir, "-r", "requirements.txt"];
  execFileSync(join(programDir, "venv", "bin", "pip"), pip, { cwd: programDir, stdio: ["ignore", "ignore", "pipe"] });
  return join(programDir, "venv", "bin", "python");
}
