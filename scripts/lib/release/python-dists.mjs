// The Python SDK's wheel and sdist, built from sdk/python by PyPA's `build`
// with the setuptools backend the SDK's pyproject.toml names, both at exact
// versions in a virtualenv made once and cached outside the repository.
// The build runs on a copy (it writes build files beside the sources), with
// the package's README.md at the copy's root where pyproject.toml names it.
// SOURCE_DATE_EPOCH fixes the wheel's entry times; the sdist is rewritten
// with fixed times (normalize-sdist.py).
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cachedVenv } from "../cached-venv.mjs";
import { cacheRoot } from "../go-tool.mjs";
import { repoRoot } from "../pulumi-env.mjs";
import { sdistName, wheelName } from "./names.mjs";

/** The build frontend, the backend and their dependencies, exactly. */
export const PYTHON_BUILD_PACKAGES = ["build==1.6.1", "setuptools==84.2.1", "packaging==26.3", "pyproject_hooks==1.3.3"];

function pythonVersion() {
  return execFileSync("python3", ["-c", "import sys; print('.'.join(map(str, sys.version_info[:3])))"], { encoding: "utf8" }).trim();
}

/** The cached virtualenv's interpreter, made on first use (progress on stderr). */
export function buildVenvPython() {
  const key = [`python-${pythonVersion()}`, ...PYTHON_BUILD_PACKAGES.map((p) => p.replace("==", "-"))].join("_");
  return cachedVenv(join(cacheRoot, "release-python", key), "release-python", (python) => {
    const pip = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...PYTHON_BUILD_PACKAGES];
    execFileSync(python, pip, { stdio: ["ignore", "inherit", "inherit"] });
  });
}

/** Writes the wheel and the sdist into `outDir`; returns their paths. */
export function writePythonDists(outDir, version, mtime) {
  const python = buildVenvPython();
  const stage = mkdtempSync(join(tmpdir(), "agent-hosting-python-dist-"));
  try {
    const source = join(stage, "source");
    const built = join(stage, "built");
    cpSync(join(repoRoot, "sdk/python"), source, { recursive: true });
    copyFileSync(join(source, "pulumi_agent_hosting/README.md"), join(source, "README.md"));
    try {
      execFileSync(python, ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", built, source], {
        env: { ...process.env, SOURCE_DATE_EPOCH: String(mtime) },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      throw new Error(`python -m build failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    }
    mkdirSync(outDir, { recursive: true });
    const wheel = join(outDir, wheelName(version));
    const sdist = join(outDir, sdistName(version));
    copyFileSync(join(built, wheelName(version)), wheel);
    execFileSync(python, [join(repoRoot, "scripts/lib/release/normalize-sdist.py"), join(built, sdistName(version)), sdist, String(mtime)]);
    return [wheel, sdist];
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
