#!/usr/bin/env bash
# Session 22, H200, seventh call: 1bed0ac. Past 2^28, where the class picks of 2^28 stop at their cap: the dispatch
# now runs the refused entry's runner-up.
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
xz -dc $D/sortbench-new.xz > $T/sortbench; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== past-2^28 $(date +%T)"
timeout 120 $T/sortbench run --variants 'dispatch.sort,best:radix,cub.radix_sort.*' \
  --key u32,u64 --values u32 --n 320000000,450000000 --dist uniform,sorted,nearly_sorted,few_unique:1000 \
  --budget 0.08 --energy-window 0 --out $R/past.json > $R/past.txt 2>&1
echo "rc $?"; tail -1 $R/past.txt
echo "== past-2^28 u64 keys $(date +%T)"
timeout 90 $T/sortbench run --variants 'dispatch.sort,best:radix,cub.radix_sort.*' --key u64 --values none --n 320000000,450000000 --dist uniform,sorted,few_unique:1000 --budget 0.08 --energy-window 0 --out $R/past-u64.json > $R/past-u64.txt 2>&1
echo "rc $?"; tail -1 $R/past-u64.txt
(cd /tmp && tar cJf $OUT/r22g.tar.xz r); echo "== done $(date +%T)"
