#!/usr/bin/env bash
# Session 22, H200, first call: 7764094. The dispatch past a pick's cap (targeted points and the extra config), then
# the GPU tests of the dispatch, Onesweep packed pairs and the two-digit design.
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
xz -dc $D/sortbench-new.xz > $T/sortbench; xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== caps-u32 $(date +%T)"
timeout 120 $T/sortbench run --variants 'dispatch.sort,best:radix,cub.radix_sort.*,radix.onesweep_packed_pairs.rb8.ipt18.tpb512.mb2.skip_constant_digits,radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384' \
  --key u32 --values u32 --n 100000000,120000000 --dist few_unique:10,few_unique:1000,entropy:0.201,few_unique:50 \
  --budget 0.1 --energy-window 0 --out $R/caps-u32.json > $R/caps-u32.txt 2>&1
echo "rc $?"; tail -1 $R/caps-u32.txt
echo "== caps-u64 $(date +%T)"
timeout 120 $T/sortbench run --variants 'dispatch.sort,best:radix,cub.radix_sort.*,radix.onesweep.rb8.ipt15.tpb512.mb2,radix.onesweep.rb8.ipt18.tpb512.mb2.skip_constant_digits,radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128' \
  --key u64 --values none,u32 --n 28000000 --dist uniform,sorted,runs:64,few_unique:1000,few_unique:10 \
  --budget 0.1 --energy-window 0 --out $R/caps-u64.json > $R/caps-u64.txt 2>&1
echo "rc $?"; tail -1 $R/caps-u64.txt
(cd /tmp && tar cJf $OUT/r22a1.tar.xz r)
echo "== extra $(date +%T)"
timeout 190 $T/sortbench run --config configs/realistic-extra.json --out $R/extra.json > $R/extra.txt 2>&1
echo "extra rc $?"; tail -1 $R/extra.txt
(cd /tmp && tar cJf $OUT/r22a2.tar.xz r)
echo "== tests $(date +%T)"
timeout 170 $T/gpu_tests --gtest_filter='SortDispatch.*:Registry/EveryVariant.*onesweep_packed_pairs*:Registry/EveryVariant.*two_digit*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests.txt | head -30; grep -c "^\[       OK" $R/tests.txt
(cd /tmp && tar cJf $OUT/r22a.tar.xz r); echo "== done $(date +%T)"
