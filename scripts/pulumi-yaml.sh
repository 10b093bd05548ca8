#!/usr/bin/env bash
# Provides Pulumi YAML's language host, `pulumi-language-yaml`, for the tests
# that run YAML programs from their own directory with the `pulumi` CLI.
#
# Prints the directory that holds it on its last line of stdout (progress goes
# to stderr). Uses one already on PATH; otherwise builds it from its Go module
# source at a pinned version into a cache directory outside the repo, keyed by
# that version. The Go module proxy here serves exact versions only, so a
# small tools module requires the version and `go build` builds the command
# (`go install ...@version` asks for a version list, which the proxy refuses).
set -euo pipefail

YAML_VERSION="${PULUMI_YAML_VERSION:-v1.30.0}"
CACHE_ROOT="${PULUMI_YAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-agent-hosting/pulumi-yaml}"
CACHE_DIR="$CACHE_ROOT/$YAML_VERSION"
PACKAGE="github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"

log() { printf '[pulumi-yaml] %s\n' "$*" >&2; }

if command -v pulumi-language-yaml >/dev/null 2>&1 && [ -z "${PULUMI_YAML_FORCE_BUILD:-}" ]; then
  existing_dir="$(cd "$(dirname "$(command -v pulumi-language-yaml)")" && pwd)"
  if [[ "$existing_dir" != "$CACHE_ROOT"* ]]; then
    log "using pulumi-language-yaml from $existing_dir"
    printf '%s\n' "$existing_dir"
    exit 0
  fi
fi

if [ -x "$CACHE_DIR/pulumi-language-yaml" ]; then
  log "using cached pulumi-language-yaml $YAML_VERSION from $CACHE_DIR"
  printf '%s\n' "$CACHE_DIR"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  for g in /usr/local/go/bin/go /usr/lib/go/bin/go; do
    if [ -x "$g" ]; then PATH="$(dirname "$g"):$PATH"; break; fi
  done
fi
command -v go >/dev/null 2>&1 || { log "error: no Go toolchain to build pulumi-language-yaml"; exit 1; }

log "building pulumi-language-yaml $YAML_VERSION from Go module source with $(go version) (first run only)"
BUILD_DIR="$CACHE_ROOT/build-$YAML_VERSION"
mkdir -p "$BUILD_DIR" "$CACHE_DIR"
cd "$BUILD_DIR"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
export GOSUMDB="${GOSUMDB:-off}"
if [ ! -f go.mod ]; then
  cat > go.mod <<MOD
module pulumiyamlbuild

go 1.24
MOD
fi
go get -tool "$PACKAGE@$YAML_VERSION" >&2
go build -trimpath -ldflags "-s -w" -o "$CACHE_DIR/pulumi-language-yaml.tmp" "$PACKAGE" >&2
mv "$CACHE_DIR/pulumi-language-yaml.tmp" "$CACHE_DIR/pulumi-language-yaml"
log "built pulumi-language-yaml $YAML_VERSION into $CACHE_DIR"
printf '%s\n' "$CACHE_DIR"
