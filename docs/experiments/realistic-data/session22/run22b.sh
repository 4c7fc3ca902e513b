#!/usr/bin/env bash
# Session 22, H200, second call: 7764094. GPU tests of Onesweep (HistogramGrid) and msd_local_lsd, the two-digit
# design's overflow, memcheck of the changed instances.
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
[ -x $T/gpu_tests ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*; }
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== tests1 $(date +%T)"
timeout 250 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_onesweep_rb8*:Registry/FloatZeros.*radix_onesweep_rb8*' > $R/tests1.txt 2>&1
echo "tests1 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests1.txt | head; grep -c "^\[       OK" $R/tests1.txt
(cd /tmp && tar cJf $OUT/r22b1.tar.xz r)
echo "== tests2 $(date +%T)"
timeout 120 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*ipt6_tpb64*' > $R/tests2.txt 2>&1
echo "tests2 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests2.txt | head; grep -c "^\[       OK" $R/tests2.txt
san() {  # tool timeout variants key values n dist
  echo "== $1 $3 $4/$5 $6 $(date +%T)"
  timeout $2 compute-sanitizer --tool $1 $T/sortbench run --variants "$3" --key $4 --values $5 --n $6 --dist $7 --budget 0.001 --energy-window 0 --out $R/$1-$4-$5-$6.json > $R/$1-$4-$5-$6.txt 2>&1
  echo "$1 rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/$1-$4-$5-$6.txt; grep -c ": ok" $R/$1-$4-$5-$6.txt
}
san memcheck 60 'radix.two_digit_msd_local_lsd.*' u32,u64 u32 200003 'uniform,hot_buckets:0.9:800,hot_buckets:0.9:150'
san memcheck 60 'radix.onesweep_packed_pairs.*,radix.onesweep.rb8.ipt15.tpb512.mb2*,dispatch.sort' u32 u32 100003,3000017 'uniform,few_unique:10'
(cd /tmp && tar cJf $OUT/r22b.tar.xz r); echo "== done $(date +%T)"
