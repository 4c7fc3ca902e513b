#!/usr/bin/env bash
# Session 18, H200, run 58: buckets of up to two slabs sorted by a block of twice the threads, and the half-slab
# path (sortbench-new) against the build before this session (sortbench-base); sanitizers on the twice-slab kernel;
# the realistic suite and the unseen sweep with the committed best.json. Stage "tests": the GPU tests.
set -u
D=$(pwd)/.device/a; T=/tmp/sb; mkdir -p $T
R=/tmp/r; mkdir -p $R
nvidia-smi -L
if [ "$1" = tests ]; then
  xz -dc $(pwd)/.device/b/gpu_tests-new.xz > $T/gpu_tests; chmod +x $T/*
  echo "== tests $(date +%T)"
  timeout 330 $T/gpu_tests --gtest_filter='Registry/TwoDigitOverflow.*:Registry/EveryVariant.ValidAndSameAsCub/radix_two_digit*:Registry/EveryVariant.ValidAndSameAsCub/radix_msd_local_lsd_rb8_ipt9_tpb256_unrolled*:Registry/EveryVariant.ValidAndSameAsCub/radix_msd_local_lsd_rb8_ipt9_tpb512' > $R/tests.txt 2>&1
  echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|^\[       OK" $R/tests.txt | head -20
  (cd /tmp && tar cJf $OUT/r58t.tar.xz r); exit 0
fi
for b in new base; do xz -dc $D/sortbench-$b.xz > $T/sortbench-$b; done; chmod +x $T/*
san() {  # tool timeout variants key values n dist
  echo "== $1 $3 $4/$5 $(date +%T)"
  timeout $2 compute-sanitizer --tool $1 $T/sortbench-new run --variants "$3" --key $4 --values $5 --n $6 --dist $7 --budget 0.001 --energy-window 0 --out $R/$1-$4-$5.json > $R/$1-$4-$5.txt 2>&1
  echo "$1 rc $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" $R/$1-$4-$5.txt; grep -c ": ok" $R/$1-$4-$5.txt
}
san racecheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt6.tpb64' u32 u32 200003 'hot_buckets:0.00288:1'
san racecheck 60 'radix.two_digit_msd_local_lsd.rb8.ipt12.tpb384' u64 none 786432 'hot_buckets:0.0088:1'
san memcheck 60 'radix.two_digit_msd_local_lsd.*' u64 u32 200003,786432,1048579 'hot_buckets:0.00288:1,hot_buckets:0.0088:1,runs:1000'
echo "== ab $(date +%T)"
for b in base new; do
  timeout 100 $T/sortbench-$b run --variants 'radix.two_digit_msd_local_lsd.*,cub.radix_sort.off32' --key u32,u64 --values none,u32 \
    --n 2^24,2^26,100000000,2^28 --dist uniform,runs:1000,hot_buckets:0.3:1000 --budget 0.05 --energy-window 0 --out $R/ab-$b.json > $R/ab-$b.txt 2>&1
  echo "ab $b rc $?"
done
grep -h "buckets overflow\|twice" $R/ab-new.txt | head -3
echo "== suite $(date +%T)"
SORTBENCH_BEST_JSON=results/h200/best.json timeout 200 $T/sortbench-new run --config configs/realistic.json --budget 0.15 --out $R/realistic.json > $R/suite.txt 2>&1
echo "suite rc $?"; tail -1 $R/suite.txt
echo "== unseen $(date +%T)"
SORTBENCH_BEST_JSON=results/h200/best.json timeout 150 $T/sortbench-new run --config $D/unseen-s18.json --out $R/unseen.json > $R/unseen.txt 2>&1
echo "unseen rc $?"; tail -1 $R/unseen.txt
(cd /tmp && tar cJf $OUT/r58.tar.xz r)
echo "== done $(date +%T)"
