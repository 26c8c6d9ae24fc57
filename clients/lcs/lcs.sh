#!/bin/sh
# `lcs` from the clone (`npx lcs …`, package.json `bin`): runs main.ts on the toolchain's Node 24
# (the machine's Node may be older; Node 24 strips the types itself), from the caller's own directory.
set -eu
self=$(readlink -f "$0")
root=$(cd "$(dirname "$self")/../.." && pwd)
# The CLI needs neither Temporal nor espeak-ng: the toolchain script need not fetch them.
LCS_CWD=$(pwd) TEMPORAL_CLI_PATH="${TEMPORAL_CLI_PATH:-unused-by-lcs}" SKIP_ESPEAK=1 \
  exec sh "$root/bin/with-toolchain.sh" node "$root/clients/lcs/main.ts" "$@"
