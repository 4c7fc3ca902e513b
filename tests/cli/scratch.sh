# Sourced by the CLI tests: strict mode, fail(), a scratch directory ($work)
# removed on exit, and need_gpus for the GPU tests.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# need_gpus BINARY COUNT: exit 77 (ctest's skipped) with the reason where
# `sortbench info` finds no usable GPU or the machine has fewer than COUNT.
need_gpus() {
  local err gpus
  if ! err=$("$1" info 2>&1 >/dev/null); then
    if grep -q "no usable CUDA GPU" <<<"$err"; then echo "SKIPPED: $err"; exit 77; fi
    fail "sortbench info: $err"
  fi
  [ "$2" -le 1 ] && return 0
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
  [ "${gpus:-0}" -ge "$2" ] || { echo "SKIPPED: needs $2 GPUs, this machine has ${gpus:-0}"; exit 77; }
}
