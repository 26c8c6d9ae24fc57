#!/bin/sh
# python-venv.sh NAME REQUIREMENTS [PIP_ARGS...]: prints the path of a virtual environment of the pinned
# REQUIREMENTS, building it on first use under the toolchain cache, keyed by NAME and the requirements'
# hash: every worktree shares it, and a changed pin gets a venv of its own (test/schemathesis, test/anki).
# Exits 3 with one line when python3 or its venv/pip modules are missing, so that callers can skip.
set -eu
name=$1
requirements=$2
shift 2
cache_root="${LCS_CACHE_DIR:-$HOME/.cache/language-capture}"
venv="$cache_root/$name-venv-$(sha256sum "$requirements" | cut -c1-12)"

# `.complete` is written last: a venv without it is a build that was interrupted.
if [ -f "$venv/.complete" ]; then echo "$venv"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  echo "python3 with its venv and pip modules is not installed" >&2
  exit 3
fi
mkdir -p "$cache_root"
# One build at a time (two test runs may start together); the second finds it complete.
exec 9>"$venv.lock"
flock 9
if [ ! -f "$venv/.complete" ]; then
  echo "$name: building a venv of $requirements in $venv ..." >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" -r "$requirements" >&2
  "$venv/bin/python" -m pip check >&2
  touch "$venv/.complete"
fi
echo "$venv"
