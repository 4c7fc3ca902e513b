#!/usr/bin/env bash
# Session 18, H200: the two-digit design on sorted runs of spaced keys (runs:1000) at 2^26, 10^8 and 2^28 against
# Onesweep and CUB, and its kernels' times under Nsight Compute.
set -u
D=$(pwd)/.device/a; T=/tmp/sb; mkdir -p $T
xz -dc $D/sortbench-new.xz > $T/sortbench; chmod +x $T/*
R=/tmp/r; mkdir -p $R
nvidia-smi -L
echo "== ab $(date +%T)"
timeout 150 $T/sortbench run --variants 'radix.two_digit_msd_local_lsd.*,radix.onesweep.rb8.ipt18.tpb512.mb2,radix.onesweep.rb8.ipt15.tpb512.mb2,cub.radix_sort.off64,cub.radix_sort.off32' \
  --key u64 --values none,u32 --n 2^26,100000000,2^28 --dist uniform,runs:1000,runs:64,few_unique:100000 --budget 0.05 --energy-window 0 --out $R/ab64.json > $R/ab64.txt 2>&1
echo "ab64 rc $?"
timeout 120 $T/sortbench run --variants 'radix.two_digit_msd_local_lsd.*,radix.onesweep_packed_pairs.rb8.ipt18.tpb512.mb2,radix.onesweep_packed_pairs.rb8.ipt26.tpb384.mb2,cub.radix_sort.off32' \
  --key u32 --values u32 --n 2^26,100000000,2^28 --dist uniform,runs:1000,runs:64,few_unique:100000 --budget 0.05 --energy-window 0 --out $R/ab32.json > $R/ab32.txt 2>&1
echo "ab32 rc $?"
prof() {  # name variant key values n dist
  echo "== ncu $1 $(date +%T)"
  timeout 100 ncu --metrics gpu__time_duration.sum -k 'regex:bucket|mixed|one_key|pass_kernel|histogram|move_over|top_digit|scan|publish' --launch-count 40 \
    $T/sortbench run --variants $2 --key $3 --values $4 --n $5 --dist $6 --budget 0.001 --energy-window 0 --out $R/ncu-$1.json > $R/ncu-$1.txt 2>&1
  echo "ncu $1 rc $?"
}
prof u64-1e8-runs radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384 u64 none 100000000 runs:1000
prof u64-1e8-uni radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384 u64 none 100000000 uniform
prof u64-2e28-runs radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384 u64 none 2^28 runs:1000
prof p32-2e26-runs radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128 u32 u32 2^26 runs:1000
prof p32-2e26-uni radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128 u32 u32 2^26 uniform
(cd /tmp && tar cJf $OUT/r15.tar.xz r)
echo "== done $(date +%T)"
