/**
 * A Python program's environment as a user of the release makes it: a new
 * virtualenv holding the released wheel and `pulumi` from PyPI, nothing else.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { PULUMI_VERSION } from "../../languages/support/drivers";

/** Creates the virtualenv at `venvDir`; returns its interpreter. */
export function installWheel(wheel: string, venvDir: string): string {
  execFileSync("python3", ["-m", "venv", venvDir], { stdio: ["ignore", "ignore", "pipe"] });
  const python = join(venvDir, "bin", "python");
  execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, `pulumi==${PULUMI_VERSION}`], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return python;
}

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
