#!/usr/bin/env bash
# Session 19, H200, third call: eight times the threads for overflowing buckets of two to eight slabs
# (sortbench-new, gpu_tests-new): the A/B inputs of run19b's, sanitizers, GPU tests, the suite, the unseen config.
set -u
D=$(pwd)/.device/c; T=/tmp/sb; mkdir -p $T
R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
export SORTBENCH_BEST_JSON=results/h200/best.json
xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; xz -dc $D/sortbench-new.xz > $T/sortbench-new; chmod +x $T/*
echo "== ab $(date +%T)"
timeout 60 $T/sortbench-new run --variants 'radix.two_digit_msd_local_lsd.*,cub.radix_sort.off32,dispatch.sort' --key u32,u64 --values none,u32 \
  --n 2^24,2^26 --dist runs:300,runs:500,runs:1000,runs:2000,runs:4000,few_unique:16384,few_unique:40000 --budget 0.05 --energy-window 0 --out $R/ab-new2.json > $R/ab-new2.txt 2>&1
echo "ab rc $?"; tail -1 $R/ab-new2.txt
san() {  # tool timeout variants key values n dist
  echo "== $1 $3 $4/$5 $7 $(date +%T)"
  timeout $2 compute-sanitizer --tool $1 $T/sortbench-new run --variants "$3" --key $4 --values $5 --n $6 --dist $7 --budget 0.001 --energy-window 0 --out $R/$1-$4-$5.json > $R/$1-$4-$5.txt 2>&1
  echo "$1 rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/$1-$4-$5.txt; grep -c ": ok" $R/$1-$4-$5.txt
}
san memcheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64,radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128' u64 u32 4194305 'hot_buckets:0.000458:1,hot_buckets:0.001526:1,runs:1000'
san memcheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64,radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128' u32 none 4194305 'hot_buckets:0.000458:1,hot_buckets:0.001526:1,runs:1000'
san racecheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' u32 u32 200003 'hot_buckets:0.0096:1'
echo "== tests $(date +%T)"
timeout 180 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*ipt6*:Registry/TwoDigitOverflow.*ipt10*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|^\[       OK|Failure|took" $R/tests.txt | head -30
echo "== suite $(date +%T)"
timeout 165 $T/sortbench-new run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
echo "suite rc $?"; tail -1 $R/suite.txt
(cd /tmp && tar cJf $OUT/r19c1.tar.xz r)
echo "== extra $(date +%T)"
timeout 125 $T/sortbench-new run --config configs/realistic-extra.json --out $R/extra.json > $R/extra.txt 2>&1
echo "extra rc $?"; tail -1 $R/extra.txt
(cd /tmp && tar cJf $OUT/r19c.tar.xz r)
echo "== done $(date +%T)"
