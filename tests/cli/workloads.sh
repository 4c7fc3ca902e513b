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
# 2 distributions of the default sweep x 1 variant, each once.
[ "$(tail -n 1 out.txt)" = "2 points" ] || fail "expected 2 points: $(cat out.txt)"
[ "$(sort out.txt | uniq -d | wc -l)" = 0 ] || fail "a point listed twice: $(cat out.txt)"
grep -q warning err.txt && fail "axis flags that make sweeps alike are not the config's doing: $(cat err.txt)"

cat > twice.json <<'JSON'
{"name": "twice", "variants": ["cub.radix_sort.off64"], "sizes": ["2^10", "2^12"], "distributions": ["uniform"],
 "sweeps": [{"keys": ["u32", "u8"]}, {"keys": ["u32"]}]}
JSON
"$bin" run --config twice.json --dry-run > out.txt 2> err.txt || fail "twice: exit $?: $(cat err.txt)"
[ "$(tail -n 1 out.txt)" = "4 points" ] || fail "twice: expected 4 points: $(cat out.txt)"
[ "$(grep -c . err.txt)" = 1 ] || fail "twice: expected one warning line: $(cat err.txt)"
grep -q "^sortbench: warning: twice.json: 2 workloads listed by more than one sweep; each is measured once$" err.txt \
  || fail "twice: warning: $(cat err.txt)"
echo "workloads: ok"
