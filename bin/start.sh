#!/bin/sh
# Runs a service process: the whole service (src/main.ts) unless given another entry, as `npm start`,
# `npm run api` and `npm run worker` do. Run directly (`sh bin/start.sh`), it leaves no npm process
# waiting beside the service (54-67 MB that npm cannot hand over): this shell becomes
# bin/with-toolchain.sh, which becomes Node. For a small server, under systemd or another supervisor
# (docs/performance.md, "A small server"). The V8 flags and the environment are package.json's
# config.serviceNodeFlags and config.serviceEnv, the ones every service process takes; a variable
# already set in the environment keeps its value.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
entry="${1:-src/main.ts}"
config() { sed -n "s/^ *\"$1\": \"\(.*\)\",\{0,1\}\$/\1/p" package.json; }
flags=$(config serviceNodeFlags)
environment=$(config serviceEnv)
[ -n "$flags" ] && [ -n "$environment" ] || { echo "bin/start.sh: no config.serviceNodeFlags or config.serviceEnv in package.json" >&2; exit 1; }
for assignment in $environment; do
  name=${assignment%%=*}
  eval "[ -n \"\${$name:-}\" ]" || export "$assignment"
done
# shellcheck disable=SC2086 # the flags are words
exec sh bin/with-toolchain.sh node $flags "$entry"
