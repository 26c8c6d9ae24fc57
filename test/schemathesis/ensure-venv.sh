#!/bin/sh
# Prints the path of a schemathesis CLI from a virtual environment of the pinned requirements,
# building it on first use (about 20 s) under the toolchain cache, keyed by the requirements'
# hash: every worktree shares it, and a changed pin gets a venv of its own.
# Exits 3 with one line when python3 or its venv/pip modules are missing, so that callers can skip.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache_root="${LCS_CACHE_DIR:-$HOME/.cache/language-capture}"
venv="$cache_root/schemathesis-venv-$(sha256sum "$here/requirements.txt" | cut -c1-12)"

# `.complete` is written last: a venv without it is a build that was interrupted.
if [ -f "$venv/.complete" ]; then echo "$venv/bin/schemathesis"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  echo "python3 with its venv and pip modules is not installed" >&2
  exit 3
fi
mkdir -p "$cache_root"
# One build at a time (two test runs may start together); the second finds it complete.
exec 9>"$venv.lock"
flock 9
if [ ! -f "$venv/.complete" ]; then
  echo "schemathesis: building a venv of $here/requirements.txt in $venv ..." >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$here/requirements.txt" >&2
  "$venv/bin/python" -m pip check >&2
  touch "$venv/.complete"
fi
echo "$venv/bin/schemathesis"
