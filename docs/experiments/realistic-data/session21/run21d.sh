#!/usr/bin/env bash
# Session 21, H200: c6b6c4b, the GPU tests run21c's limit cut: TwoDigitOverflow of ipt6.tpb64 and EveryVariant
# of the two-digit points (the mapped answers).
set -u
D=$(pwd)/.device/j; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== tests $(date +%T)"
timeout 280 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*ipt6*:Registry/EveryVariant.*radix_two_digit*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests.txt | head -20; grep -c "^\[       OK" $R/tests.txt
(cd /tmp && tar cJf $OUT/r21d.tar.xz r); echo "== done $(date +%T)"
