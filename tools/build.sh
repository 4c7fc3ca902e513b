#!/usr/bin/env bash
# Configures (CMakePresets.json: the default preset, Release for sm_90, the
# lean build) and builds sortbench into build/ (BUILD_DIR to change).
#   tools/build.sh [--target TARGET] [configure arguments...]
# Without --target everything is built, the tests too (where GoogleTest is
# installed: tools/setup.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
[ -n "${SORTBENCH_SETUP_DONE:-}" ] || bash tools/setup.sh
target=()
if [ "${1:-}" = --target ]; then
  target=(--target "$2")
  shift 2
fi
build=${BUILD_DIR:-build}
# SORTBENCH_COMPILE_TIMES=FILE: every compile's seconds go to FILE (tools/time_compile.sh;
# tools/compile_times.py makes the table of docs/build-times.md).
timing=()
if [ -n "${SORTBENCH_COMPILE_TIMES:-}" ]; then
  export SORTBENCH_COMPILE_TIMES
  timing=(-DCMAKE_CUDA_COMPILER_LAUNCHER="$PWD/tools/time_compile.sh" -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/tools/time_compile.sh")
fi
# The preset's generator is Ninja: it starts a target's compiles before the
# libraries they link are built, where make waits (a fresh clone's .ci/run:
# 538, 556 and 543 s against 561 and 573 s with make). A build folder made by
# another generator keeps it (CMake refuses to switch one), and without ninja, make.
generator=()
made_with=$( [ -f "$build/CMakeCache.txt" ] && sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build/CMakeCache.txt" || true)
if [ -n "$made_with" ]; then
  generator=(-G "$made_with")
elif ! command -v ninja >/dev/null; then
  generator=(-G "Unix Makefiles")
fi
# -B after the preset replaces its binaryDir, so BUILD_DIR keeps the preset's settings.
cmake --preset default -B "$build" "${generator[@]}" "${timing[@]}" "$@" >/dev/null
# Not the build preset: it knows only build/, and without -j make builds one file at a time.
cmake --build "$build" -j"$(nproc)" "${target[@]}"
