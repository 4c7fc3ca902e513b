#!/usr/bin/env bash
# Session 22, H200, fifth call: 7764094. The Onesweep points at ipt31 and ipt32 that run22b-d left (run22d's filter
# took [12] for a class; gtest's filters have only * and ?).
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
[ -x $T/gpu_tests ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*; }
echo "== tests $(date +%T)"
timeout 400 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_onesweep_rb8_ipt3?_*-*ipt31_tpb384_mb3_pad0*:*ipt30_*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests.txt | head; grep -c "^\[       OK" $R/tests.txt
(cd /tmp && tar cJf $OUT/r22e.tar.xz r); echo "== done $(date +%T)"
