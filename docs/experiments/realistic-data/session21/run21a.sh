#!/usr/bin/env bash
# Session 21, H200, first call: HEAD (8b186a4) binaries: the suite for a report of this build, the session's probe of
# unseen parameters at 2^25, 5e7, 2^27, 2e8, then the GPU tests of the two-digit design and the dispatch.
set -u
D=$(pwd)/.device/i; T=/tmp/sb; mkdir -p $T
R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
export SORTBENCH_BEST_JSON=results/h200/best.json
xz -dc $D/gpu_tests-head.xz > $T/gpu_tests; xz -dc $D/sortbench-head.xz > $T/sortbench; chmod +x $T/*
echo "== suite $(date +%T)"
timeout 160 $T/sortbench run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
echo "suite rc $?"; tail -1 $R/suite.txt
(cd /tmp && tar cJf $OUT/r21a1.tar.xz r)
echo "== probe $(date +%T)"
timeout 230 $T/sortbench run --config $D/probe.json --out $R/probe.json > $R/probe.txt 2>&1
echo "probe rc $?"; tail -1 $R/probe.txt
(cd /tmp && tar cJf $OUT/r21a2.tar.xz r)
echo "== tests $(date +%T)"
timeout 150 $T/gpu_tests --gtest_filter='Registry/EveryVariant.*radix_two_digit*:Registry/EveryVariant.*radix_msd_local_lsd*:SortDispatch.*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tests.txt | head -30; grep -c "^\[       OK" $R/tests.txt
(cd /tmp && tar cJf $OUT/r21a.tar.xz r); echo "== done $(date +%T)"
