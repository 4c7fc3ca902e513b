#!/usr/bin/env bash
# Session 20, H200: the two-digit design's buckets sorted as a third, half or two thirds of the slab
# (sortbench-new) against HEAD (sortbench-head, halves only): A/B on one machine, then sanitizers on the new parts.
set -u
D=$(pwd)/.device/f; T=/tmp/sb; mkdir -p $T; R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
xz -dc $D/sortbench-head.xz > $T/sortbench-head; xz -dc $D/sortbench-new.xz > $T/sortbench-new; chmod +x $T/*
export SORTBENCH_BEST_JSON=results/h200/best.json
ab() {  # binary tag
  echo "== ab $2 $(date +%T)"
  timeout 150 $T/$1 run --variants 'radix.two_digit_msd_local_lsd.*,dispatch.sort,cub.radix_sort.off32' --key u32,u64 --values none,u32 \
    --n 2^24,2^26,100000000,150000000,2^28 --dist uniform,runs:500,sorted,few_unique:1000 --budget 0.05 --energy-window 0 --out $R/ab-$2.json > $R/ab-$2.txt 2>&1
  echo "ab rc $?"; tail -1 $R/ab-$2.txt
}
ab sortbench-head head1; ab sortbench-new new1
(cd /tmp && tar cJf $OUT/r20d1.tar.xz r)
san() {  # tool timeout variants key values n dist
  echo "== $1 $3 $4/$5 $6 $(date +%T)"
  timeout $2 compute-sanitizer --tool $1 $T/sortbench-new run --variants "$3" --key $4 --values $5 --n $6 --dist $7 --budget 0.001 --energy-window 0 --out $R/$1-$4-$5-$6.json > $R/$1-$4-$5-$6.txt 2>&1
  echo "$1 rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/$1-$4-$5-$6.txt; grep -c ": ok" $R/$1-$4-$5-$6.txt
}
H='hot_buckets:0.9:1600,hot_buckets:0.9:1000,hot_buckets:0.9:800,hot_buckets:0.9:500,hot_buckets:0.9:150,hot_buckets:0.9:100'
san racecheck 50 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' u32 u32 200003 "$H"
san memcheck 60 'radix.two_digit_msd_local_lsd.*' u64 u32 200003 "$H"
san memcheck 60 'radix.two_digit_msd_local_lsd.*' u32 none 2^24 'uniform,runs:500'
san memcheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384' u64 u32 100000000 'runs:500'
(cd /tmp && tar cJf $OUT/r20d.tar.xz r); echo "== done $(date +%T)"
