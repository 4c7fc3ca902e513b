#!/usr/bin/env bash
# Configures (CMakePresets.json: the default preset, Release for sm_90) and
# builds sortbench into build/ (BUILD_DIR to change; further arguments go to
# the configure step).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
bash tools/setup.sh
build=${BUILD_DIR:-build}
# -B after the preset replaces its binaryDir, so BUILD_DIR keeps the preset's settings.
cmake --preset default -B "$build" "$@" >/dev/null
# Not the build preset: it knows only build/, and without -j make builds one file at a time.
cmake --build "$build" -j"$(nproc)"
