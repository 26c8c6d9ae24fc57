#!/bin/sh
# The whole service, as `npm start` runs it, without npm's own process left waiting beside it (54-67 MB that npm
# cannot hand over): this shell becomes bin/with-toolchain.sh, which becomes Node. For a small server, under
# systemd or another supervisor (docs/performance.md, "A small server"). The V8 flags are package.json's
# config.serviceNodeFlags, the ones every service process takes.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
flags=$(sed -n 's/^ *"serviceNodeFlags": "\(.*\)",\{0,1\}$/\1/p' package.json)
[ -n "$flags" ] || { echo "bin/start.sh: no config.serviceNodeFlags in package.json" >&2; exit 1; }
MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_ARENA_MAX
# shellcheck disable=SC2086 # the flags are words
exec sh bin/with-toolchain.sh node $flags src/main.ts
