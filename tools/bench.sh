#!/usr/bin/env bash
# The main job: install what is missing, build, run the default sweep
# (configs/quick.json) on the GPU. Extra arguments go to `sortbench run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
exec ./build/sortbench run "$@"
