#!/usr/bin/env bash
# Session 20, H200, first call: HEAD (ed2f314) binaries: TwoDigitOverflow of ipt6.tpb64 (not yet run on the device
# lists), the suite for a report of this build, the session's probe of unseen parameters.
set -u
D=$(pwd)/.device/f; T=/tmp/sb; mkdir -p $T
R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
export SORTBENCH_BEST_JSON=results/h200/best.json
xz -dc $D/gpu_tests-head.xz > $T/gpu_tests; xz -dc $D/sortbench-head.xz > $T/sortbench; chmod +x $T/*
echo "== tests $(date +%T)"
timeout 150 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*ipt6*' > $R/tests.txt 2>&1
echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|^\[       OK|Failure" $R/tests.txt | head -30
(cd /tmp && tar cJf $OUT/r20a1.tar.xz r)
echo "== suite $(date +%T)"
timeout 210 $T/sortbench run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
echo "suite rc $?"; tail -1 $R/suite.txt
(cd /tmp && tar cJf $OUT/r20a2.tar.xz r)
echo "== probe $(date +%T)"
timeout 170 $T/sortbench run --config $D/probe.json --out $R/probe.json > $R/probe.txt 2>&1
echo "probe rc $?"; tail -1 $R/probe.txt
(cd /tmp && tar cJf $OUT/r20a.tar.xz r); echo "== done $(date +%T)"
