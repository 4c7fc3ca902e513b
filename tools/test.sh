#!/usr/bin/env bash
# Installs what is missing (tools/setup.sh --test: the packages the tests need
# besides the build's), builds everything and runs every test through ctest.
# GPU tests (label gpu) report skipped on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh --test
SORTBENCH_SETUP_DONE=1 bash tools/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)" "$@"
