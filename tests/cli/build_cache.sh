#!/usr/bin/env bash
# sortbench build (ctest cli.build_cache): an on-demand point compiled into a
# cache without a GPU, then found there by the dry run of a run and a second
# build, as a GPU machine with the same binary and cache would find it.
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=1; }
# A point of the Onesweep space no committed best.json names: never compiled in.
label=radix.onesweep.rb7.ipt13.tpb224
args=(--variants "$label" --key u32 --jit-cache jc -j 2)
out=$("$bin" build "${args[@]}" --dry-run 2>&1) || fail "dry run exited $?: $out"
grep -q "1 points: 0 compiled in, 0 cached, 0 compiled, 0 failed to compile, 0 pruned, 1 to compile" <<<"$out" ||
  fail "dry run before the build: $out"
[ ! -e jc ] || fail "a dry run made the cache folder"
out=$("$bin" build "${args[@]}" 2>&1) || fail "build exited $?: $(tail -n 3 <<<"$out")"
grep -q "1 points: 0 compiled in, 0 cached, 1 compiled, 0 failed" <<<"$out" || fail "build: $(tail -n 2 <<<"$out")"
out=$("$bin" build "${args[@]}" 2>&1) || fail "second build exited $?"
grep -q "1 points: 0 compiled in, 1 cached, 0 compiled" <<<"$out" || fail "second build: $(tail -n 2 <<<"$out")"
# What a run on a GPU machine plans with this cache: the point is there.
out=$("$bin" run --variants "$label" --key u32 --values none --n 2^20 --dist uniform --jit-cache jc --dry-run 2>&1)
grep -q "1 cached" <<<"$out" || fail "run --dry-run does not find the built point: $(grep on-demand <<<"$out")"
# A space's points: the dry run plans them without compiling.
cat >space.json <<'JSON'
{"name": "few", "variants": ["radix.onesweep.*"], "baselines": ["cub.radix_sort.*"], "on_demand": true,
 "params": {"radix_bits": [7], "items_per_thread": [13, 14], "block_threads": [224], "min_blocks_per_sm": [1],
            "lookback_window": [8]},
 "sizes": ["2^20"], "distributions": ["uniform"], "sweeps": [{"keys": ["u32"], "values": ["none"]}],
 "strategy": {"name": "exhaustive"}}
JSON
out=$("$bin" build --space space.json --jit-cache jc --dry-run 2>&1) || fail "space dry run exited $?: $out"
grep -q "2 points: 0 compiled in, 1 cached, 0 compiled, 0 failed to compile, 0 pruned, 1 to compile" <<<"$out" ||
  fail "space dry run: $out"
[ $fails = 0 ] && echo "ok: sortbench build filled the cache; run and build found the point there"
exit $fails
