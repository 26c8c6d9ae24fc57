#!/bin/sh
# Prints the path of a Python with PyPI's `anki` (the real Anki's collection code, for
# build-packages.py) from a virtual environment of the pinned requirements, built on first use (about
# 30 s) under the toolchain cache (test/support/python-venv.sh).
# Exits 3 with one line when python3 or its venv/pip modules are missing, so that callers can skip.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=$(sh "$here/../support/python-venv.sh" anki "$here/requirements.txt")
echo "$venv/bin/python"
