#!/usr/bin/env bash
# A plugin's family space (ctest cli.plugin_space): listed with its axes,
# labels outside it refused with what does not fit, its points built on
# demand from the plugin's own headers into the cache (sortbench build), and
# found there by a run's plan. The plugin is host code: no GPU, seconds.
set -uo pipefail
bin=$(realpath "$1")
plugin=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=1; }
out=$("$bin" list --spaces --plugin "$plugin" 2>&1) || fail "list --spaces exited $?: $out"
grep -q "^pluginspace.chunked (family pluginspace)$" <<<"$out" || fail "list --spaces lacks the plugin's space: $out"
grep -q "c chunk: 16 32 64 128" <<<"$out" || fail "list --spaces lacks the axis: $out"
out=$("$bin" run --plugin "$plugin" --variants pluginspace.chunked.c999 --key u32 --values none --n 1000 --dry-run 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "chunk (c) takes 16, 32, 64, 128, not 999" <<<"$out" || fail "a label outside the space: exit $rc: $out"
args=(--plugin "$plugin" --jit-cache jc -j 2)
out=$("$bin" build "${args[@]}" --variants 'pluginspace.chunked.*' --dry-run 2>&1) || fail "build --dry-run exited $?: $out"
grep -q "4 points: 1 compiled in, 0 cached, 0 compiled, 0 failed to compile, 1 pruned, 2 to compile" <<<"$out" ||
  fail "build --dry-run of the space: $out"
out=$("$bin" build "${args[@]}" --variants pluginspace.chunked.c128 2>&1) || fail "build exited $?: $(tail -n 5 <<<"$out")"
grep -q "1 points: 0 compiled in, 0 cached, 1 compiled, 0 failed" <<<"$out" || fail "build: $(tail -n 3 <<<"$out")"
out=$("$bin" run "${args[@]}" --variants pluginspace.chunked.c128 --key u32 --values none --n 1000 --dry-run 2>&1)
grep -q "1 cached" <<<"$out" || fail "run --dry-run does not find the built point: $(grep on-demand <<<"$out")"
# The point's translation unit is in the cache, and includes the plugin's header.
grep -lq '#include "space_sort.hpp"' jc/*.cu || fail "no cached source includes the plugin's header"
[ $fails = 0 ] && echo "ok: the plugin's space listed, refused a label outside it, built a point on demand"
exit $fails
