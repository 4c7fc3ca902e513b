#!/usr/bin/env bash
# Session 22, H200, eighth call: 1bed0ac. u64 keys past 2^28: the old route (2^30's pick, ipt26.tpb384) beside the
# runner-up the dispatch now takes (ipt18.tpb512's skip_constant_digits form).
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
[ -x $T/sortbench ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; chmod +x $T/*; }
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== u64 $(date +%T)"
timeout 100 $T/sortbench run --variants 'dispatch.sort,cub.radix_sort.*,radix.onesweep.rb8.ipt26.tpb384.mb2,radix.onesweep.rb8.ipt18.tpb512.mb2.skip_constant_digits' \
  --key u64 --values none --n 320000000,450000000 --dist uniform,sorted,nearly_sorted --budget 0.08 --energy-window 0 --out $R/u64.json > $R/u64.txt 2>&1
echo "rc $?"; tail -1 $R/u64.txt
(cd /tmp && tar cJf $OUT/r22h.tar.xz r); echo "== done $(date +%T)"
