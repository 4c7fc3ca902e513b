#!/usr/bin/env bash
# Session 20, H200: the block kernel in thirds of a slab up to two thirds of a slab a bucket on average, halves
# above (sortbench-new2, gpu_tests-new2): the A/B inputs of run20d, GPU tests, memcheck, the suite.
set -u
D=$(pwd)/.device/g; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
xz -dc $D/sortbench-new2.xz > $T/sortbench; xz -dc $D/gpu_tests-new2.xz > $T/gpu_tests; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== ab $(date +%T)"
timeout 60 $T/sortbench run --variants 'radix.two_digit_msd_local_lsd.*,dispatch.sort,cub.radix_sort.off32' --key u32,u64 --values none,u32 \
  --n 2^24,2^26,100000000,150000000,2^28 --dist uniform,runs:500,sorted,few_unique:1000 --budget 0.05 --energy-window 0 --out $R/ab-new2.json > $R/ab-new2.txt 2>&1
echo "ab rc $?"; tail -1 $R/ab-new2.txt
(cd /tmp && tar cJf $OUT/r20e1.tar.xz r)
echo "== tests $(date +%T)"
timeout 330 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_two_digit*:Registry/EveryVariant.*radix_msd_local_lsd*:Registry/TwoDigitOverflow.*:SortDispatch.*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests.txt | head -30; grep -c "^\[       OK" $R/tests.txt
(cd /tmp && tar cJf $OUT/r20e2.tar.xz r)
echo "== memcheck $(date +%T)"
timeout 40 compute-sanitizer --tool memcheck $T/sortbench run --variants 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' --key u32,u64 --values u32 --n 16778216 --dist uniform,runs:500 --budget 0.001 --energy-window 0 --out $R/memcheck.json > $R/memcheck.txt 2>&1
echo "memcheck rc $?"; grep -E "ERROR SUMMARY" $R/memcheck.txt; grep -c ": ok" $R/memcheck.txt
echo "== suite $(date +%T)"
timeout 150 $T/sortbench run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
echo "suite rc $?"; tail -1 $R/suite.txt
(cd /tmp && tar cJf $OUT/r20e.tar.xz r); echo "== done $(date +%T)"
