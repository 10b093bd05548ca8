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
