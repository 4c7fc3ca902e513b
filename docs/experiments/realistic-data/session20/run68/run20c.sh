#!/usr/bin/env bash
# Session 20, H200: where radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384 spends u32 pairs at 10^8 on runs:500
# (dispatch.sort 0.985x CUB) against runs:4194304 (1.51x): each kernel's time under Nsight Compute.
set -u
D=$(pwd)/.device/f; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
xz -dc $D/sortbench-head.xz > $T/sortbench; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
V=radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384
for d in runs:500 runs:4194304 sorted; do
  echo "== $d $(date +%T)"
  timeout 100 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum --csv --launch-count 60 \
    $T/sortbench run --variants "$V" --key u32 --values u32 --n 100000000 --dist $d --budget 0.001 --energy-window 0 --out $R/n-$d.json > $R/ncu-$d.csv 2>$R/ncu-$d.err
  echo "ncu rc $?"; grep -c gpu__time $R/ncu-$d.csv
done
(cd /tmp && tar cJf $OUT/r20c.tar.xz r); echo "== done $(date +%T)"
