#!/usr/bin/env bash
# Each workload is measured once: axis flags that make a config's sweeps alike
# list each workload once, silently; a config that lists a workload twice is
# warned about in one line and still measures it once. No GPU needed (--dry-run).
# usage: workloads.sh SORTBENCH_BINARY
source "$(dirname "$0")/scratch.sh"
bin=$(realpath "$1")
cd "$work"

# The default sweep has two sweeps (u32/u64 keys; u32 pairs); these flags make them alike.
"$bin" run --key u32 --values none --n 2^20 --variants cub.radix_sort.off64 --dry-run > out.txt 2> err.txt \
  || fail "dry run: exit $?: $(cat err.txt)"
# The default sweep's 4 distributions (uniform and entropy:0.201 in every sweep, low_bits:32
# of its u64 sweep, zipf of its pairs) x 1 variant, each once; at most quick.json's 1 s budget each.
[ "$(tail -n 1 out.txt)" = "dry run: 4 points: 4 to measure, 0 skipped, est. measuring <= 8s (4 x (1 s budget + 1.2 s energy window)), 0 to compile" ] \
  || fail "expected 4 points: $(cat out.txt)"
[ "$(sort out.txt | uniq -d | wc -l)" = 0 ] || fail "a point listed twice: $(cat out.txt)"
grep -q warning err.txt && fail "axis flags that make sweeps alike are not the config's doing: $(cat err.txt)"

cat > twice.json <<'JSON'
{"name": "twice", "variants": ["cub.radix_sort.off64"], "sizes": ["2^10", "2^12"], "distributions": ["uniform"],
 "sweeps": [{"keys": ["u32", "u8"]}, {"keys": ["u32"]}]}
JSON
"$bin" run --config twice.json --dry-run > out.txt 2> err.txt || fail "twice: exit $?: $(cat err.txt)"
grep -q "^dry run: 4 points: 4 to measure, 0 skipped," out.txt || fail "twice: expected 4 points: $(cat out.txt)"
[ "$(grep -c . err.txt)" = 1 ] || fail "twice: expected one warning line: $(cat err.txt)"
grep -q "^sortbench: warning: twice.json: 2 workloads listed by more than one sweep; each is measured once$" err.txt \
  || fail "twice: warning: $(cat err.txt)"
# The same workload on other GPUs is another point, and the plan says which GPUs:
# a single-GPU variant runs once per first GPU, a distributed one per GPU set.
cat > gpus.json <<'JSON'
{"name": "gpus", "variants": ["cub.radix_sort.off64", "distributed.sample_sort.s1024"], "sizes": ["2^20"],
 "distributions": ["uniform"], "sweeps": [{"gpus": [0, 1]}, {"gpus": [0, 1, 2]}, {"gpus": [1, 0]}]}
JSON
"$bin" run --config gpus.json --dry-run > plan.txt 2> err.txt || fail "gpus: exit $?: $(cat err.txt)"
# Whether the distributed points can run depends on this machine (NCCL, the
# GPU's shared memory): the plan's verdicts are not compared here.
sed -e 's/  skipped: .*//' -e 's/  (own check needs the GPU; not run)$//' -e 's/^dry run: \([0-9]* points\): .*/\1/' plan.txt > out.txt
cat > want.txt <<'TXT'
cub.radix_sort.off64 u32/none ascending n=1048576 uniform gpus=0,1
distributed.sample_sort.s1024 u32/none ascending n=1048576 uniform gpus=0,1
distributed.sample_sort.s1024 u32/none ascending n=1048576 uniform gpus=0,1,2
cub.radix_sort.off64 u32/none ascending n=1048576 uniform gpus=1,0
distributed.sample_sort.s1024 u32/none ascending n=1048576 uniform gpus=1,0
5 points
TXT
diff want.txt out.txt > /dev/null || fail "gpus: plan: $(diff want.txt out.txt)"
# --processes plans the same points and starts no process for a dry run.
"$bin" run --config gpus.json --gpus 0,1 --processes --dry-run > out.txt 2> err.txt \
  || fail "processes: exit $?: $(cat err.txt)"
grep -q "^dry run: 2 points: " out.txt || fail "processes: expected 2 points once: $(cat out.txt)"
[ -s err.txt ] && fail "processes: a dry run says nothing on stderr: $(cat err.txt)"

# The plan says which points the runner will skip, with the reason the report
# would record: a distribution that does not apply to the key type (normal on
# u32), a size above a variant's cap (32-bit num_items at 2^32); the estimate
# counts only the points to measure, at the --budget each.
cat > skips.json <<'JSON'
{"name": "skips", "variants": ["cub.radix_sort.off32", "cub.radix_sort.off64"], "sizes": ["2^10", "2^32"],
 "distributions": ["uniform", "normal"], "sweeps": [{"keys": ["u32", "f32"], "values": ["none"]}]}
JSON
"$bin" run --config skips.json --budget 0.5 --energy-window 0 --dry-run > out.txt 2> err.txt || fail "skips: exit $?: $(cat err.txt)"
cat > want.txt <<'TXT'
cub.radix_sort.off32 u32/none ascending n=1024 uniform
cub.radix_sort.off64 u32/none ascending n=1024 uniform
cub.radix_sort.off32 u32/none ascending n=4294967296 uniform  skipped: n = 4294967296 above the variant's cap of 2147483647 (num_items is a 32-bit int)
cub.radix_sort.off64 u32/none ascending n=4294967296 uniform
cub.radix_sort.off32 u32/none ascending n=1024 normal  skipped: distribution normal applies to float keys only (f16, bf16, f32, f64)
cub.radix_sort.off64 u32/none ascending n=1024 normal  skipped: distribution normal applies to float keys only (f16, bf16, f32, f64)
cub.radix_sort.off32 u32/none ascending n=4294967296 normal  skipped: distribution normal applies to float keys only (f16, bf16, f32, f64)
cub.radix_sort.off64 u32/none ascending n=4294967296 normal  skipped: distribution normal applies to float keys only (f16, bf16, f32, f64)
cub.radix_sort.off32 f32/none ascending n=1024 uniform
cub.radix_sort.off64 f32/none ascending n=1024 uniform
cub.radix_sort.off32 f32/none ascending n=4294967296 uniform  skipped: n = 4294967296 above the variant's cap of 2147483647 (num_items is a 32-bit int)
cub.radix_sort.off64 f32/none ascending n=4294967296 uniform
cub.radix_sort.off32 f32/none ascending n=1024 normal
cub.radix_sort.off64 f32/none ascending n=1024 normal
cub.radix_sort.off32 f32/none ascending n=4294967296 normal  skipped: n = 4294967296 above the variant's cap of 2147483647 (num_items is a 32-bit int)
cub.radix_sort.off64 f32/none ascending n=4294967296 normal
dry run: 16 points: 9 to measure, 7 skipped (4: distribution normal applies to float keys only (f16, bf16, f32, f64); 3: n = 4294967296 above the variant's cap of 2147483647 (num_items is a 32-bit int)), est. measuring <= 4s (9 x 0.5 s budget), 0 to compile
TXT
diff want.txt out.txt > /dev/null || fail "skips: plan: $(diff want.txt out.txt)"
[ -s err.txt ] && fail "skips: a dry run without on-demand or best: points says nothing on stderr: $(cat err.txt)"
echo "workloads: ok"
