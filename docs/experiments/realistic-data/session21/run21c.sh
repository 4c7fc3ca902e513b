#!/usr/bin/env bash
# Session 21, H200: c6b6c4b (mapped host memory owned by MappedHost, ConstantDigitVerdict): the GPU tests of
# every place that holds mapped memory, memcheck on the constant-digit skips, and the suite for this build's report.
set -u
D=$(pwd)/.device/j; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; xz -dc $D/sortbench-new.xz > $T/sortbench; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== tests $(date +%T)"
timeout 290 $T/gpu_tests --gtest_filter='SortDispatch.*:Runner.*:ConstInput.*:SortLibrary.*:Registry/EveryVariant.*skip_constant_digits*:Registry/EveryVariant.*packed_pairs*:Registry/TwoDigitOverflow.*ipt6*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests.txt | head -20; grep -c "^\[       OK" $R/tests.txt
(cd /tmp && tar cJf $OUT/r21c1.tar.xz r)
echo "== memcheck $(date +%T)"
timeout 40 compute-sanitizer --tool memcheck $T/sortbench run --variants 'radix.onesweep.rb8.ipt15.tpb512.mb2.skip_constant_digits,radix.onesweep_packed_pairs.rb8.ipt14.tpb512.mb2.skip_constant_digits,dispatch.sort' --key u32,u64 --values u32 --n 1000003 --dist uniform,low_bits:20,few_unique:1 --budget 0.001 --energy-window 0 --out $R/memcheck.json > $R/memcheck.txt 2>&1
echo "memcheck rc $?"; grep -E "ERROR SUMMARY" $R/memcheck.txt; grep -c ": ok" $R/memcheck.txt
echo "== suite $(date +%T)"
timeout 160 $T/sortbench run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
echo "suite rc $?"; tail -1 $R/suite.txt
(cd /tmp && tar cJf $OUT/r21c.tar.xz r); echo "== done $(date +%T)"
