#!/bin/sh
# Prints the path of a schemathesis CLI from a virtual environment of the pinned requirements,
# building it on first use (about 20 s) under the toolchain cache (test/support/python-venv.sh).
# Exits 3 with one line when python3 or its venv/pip modules are missing, so that callers can skip.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=$(sh "$here/../support/python-venv.sh" schemathesis "$here/requirements.txt" --no-deps)
echo "$venv/bin/schemathesis"
