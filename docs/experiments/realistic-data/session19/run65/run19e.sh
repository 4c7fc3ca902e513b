#!/usr/bin/env bash
# Session 19, H200, last call: the listed blocks' lists made on the device (sortbench-new, gpu_tests-new): the A/B
# inputs of run19b/c, sanitizers on the listed kernels, TwoDigitOverflow of the three lean two-digit points.
set -u
D=$(pwd)/.device/e; T=/tmp/sb; mkdir -p $T
R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
export SORTBENCH_BEST_JSON=results/h200/best.json
xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; xz -dc $D/sortbench-new.xz > $T/sortbench-new; chmod +x $T/*
echo "== ab $(date +%T)"
timeout 40 $T/sortbench-new run --variants 'radix.two_digit_msd_local_lsd.*,cub.radix_sort.off32,dispatch.sort' --key u32,u64 --values none,u32 \
  --n 2^24,2^26 --dist runs:300,runs:500,runs:1000,runs:2000,runs:4000,few_unique:16384,few_unique:40000 --budget 0.05 --energy-window 0 --out $R/ab-lists.json > $R/ab-lists.txt 2>&1
echo "ab rc $?"; tail -1 $R/ab-lists.txt
san() {  # tool timeout variants key values n dist
  echo "== $1 $3 $4/$5 $7 $(date +%T)"
  timeout $2 compute-sanitizer --tool $1 $T/sortbench-new run --variants "$3" --key $4 --values $5 --n $6 --dist $7 --budget 0.001 --energy-window 0 --out $R/$1-$4-$5.json > $R/$1-$4-$5.txt 2>&1
  echo "$1 rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/$1-$4-$5.txt; grep -c ": ok" $R/$1-$4-$5.txt
}
san racecheck 30 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' u32 u32 200003 'hot_buckets:0.0096:1,few_unique:347'
san memcheck 30 'radix.two_digit_msd_local_lsd.*' u64 u32 4194305 'hot_buckets:0.000458:1,hot_buckets:0.001526:1,runs:1000,few_unique:7282'
(cd /tmp && tar cJf $OUT/r19e1.tar.xz r)
echo "== tests $(date +%T)"
timeout 175 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|^\[       OK|Failure|took" $R/tests.txt | head -30
(cd /tmp && tar cJf $OUT/r19e.tar.xz r); echo "== done $(date +%T)"
