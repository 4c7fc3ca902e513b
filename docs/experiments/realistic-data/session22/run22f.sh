#!/usr/bin/env bash
# Session 22, H200, sixth call: 7764094. Past 2^28: u32 pairs and u64 + u32 pairs where the class picks of 2^28
# stop at their cap (the two-digit design's 2^28 pick holds 301,989,888 keys).
set -u
D=$(pwd)/.device/l; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
[ -x $T/sortbench ] || { xz -dc $D/sortbench-new.xz > $T/sortbench; chmod +x $T/*; }
export SORTBENCH_BEST_JSON=results/h200/best.json
echo "== past-2^28 u32 $(date +%T)"
timeout 200 $T/sortbench run --variants 'dispatch.sort,cub.radix_sort.*,radix.onesweep_packed_pairs.rb8.ipt26.tpb384.mb2.skip_constant_digits,radix.onesweep.rb8.ipt19.tpb512.mb2' \
  --key u32 --values u32 --n 320000000,500000000 --dist uniform,sorted,zipf,few_unique:1000,low_bits:24 \
  --budget 0.1 --energy-window 0 --out $R/past-u32.json > $R/past-u32.txt 2>&1
echo "rc $?"; tail -1 $R/past-u32.txt
(cd /tmp && tar cJf $OUT/r22f1.tar.xz r)
echo "== past-2^28 u64 $(date +%T)"
timeout 150 $T/sortbench run --variants 'dispatch.sort,cub.radix_sort.*,radix.onesweep.rb8.ipt15.tpb512.mb2,radix.onesweep.rb8.ipt18.tpb512.mb2' \
  --key u64 --values u32 --n 400000000 --dist uniform,sorted,few_unique:1000 \
  --budget 0.1 --energy-window 0 --out $R/past-u64.json > $R/past-u64.txt 2>&1
echo "rc $?"; tail -1 $R/past-u64.txt
(cd /tmp && tar cJf $OUT/r22f.tar.xz r); echo "== done $(date +%T)"
