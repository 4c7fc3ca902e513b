#!/usr/bin/env bash
# Session 19, H200: where radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128 spends u32 pairs at 2^26 on runs:2000
# and runs:1000 (dispatch.sort 0.87-0.89x and 0.96-1.01x CUB there): each kernel's time under Nsight Compute,
# and the sort's time with and without the profiler's serialisation.
set -u
D=$(pwd)/.device/d; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
xz -dc $D/sortbench-new.xz > $T/sortbench-new; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
V=radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128
for d in runs:2000 runs:1000 uniform; do
  echo "== $d $(date +%T)"
  timeout 60 $T/sortbench-new run --variants "$V,cub.radix_sort.off32,radix.onesweep_packed_pairs.rb8.ipt18.tpb512.mb2" --key u32 --values u32 --n 2^26 --dist $d --budget 0.1 --energy-window 0 --out $R/t-$d.json > $R/t-$d.txt 2>&1
  grep -E "ours|cub" $R/t-$d.txt | head -3
  timeout 100 ncu --metrics gpu__time_duration.sum --csv --launch-count 80 \
    $T/sortbench-new run --variants "$V" --key u32 --values u32 --n 2^26 --dist $d --budget 0.001 --energy-window 0 --out $R/n-$d.json > $R/ncu-$d.csv 2>$R/ncu-$d.err
  echo "ncu rc $?"; grep -c gpu__time $R/ncu-$d.csv
done
(cd /tmp && tar cJf $OUT/r19d.tar.xz r); echo "== done $(date +%T)"
