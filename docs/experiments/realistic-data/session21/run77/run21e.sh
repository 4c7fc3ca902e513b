#!/usr/bin/env bash
# Session 21, H200: c6b6c4b (the landed kernels) on configs/realistic-extra.json.
set -u
D=$(pwd)/.device/k; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
xz -dc $D/sortbench-new.xz > $T/sortbench; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== extra $(date +%T)"
timeout 190 $T/sortbench run --config configs/realistic-extra.json --out $R/extra.json > $R/extra.txt 2>&1
echo "extra rc $?"; tail -1 $R/extra.txt
(cd /tmp && tar cJf $OUT/r21e.tar.xz r); echo "== done $(date +%T)"
