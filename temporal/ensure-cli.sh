#!/bin/sh
# Prints the path of a Temporal CLI, building one when the machine has none.
# Order: $TEMPORAL_CLI_PATH, `temporal` on PATH, our cached build, else `go install` (minutes,
# once). v1.5.1 is the newest CLI whose go.mod has no `replace` directive, so `go install` works
# from the module proxy; it embeds Temporal server 1.29.
set -eu
version=v1.5.1
cache="${LCS_CACHE_DIR:-$HOME/.cache/language-capture}/temporal-$version"

if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -x "$TEMPORAL_CLI_PATH" ]; then echo "$TEMPORAL_CLI_PATH"; exit 0; fi
if command -v temporal >/dev/null 2>&1; then command -v temporal; exit 0; fi
if [ -x "$cache/temporal" ]; then echo "$cache/temporal"; exit 0; fi

command -v go >/dev/null 2>&1 || { echo "No Temporal CLI and no Go toolchain to build one: install the temporal CLI or Go" >&2; exit 1; }
echo "Building the Temporal CLI $version from the Go module proxy (one time, a few minutes)..." >&2
mkdir -p "$cache"
GOBIN="$cache" go install "github.com/temporalio/cli/cmd/temporal@$version" >&2
echo "$cache/temporal"
