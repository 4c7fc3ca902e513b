#!/usr/bin/env bash
# Configures and builds sortbench for sm_90 into build/ (BUILD_DIR to change).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
bash tools/setup.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
