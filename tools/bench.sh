#!/usr/bin/env bash
# The main job: install what is missing, build the sortbench binary, run the
# default sweep (configs/quick.json) on the GPU. Extra arguments go to
# `sortbench run`. NCCL (about 300 MB) is installed only where the arguments
# ask for the distributed family or several GPUs.
set -euo pipefail
cd "$(dirname "$0")/.."
setup=()
case " $* " in
  *distributed* | *" --gpus"* | *" --world"* | *" --processes"*) setup=(--nccl) ;;
esac
bash tools/setup.sh "${setup[@]}"
SORTBENCH_SETUP_DONE=1 bash tools/build.sh --target sortbench
exec ./build/sortbench run "$@"
