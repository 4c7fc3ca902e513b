#!/usr/bin/env bash
# GPU regression check for CI (README "Regression tracking").
#
#   bash tools/ci-gpu.sh [--out-dir DIR] [--config FILE] [--baseline FILE] [-- COMPARE_OPTIONS]
#   bash tools/ci-gpu.sh --ab BASE_REF [--out-dir DIR] [--config FILE] [-- COMPARE_OPTIONS]
#
# Baseline mode (default): builds this checkout, runs configs/ci.json on the
# GPU and compares the report with results/<gpu-model>/baseline.json.
# A/B mode (--ab REF): also builds REF in a git worktree and runs both builds
# one after the other on the same GPU in this job (BASE first), then compares;
# no committed baseline is needed, and the two runs share the machine's state.
#
# Writes into DIR (default ci-out/): new.json (and base.json in A/B mode),
# compare.txt, summary.md; appends summary.md to $GITHUB_STEP_SUMMARY when set.
# Exit code: sortbench compare's (0 no regression, 1 regression, 2 bad input),
# or 2 when no baseline exists for this GPU model (the message says how to make one).
# Environment: CI_VARIANT_DIRS (default "baselines;radix;merge": the variant folders configs/ci.json
# needs; "" builds all), CMAKE_BUILD_PARALLEL_LEVEL.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH="/usr/local/cuda/bin:$PATH"

out_dir=ci-out
config=configs/ci.json
baseline=""
ab_ref=""
compare_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out-dir) out_dir=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --ab) ab_ref=$2; shift 2 ;;
    --) shift; compare_args=("$@"); break ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ci-gpu.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -f "$config" ] || { echo "ci-gpu.sh: $config: no such config" >&2; exit 2; }
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
config=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")
variant_dirs=${CI_VARIANT_DIRS-baselines;radix;merge}

# Builds the sortbench binary of the source tree $1 into $1/build-ci.
build() {
  local src=$1
  local dirs=()
  [ -n "$variant_dirs" ] && dirs=("-DSORTBENCH_VARIANT_DIRS=$variant_dirs")
  echo "ci-gpu.sh: building $src" >&2
  cmake -S "$src" -B "$src/build-ci" -DCMAKE_BUILD_TYPE=Release -DSORTBENCH_BUILD_TESTS=OFF "${dirs[@]}" >/dev/null
  cmake --build "$src/build-ci" -j"$(nproc)" --target sortbench >/dev/null
}

bash tools/setup.sh
build "$root"
new_bin=$root/build-ci/sortbench

if [ -n "$ab_ref" ]; then
  base_src=$out_dir/base-src
  git worktree remove --force "$base_src" >/dev/null 2>&1 || rm -rf "$base_src"
  git worktree add --detach "$base_src" "$ab_ref" >/dev/null
  trap 'git -C "$root" worktree remove --force "$base_src" >/dev/null 2>&1 || true' EXIT
  build "$base_src"
  # The same config for both: HEAD's, so a change to it cannot look like a regression.
  echo "ci-gpu.sh: running $ab_ref ($(git rev-parse --short "$ab_ref"))" >&2
  (cd "$base_src" && ./build-ci/sortbench run --config "$config" --out "$out_dir/base.json")
  baseline=$out_dir/base.json
fi

echo "ci-gpu.sh: running HEAD ($(git rev-parse --short HEAD))" >&2
"$new_bin" run --config "$config" --out "$out_dir/new.json"

if [ -z "$baseline" ]; then
  model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]["device"]["model"])' \
    "$out_dir/new.json")
  baseline=results/$model/baseline.json
  if [ ! -f "$baseline" ]; then
    echo "ci-gpu.sh: no baseline for GPU model '$model' ($baseline); to create one, review and commit" \
      "$out_dir/new.json as $baseline (README: Regression tracking, refreshing the baseline)" >&2
    exit 2
  fi
fi

set +e
"$new_bin" compare "$baseline" "$out_dir/new.json" --markdown "$out_dir/summary.md" "${compare_args[@]}" \
  | tee "$out_dir/compare.txt"
code=${PIPESTATUS[0]}
set -e
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out_dir/summary.md" ]; then
  cat "$out_dir/summary.md" >>"$GITHUB_STEP_SUMMARY"
fi
echo "ci-gpu.sh: compare exit $code ($out_dir/compare.txt, $out_dir/summary.md)" >&2
exit "$code"
