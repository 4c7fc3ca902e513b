#!/usr/bin/env bash
# Session 19, H200. Stage "ab": the half-slab sort as a call (sortbench-new) against HEAD 4e1a781 (sortbench-base)
# on the MSD-then-local points, then the realistic suite at sizes between the tuned ones through the new binary.
# Stage "tests": GPU tests, the combined unseen config, and (arg 2 = suite) the realistic suite.
set -u
D=$(pwd)/.device/${DEV:-a}; T=/tmp/sb; mkdir -p $T
R=/tmp/r; mkdir -p $R
nvidia-smi -L
export SORTBENCH_BEST_JSON=results/h200/best.json
if [ "$1" = tests ]; then
  xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; xz -dc $D/sortbench-new.xz > $T/sortbench-new; chmod +x $T/*
  echo "== tests $(date +%T)"
  timeout 200 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*:SortDispatch.*:Registry/EveryVariant.ValidAndSameAsCub/radix_two_digit*' > $R/tests.txt 2>&1
  echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|^\[       OK" $R/tests.txt | head -30
  echo "== extra $(date +%T)"
  timeout 220 $T/sortbench-new run --config configs/realistic-extra.json --out $R/extra.json > $R/extra.txt 2>&1
  echo "extra rc $?"; tail -1 $R/extra.txt
  if [ "${2:-}" = suite ]; then
    echo "== suite $(date +%T)"
    timeout 170 $T/sortbench-new run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
    echo "suite rc $?"; tail -1 $R/suite.txt
  fi
  (cd /tmp && tar cJf $OUT/r19t.tar.xz r); echo "== done $(date +%T)"; exit 0
fi
for b in new base; do xz -dc $D/sortbench-$b.xz > $T/sortbench-$b; done; chmod +x $T/*
echo "== ab $(date +%T)"
for b in base new; do
  timeout 110 $T/sortbench-$b run --variants 'radix.two_digit_msd_local_lsd.*,radix.msd_local_lsd.*,cub.radix_sort.off32' --key u32,u64 --values none,u32 \
    --n 2^24,2^26,100000000,2^28 --dist uniform,sorted,runs:1000 --budget 0.05 --energy-window 0 --out $R/ab-$b.json > $R/ab-$b.txt 2>&1
  echo "ab $b rc $? $(date +%T)"
done
echo "== between $(date +%T)"
timeout 250 $T/sortbench-new run --config $D/between-s19.json --out $R/between.json > $R/between.txt 2>&1
echo "between rc $?"; tail -1 $R/between.txt
(cd /tmp && tar cJf $OUT/r19.tar.xz r)
echo "== done $(date +%T)"
