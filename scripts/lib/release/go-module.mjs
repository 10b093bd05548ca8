// The Go SDK (sdk/go) at v<version> in a Go module proxy's layout, written
// by tools/goproxy-module (golang.org/x/mod's zip, built once and cached).
// `GOPROXY=file://<dir>,https://proxy.golang.org` then serves it as the
// public proxy serves it once the tag sdk/go/v<version> is pushed.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { goTool } from "../go-tool.mjs";
import { repoRoot } from "../pulumi-env.mjs";

export function writeGoProxy(proxyDir, version, mtime) {
  const time = new Date(mtime * 1000).toISOString().replace(/\.000Z$/, "Z");
  execFileSync(goTool("goproxy-module"), [join(repoRoot, "sdk/go"), `v${version}`, time, proxyDir], {
    stdio: ["ignore", "inherit", "inherit"],
  });
}
