#!/usr/bin/env bash
# Session 22, H200, fourth call: 7764094. Onesweep over 2^32 + 3 keys (portions: the histogram grid per portion),
# the Onesweep points run22b and run22c left, and the last msd_local_lsd point.
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
[ -x $T/gpu_tests ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*; }
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== tests1 $(date +%T)"
timeout 150 $T/gpu_tests --gtest_filter='Radix/Beyond32Bits.*:Registry/EveryVariant.*radix_msd_local_lsd_rb8_ipt9_tpb512_unrolled*' > $R/tests1.txt 2>&1
echo "tests1 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests1.txt | head; grep -c "^\[       OK" $R/tests1.txt
(cd /tmp && tar cJf $OUT/r22d1.tar.xz r)
echo "== tests2 $(date +%T)"
timeout 380 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_onesweep_rb8_ipt3[12]*:Registry/EveryVariant.*radix_onesweep_rb8_ipt30_tpb512_mb2_skip*-*ipt31_tpb384_mb3_pad0*' > $R/tests2.txt 2>&1
echo "tests2 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests2.txt | head; grep -c "^\[       OK" $R/tests2.txt
(cd /tmp && tar cJf $OUT/r22d.tar.xz r); echo "== done $(date +%T)"
