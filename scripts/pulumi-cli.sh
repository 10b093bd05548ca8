#!/usr/bin/env bash
# Provides the `pulumi` CLI for this project's demo, end-to-end tests and bench.
#
# Prints the directory that holds `pulumi` and `pulumi-resource-pulumi-nodejs`
# (the dynamic provider's launcher, copied from node_modules/@pulumi/pulumi) on
# its last line of stdout (progress goes to stderr).
#
# Programs are run through the Automation API's inline programs, whose language
# runtime is the Node SDK's own in-process server, so no `pulumi-language-nodejs`
# binary is needed: the Go module proxy reachable here does not serve that
# nested module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3)
# at any version or commit we tried. Uses a `pulumi` already on PATH when it is recent enough; otherwise
# builds both from their Go module source at a pinned version into a cache
# directory outside the repo, keyed by that version.
set -euo pipefail

PULUMI_VERSION="${PULUMI_CLI_VERSION:-v3.259.0}"
MIN_MAJOR=3
MIN_MINOR=200
CACHE_ROOT="${PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-agent-hosting/pulumi-cli}"
CACHE_DIR="$CACHE_ROOT/$PULUMI_VERSION"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '[pulumi-cli] %s\n' "$*" >&2; }

find_shim() {
  local candidates=(
    "$REPO_ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
    "$REPO_ROOT/node_modules/@pulumi/pulumi/bin/pulumi-resource-pulumi-nodejs"
  )
  for c in "${candidates[@]}"; do
    if [ -f "$c" ]; then printf '%s' "$c"; return 0; fi
  done
  return 1
}

install_shim() {
  local dir="$1" shim
  if shim="$(find_shim)"; then
    # Copy only when it differs, and by rename: a running copy must never be
    # overwritten in place (another process may be executing it).
    if ! cmp -s "$shim" "$dir/pulumi-resource-pulumi-nodejs" 2>/dev/null; then
      cp "$shim" "$dir/.pulumi-resource-pulumi-nodejs.$$"
      chmod +x "$dir/.pulumi-resource-pulumi-nodejs.$$"
      mv -f "$dir/.pulumi-resource-pulumi-nodejs.$$" "$dir/pulumi-resource-pulumi-nodejs"
    fi
  else
    log "warning: node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs not found (run npm ci first)"
  fi
}

recent_enough() {
  local v="$1" major minor
  v="${v#v}"
  major="${v%%.*}"; v="${v#*.}"; minor="${v%%.*}"
  [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]] || return 1
  (( major > MIN_MAJOR || (major == MIN_MAJOR && minor >= MIN_MINOR) ))
}

# 1. A pulumi on PATH that is recent enough, with its nodejs language host.
if command -v pulumi >/dev/null 2>&1 && [ -z "${PULUMI_CLI_FORCE_BUILD:-}" ]; then
  existing="$(command -v pulumi)"
  existing_dir="$(cd "$(dirname "$existing")" && pwd)"
  ver="$(pulumi version 2>/dev/null || true)"
  if [[ "$existing_dir" != "$CACHE_ROOT"* ]] && recent_enough "$ver"; then
    log "using pulumi $ver from $existing_dir"
    printf '%s\n' "$existing_dir"
    exit 0
  fi
fi

# 2. The cached build.
if [ -x "$CACHE_DIR/pulumi" ]; then
  install_shim "$CACHE_DIR"
  log "using cached pulumi $PULUMI_VERSION from $CACHE_DIR"
  printf '%s\n' "$CACHE_DIR"
  exit 0
fi

# 3. Build from Go module source.
if ! command -v go >/dev/null 2>&1; then
  for g in /usr/local/go/bin/go /usr/lib/go/bin/go; do
    if [ -x "$g" ]; then PATH="$(dirname "$g"):$PATH"; break; fi
  done
fi
if ! command -v go >/dev/null 2>&1; then
  log "error: no pulumi CLI on PATH and no Go toolchain to build one."
  log "Install Go (https://go.dev/dl) or the pulumi CLI (>= v$MIN_MAJOR.$MIN_MINOR), then run again."
  exit 1
fi

log "building pulumi $PULUMI_VERSION from Go module source with $(go version) (first run only; about 5-15 minutes on 2 cores)"
BUILD_DIR="$CACHE_ROOT/build-$PULUMI_VERSION"
mkdir -p "$BUILD_DIR" "$CACHE_DIR"
cd "$BUILD_DIR"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
export GOSUMDB="${GOSUMDB:-off}"

if [ ! -f go.mod ]; then
  cat > go.mod <<MOD
module pulumiclibuild

go 1.24

replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
MOD
fi

log "resolving github.com/pulumi/pulumi/pkg/v3@$PULUMI_VERSION"
go get -tool "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@$PULUMI_VERSION" >&2
LDFLAGS="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$PULUMI_VERSION"
log "compiling pulumi"
go build -trimpath -ldflags "$LDFLAGS" -o "$CACHE_DIR/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >&2
mv "$CACHE_DIR/pulumi.tmp" "$CACHE_DIR/pulumi"
install_shim "$CACHE_DIR"
log "built pulumi $("$CACHE_DIR/pulumi" version) into $CACHE_DIR"
printf '%s\n' "$CACHE_DIR"
