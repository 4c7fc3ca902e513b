#!/usr/bin/env bash
# radix.onesweep_packed_pairs with skip_constant_digits, and the two-digit design's packed top passes:
# GPU tests, sanitizers and the u32/u32 tune (stage 1); the realistic suite (stage 2); both (stage 3).
set -u
STAGE=$1; GPU=$2
D=$(pwd)/.device/a; T=/tmp/sb; mkdir -p $T
[ -x $T/sortbench ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*; }
R=/tmp/r; mkdir -p $R
nvidia-smi -L
tune() {
  echo "== tune $(date +%T)"
  timeout 200 $T/sortbench tune --space configs/tune-realistic.json --groups u32/u32 --best-base results/$GPU/best.json \
    --best $R/best.json --energy-window 0 --out $R/tune.json > $R/tune.txt 2>&1
  echo "tune rc $?"; tail -3 $R/tune.txt
}
suite() {
  echo "== suite $(date +%T)"
  SORTBENCH_BEST_JSON=$R/best.json timeout 280 $T/sortbench run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
  echo "suite rc $?"; tail -1 $R/suite.txt
}
if [ "$STAGE" = 1 ]; then
  echo "== tests $(date +%T)"
  timeout 300 $T/gpu_tests --gtest_filter='Registry/EveryVariant.ValidAndSameAsCub/radix_onesweep_packed_pairs*:Registry/EveryVariant.ValidAndSameAsCub/radix_two_digit*:TwoDigitOverflow.*:ConstInput.*:SortDispatch.*' > $R/tests.txt 2>&1
  echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED) |FAILED" $R/tests.txt | head -20
  echo "== memcheck $(date +%T)"
  timeout 100 compute-sanitizer --tool memcheck $T/sortbench run --variants 'radix.onesweep_packed_pairs.rb8.ipt18.tpb384.mb3*,radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' \
    --key u32 --values u32 --n 1,6913,1048579 --dist uniform,low_bits:8,hot_buckets:0.9:16 --budget 0.001 --out $R/memcheck.json > $R/memcheck.txt 2>&1
  echo "memcheck rc $?"; grep -E "ERROR SUMMARY" $R/memcheck.txt; grep -c ": ok" $R/memcheck.txt
  tune
fi
if [ "$STAGE" = 4 ]; then
  echo "== tests $(date +%T)"
  timeout 90 $T/gpu_tests --gtest_filter='Registry/EveryVariant.ValidAndSameAsCub/radix_onesweep_packed_pairs_rb8_ipt12*:Registry/EveryVariant.ValidAndSameAsCub/radix_onesweep_packed_pairs_rb8_ipt16*:Registry/EveryVariant.ValidAndSameAsCub/radix_onesweep_packed_pairs_rb8_ipt22*' > $R/tests.txt 2>&1
  echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED) |FAILED" $R/tests.txt | head -20
fi
[ "$STAGE" = 3 -o "$STAGE" = 4 ] && tune
[ "$STAGE" = 2 -o "$STAGE" = 3 -o "$STAGE" = 4 ] && suite
if [ "$STAGE" = 3 -o "$STAGE" = 4 ]; then
  echo "== unseen $(date +%T)"
  SORTBENCH_BEST_JSON=$R/best.json timeout 120 $T/sortbench run --config $D/unseen-config.json --out $R/unseen.json > $R/unseen.txt 2>&1
  echo "unseen rc $?"; tail -1 $R/unseen.txt
fi
(cd /tmp && tar cJf $OUT/r$STAGE.tar.xz r)
echo "== done $(date +%T)"
