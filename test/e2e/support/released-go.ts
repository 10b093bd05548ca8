/**
 * A Go program built as a user of the release builds it: its go.mod
 * requires the SDK module by version, with no replace directive, and the go
 * command fetches it through GOPROXY with the release's module proxy first.
 * The module cache is the program's own, empty at first, so the SDK comes
 * from the release and from nowhere else; the machine's module cache, in
 * proxy layout, serves the other modules before the public proxy does.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { goBinary, goEnv, GOPROXY_DIR } from "../../support/project-scripts";
import { GO_MODULE } from "../../../src/hosts/grpc/package-schema";
import { copyGoDriver } from "../../languages/support/drivers";
import { asGoDriverProgram } from "../../support/program-runners";

export interface GoBuild {
  binary: string;
  /** What `go list -m` says of the SDK module the program was built with. */
  sdk: { Path: string; Version: string; Dir: string };
}

/** The go command's environment for a program in `dir` built against the release in `releaseDir`. */
export function releasedGoEnv(releaseDir: string, dir: string): NodeJS.ProcessEnv {
  const machineCache = execFileSync(goBinary(), ["env", "GOMODCACHE"], { encoding: "utf8", env: goEnv() }).trim();
  return goEnv({
    GOMODCACHE: join(dir, "gomodcache"),
    // -modcacherw: the program's module cache can be removed like any directory.
    GOFLAGS: "-mod=mod -modcacherw",
    GOPROXY: [`file://${join(releaseDir, GOPROXY_DIR)}`, `file://${join(machineCache, "cache", "download")}`, "https://proxy.golang.org"].join(","),
  });
}

function build(source: string, env: NodeJS.ProcessEnv, binary: string): GoBuild {
  execFileSync(goBinary(), ["build", "-trimpath", "-o", binary, "."], { cwd: source, env, stdio: ["ignore", "ignore", "pipe"] });
  const sdk = JSON.parse(execFileSync(goBinary(), ["list", "-m", "-json", GO_MODULE], { cwd: source, env, encoding: "utf8" })) as GoBuild["sdk"];
  return { binary, sdk };
}

/**
 * Builds a Go program directory (its go.mod, go.sum and main.go, as a user has
 * them after `go mod tidy`) beside the Go driver, which runs it: its main.go
 * becomes the driver's readmeProgram (test/support/program-runners.ts).
 */
export function buildProgramAgainstRelease(releaseDir: string, programDir: string, dir: string): GoBuild {
  const env = releasedGoEnv(releaseDir, dir);
  const source = join(dir, "driver");
  mkdirSync(source, { recursive: true });
  for (const file of ["go.mod", "go.sum"]) copyFileSync(join(programDir, file), join(source, file));
  copyGoDriver(source);
  writeFileSync(join(source, "program.go"), asGoDriverProgram(readFileSync(join(programDir, "main.go"), "utf8"), programDir));
  return build(source, env, join(dir, "program-driver"));
}
