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
            "lookback_window": [8], "padded_slots": [1]},
 "sizes": ["2^20"], "distributions": ["uniform"], "sweeps": [{"keys": ["u32"], "values": ["none"]}],
 "strategy": {"name": "exhaustive"}}
JSON
out=$("$bin" build --space space.json --jit-cache jc --dry-run 2>&1) || fail "space dry run exited $?: $out"
grep -q "2 points: 0 compiled in, 1 cached, 0 compiled, 0 failed to compile, 0 pruned, 1 to compile" <<<"$out" ||
  fail "space dry run: $out"
# Library calls the lean build lacks (sortbench/library_calls.hpp): each key
# type of a group is one unit, planned to compile, then found in the cache;
# a run plans its points to measure, not to skip, and the unit loads as a plugin.
if grep -q "^build .*lean" <<<"$("$bin" --version)"; then
  out=$("$bin" build --variants 'cub.merge_sort.*,host.*' --key u8,i8 --jit-cache lc --dry-run 2>&1)
  grep -q "4 points: 0 compiled in, 0 cached, 0 compiled, 0 failed to compile, 0 pruned, 4 to compile" <<<"$out" ||
    fail "library calls dry run: $out"
  out=$("$bin" build --variants 'host.*' --key u8 --jit-cache lc -j 2 2>&1) || fail "host calls build exited $?: $out"
  grep -q "1 points: 0 compiled in, 0 cached, 1 compiled, 0 failed" <<<"$out" || fail "host calls build: $out"
  out=$("$bin" run --variants 'host.*,cub.merge_sort.off32' --key u8 --values none --n 2^20 --dist uniform \
    --jit-cache lc --dry-run 2>&1)
  grep -q "2 points: 0 compiled in, 1 cached, 0 compiled, 0 failed to compile, 0 pruned, 1 to compile" <<<"$out" ||
    fail "run --dry-run does not plan the library calls: $(grep on-demand <<<"$out")"
  grep -q "^dry run: 3 points: 3 to measure, 0 skipped" <<<"$out" || fail "run --dry-run: $(tail -n 1 <<<"$out")"
  # best:merge resolves to the family's default point (no GPU: no best.json), whose 16-bit keys are built on demand.
  out=$("$bin" run --variants 'best:merge' --key u16 --values none --n 2^20 --dist uniform --jit-cache lc --dry-run 2>&1)
  grep -q "1 points: .* 1 to compile" <<<"$out" && grep -q "^dry run: 1 point: 1 to measure, 0 skipped" <<<"$out" ||
    fail "run --dry-run of best:merge at u16 does not plan the merge default's key type: $out"
  out=$("$bin" list --plugin lc/*.so 2>&1) || fail "the host calls' unit does not load: $out"
  grep -q "^host.parallel_sort" <<<"$out" || fail "list with the host calls' unit: no host.parallel_sort"
fi
[ $fails = 0 ] && echo "ok: sortbench build filled the cache; run and build found the point there"
exit $fails
