#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test through ctest.
# GPU tests (label gpu) report skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh --test
bash tools/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)" "$@"
