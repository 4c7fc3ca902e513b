#!/usr/bin/env bash
# Session 19, H200, second pair of calls: a block of 1024 threads for overflowing buckets of up to its slab
# (sortbench-new) against HEAD 4e1a781 (sortbench-base). Stage "ab": sanitizers, A/B on inputs whose buckets
# overflow, the realistic suite. Stage "tests": GPU tests and the combined unseen config.
set -u
D=$(pwd)/.device/${DEV:-a}; T=/tmp/sb; mkdir -p $T
R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi -L
export SORTBENCH_BEST_JSON=results/h200/best.json
if [ "$1" = tests ]; then
  xz -dc $D/gpu_tests-new.xz > $T/gpu_tests; xz -dc $D/sortbench-new.xz > $T/sortbench-new; chmod +x $T/*
  echo "== tests $(date +%T)"
  timeout 250 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*:Registry/EveryVariant.ValidAndSameAsCub/radix_two_digit*' > $R/tests.txt 2>&1
  echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|^\[       OK|Failure|took" $R/tests.txt | head -30
  echo "== extra $(date +%T)"
  timeout 200 $T/sortbench-new run --config configs/realistic-extra.json --out $R/extra.json > $R/extra.txt 2>&1
  echo "extra rc $?"; tail -1 $R/extra.txt
  (cd /tmp && tar cJf $OUT/r19bt.tar.xz r); echo "== done $(date +%T)"; exit 0
fi
for b in new base; do xz -dc $D/sortbench-$b.xz > $T/sortbench-$b; done; chmod +x $T/*
san() {  # tool timeout variants key values n dist
  echo "== $1 $3 $4/$5 $7 $(date +%T)"
  timeout $2 compute-sanitizer --tool $1 $T/sortbench-new run --variants "$3" --key $4 --values $5 --n $6 --dist $7 --budget 0.001 --energy-window 0 --out $R/$1-$4-$5.json > $R/$1-$4-$5.txt 2>&1
  echo "$1 rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/$1-$4-$5.txt; grep -c ": ok" $R/$1-$4-$5.txt; grep -o "blocks of 1024[^|]*" $R/$1-$4-$5.txt | head -2
}
san memcheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64,radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128' u64 u32 4194305 'hot_buckets:0.000458:1,hot_buckets:0.001526:1,runs:1000'
san memcheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64,radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128' u32 none 4194305 'hot_buckets:0.000458:1,hot_buckets:0.001526:1,runs:1000'
san racecheck 90 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' u32 u32 200003 'hot_buckets:0.0096:1'
echo "== ab $(date +%T)"
for b in base new; do
  timeout 100 $T/sortbench-$b run --variants 'radix.two_digit_msd_local_lsd.*,cub.radix_sort.off32,dispatch.sort' --key u32,u64 --values none,u32 \
    --n 2^24,2^26 --dist runs:300,runs:500,runs:1000,runs:2000,runs:4000,few_unique:16384,few_unique:40000 --budget 0.05 --energy-window 0 --out $R/ab-$b.json > $R/ab-$b.txt 2>&1
  echo "ab $b rc $? $(date +%T)"
done
echo "== suite $(date +%T)"
timeout 170 $T/sortbench-new run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
echo "suite rc $?"; tail -1 $R/suite.txt
(cd /tmp && tar cJf $OUT/r19b.tar.xz r)
echo "== done $(date +%T)"
