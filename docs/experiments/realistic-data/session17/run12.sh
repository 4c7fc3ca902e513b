#!/usr/bin/env bash
# The distributions outside the suite (session 16's unseen config) on the H100, with the best.json of run 51.
set -u
D=$(pwd)/.device/a; T=/tmp/sb; mkdir -p $T; R=/tmp/r; mkdir -p $R
xz -dc $D/sortbench-new.xz > $T/sortbench; chmod +x $T/sortbench
nvidia-smi -L
SORTBENCH_BEST_JSON=$D/best-h100.json timeout 150 $T/sortbench run --config $D/unseen-config.json --out $R/unseen.json > $R/unseen.txt 2>&1
echo "unseen rc $?"; tail -1 $R/unseen.txt
(cd /tmp && tar cJf $OUT/r5.tar.xz r)
