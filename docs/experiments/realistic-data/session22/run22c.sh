#!/usr/bin/env bash
# Session 22, H200, third call: 7764094. The between-sizes config (3 x 10^7 is past the 2^24 two-digit picks' cap),
# then the GPU tests of msd_local_lsd (the top digit first's grid) and the Onesweep points run22b left.
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
[ -x $T/gpu_tests ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*; }
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== between $(date +%T)"
timeout 150 $T/sortbench run --config configs/realistic-between-sizes.json --out $R/between.json > $R/between.txt 2>&1
echo "between rc $?"; tail -1 $R/between.txt
(cd /tmp && tar cJf $OUT/r22c1.tar.xz r)
echo "== tests1 $(date +%T)"
timeout 200 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_msd_local_lsd*' > $R/tests1.txt 2>&1
echo "tests1 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests1.txt | head; grep -c "^\[       OK" $R/tests1.txt
(cd /tmp && tar cJf $OUT/r22c2.tar.xz r)
echo "== tests2 $(date +%T)"
timeout 190 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_onesweep_rb8_ipt26_tpb384_mb2_skip*:Registry/EveryVariant.*radix_onesweep_rb8_ipt31_tpb384_mb3_pad0*:Registry/EveryVariant.*radix_onesweep_rb8_ipt30_tpb512_mb2' > $R/tests2.txt 2>&1
echo "tests2 rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests2.txt | head; grep -c "^\[       OK" $R/tests2.txt
(cd /tmp && tar cJf $OUT/r22c.tar.xz r); echo "== done $(date +%T)"
