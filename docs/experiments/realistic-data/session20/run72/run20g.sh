#!/usr/bin/env bash
# Session 20, H200: TwoDigitOverflow with hot buckets of 0.45 and 0.6 slabs (half and two thirds of the slab).
set -u
D=$(pwd)/.device/h; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
xz -dc $D/gpu_tests-new3.xz > $T/gpu_tests; chmod +x $T/*
timeout 270 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*ipt12*:Registry/TwoDigitOverflow.*ipt10*:Registry/TwoDigitOverflow.*ipt6*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure|^\[       OK" $R/tests.txt | head -20
cp $R/tests.txt $OUT/
