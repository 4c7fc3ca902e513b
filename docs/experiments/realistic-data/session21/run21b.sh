#!/usr/bin/env bash
# Session 21, H200, second call: HEAD (8b186a4) GPU tests left from run21a, and the sanitizers on the two-digit
# design with its block kernel's null buckets_fit.
set -u
D=$(pwd)/.device/i; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
[ -x $T/gpu_tests ] || { xz -dc $D/gpu_tests-head.xz > $T/gpu_tests; xz -dc $D/sortbench-head.xz > $T/sortbench; chmod +x $T/*; }
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== tests $(date +%T)"
timeout 170 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_two_digit*:Registry/EveryVariant.*radix_msd_local_lsd_rb8_ipt9_tpb512_unrolled*' > $R/tests1.txt 2>&1
echo "tests1 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests1.txt | head; grep -c "^\[       OK" $R/tests1.txt
(cd /tmp && tar cJf $OUT/r21b1.tar.xz r)
timeout 260 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*' > $R/tests2.txt 2>&1
echo "tests2 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests2.txt | head; grep -c "^\[       OK" $R/tests2.txt
(cd /tmp && tar cJf $OUT/r21b2.tar.xz r)
san() {  # tool timeout variants key values n dist
  echo "== $1 $3 $4/$5 $6 $(date +%T)"
  timeout $2 compute-sanitizer --tool $1 $T/sortbench run --variants "$3" --key $4 --values $5 --n $6 --dist $7 --budget 0.001 --energy-window 0 --out $R/$1-$4-$5-$6.json > $R/$1-$4-$5-$6.txt 2>&1
  echo "$1 rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/$1-$4-$5-$6.txt; grep -c ": ok" $R/$1-$4-$5-$6.txt
}
san memcheck 45 'radix.two_digit_msd_local_lsd.*' u32,u64 u32 200003 'uniform,hot_buckets:0.9:800,hot_buckets:0.9:150'
san racecheck 50 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' u32 u32 200003 'uniform,hot_buckets:0.9:800'
(cd /tmp && tar cJf $OUT/r21b.tar.xz r); echo "== done $(date +%T)"
