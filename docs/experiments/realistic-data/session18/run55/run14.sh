#!/usr/bin/env bash
# Session 18, H200: the GPU tests left from session 17, sanitizers on the packed skip form and two-digit ipt12,
# on-demand packed tiles, and a sweep of inputs outside the suite with the committed best.json.
set -u
GPU=$1
D=$(pwd)/.device/a; T=/tmp/sb; mkdir -p $T
[ -x $T/sortbench ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*; }
R=/tmp/r; mkdir -p $R
nvidia-smi -L
echo "== tests $(date +%T)"
timeout 200 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*:Registry/EveryVariant.ValidAndSameAsCub/radix_onesweep_packed_pairs*:ConstInput.*:SortDispatch.*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|tests ran" $R/tests.txt | head -20
echo "== racecheck $(date +%T)"
timeout 90 compute-sanitizer --tool racecheck $T/sortbench run --variants 'radix.onesweep_packed_pairs.rb8.ipt18.tpb384.mb3.skip_constant_digits,radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384' \
  --key u32 --values u32 --n 6913,1048579 --dist uniform,low_bits:8,hot_buckets:0.9:16 --budget 0.001 --out $R/racecheck.json > $R/racecheck.txt 2>&1
echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/racecheck.txt; grep -c ": ok" $R/racecheck.txt
echo "== on-demand $(date +%T)"
XDG_CACHE_HOME=$D/xdg timeout 120 $T/sortbench run --variants 'radix.onesweep_packed_pairs.rb8.ipt16.tpb512.mb2,radix.onesweep_packed_pairs.rb8.ipt22.tpb384.mb2,radix.onesweep_packed_pairs.rb8.ipt12.tpb512.mb2,radix.onesweep_packed_pairs.rb8.ipt18.tpb512.mb2,cub.radix_sort.*' \
  --key u32 --values u32 --n 2^24,2^26,2^28 --dist uniform,zipf,hot_buckets:0.9:16,timestamps:8:64 --budget 0.05 --out $R/ondemand.json > $R/ondemand.txt 2>&1
echo "on-demand rc $?"; tail -2 $R/ondemand.txt
echo "== unseen $(date +%T)"
SORTBENCH_BEST_JSON=results/$GPU/best.json timeout 200 $T/sortbench run --config $D/unseen-s18.json --out $R/unseen.json > $R/unseen.txt 2>&1
echo "unseen rc $?"; tail -1 $R/unseen.txt
(cd /tmp && tar cJf $OUT/r14.tar.xz r)
echo "== done $(date +%T)"
