#!/usr/bin/env bash
# On-demand points on the CPU (ctest cli.on_demand): the fake family space
# (harness/src/tune/fake.cpp) builds host-only points in seconds. Checks the
# compile, the cache (a second run compiles nothing; failures are remembered;
# a torn or corrupt entry is built again; a killed run's temporaries are
# ignored), pruning with its reason, the report's record of it all, and run
# with an on-demand label.
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=1; }
cat >space.json <<'JSON'
{"name": "od", "variants": ["fake.ondemand.*"], "baselines": ["cub.radix_sort.*"], "on_demand": true,
 "params": {"radix_bits": {"min": 5, "max": 7}, "items_per_thread": [4, 16], "block_threads": [128, 256]},
 "sizes": ["2^16", "2^20"], "distributions": ["uniform"], "sweeps": [{"keys": ["u32"], "values": ["none"]}],
 "strategy": {"name": "exhaustive"}}
JSON
tune() {  # tune N: a fresh report, best.json and measurement cache, the one build cache
  "$bin" tune --space space.json --fake-evaluator --jit-cache jc -j 2 --out "r$1.json" --best "b$1.json" \
    --cache "c$1.jsonl" >"log$1.txt" 2>&1 || fail "tune $1 exited $?: $(tail -3 "log$1.txt")"
}
# counts N compiled cached failed pruned: the report's on-demand totals
counts() {
  python3 - "$@" <<'PY' || fails=1
import json, sys
n, want = sys.argv[1], [int(x) for x in sys.argv[2:]]
od = json.load(open(f"r{n}.json"))["context"]["on_demand"]
got = [od["compiled"], od["cached"], od["failed"], od["pruned"]]
if got != want or od["points"] != 12:
    sys.exit(f"FAIL: run {n}: compiled, cached, failed, pruned = {got}, wanted {want} of 12 points")
print(f"ok: run {n}: compiled, cached, failed, pruned = {got}")
PY
}

"$bin" tune --space space.json --fake-evaluator --jit-cache jc --dry-run >dry0.txt 2>&1 || fail "dry run exited $?"
grep -q "on-demand: 12 points: 0 compiled in, 0 cached, 0 compiled, 0 failed to compile, 3 pruned, 9 to compile" dry0.txt ||
  fail "dry run before any build: $(grep on-demand dry0.txt)"
# With no compile recorded yet the estimate assumes 12 s a point: 9 points 2 at a time, 5 rounds.
grep -q "^dry run: [0-9]* evaluations at most, est. measuring <= .*, 9 to compile, est. 1m00s (12 s a point, assumed: the cache records no compile yet; 2 jobs)$" \
  <("$bin" tune --space space.json --fake-evaluator --jit-cache jc -j 2 --dry-run 2>&1) || fail "dry run: no compile estimate"
[ ! -e jc ] || fail "a dry run made the cache folder"

tune 1
counts 1 6 0 3 3
python3 - <<'PY' || fails=1
import json, sys
r = json.load(open("r1.json"))
skips = {x["variant"]: x["reason"] for x in r["results"] if x["status"] == "skipped"}
bad = []
for label in ["fake.ondemand.rb7.ipt4.tpb128", "fake.ondemand.rb7.ipt16.tpb128"]:
    if "radix_bits 7 does not compile in the fake space" not in skips.get(label, ""):
        bad.append(f"{label}: skip reason {skips.get(label)!r} lacks the compiler's error")
    if ".tmp." in skips.get(label, ""):
        bad.append(f"{label}: the reason names a temporary file")
if "above the fake kernel's 2048" not in skips.get("fake.ondemand.rb5.ipt16.tpb256", ""):
    bad.append("the pruned point's reason is missing")
plugins = r["context"].get("plugins", [])
if len(plugins) != 6 or any(len(p["sha256"]) != 64 for p in plugins):
    bad.append(f"context.plugins: {len(plugins)} entries, wanted the 6 built points with their SHA-256")
ok = [x for x in r["results"] if x["status"] == "ok" and x["variant"].startswith("fake.ondemand.")]
if len(ok) != 12:
    bad.append(f"{len(ok)} measured on-demand results, wanted 6 points x 2 sizes")
for p in r["context"]["on_demand"]["per_point"]:
    if p["status"] == "compiled" and not p.get("compile_s", 0) > 0:
        bad.append(f"{p['variant']}: no compile time")
if bad:
    sys.exit("FAIL: " + "; ".join(bad))
print("ok: skip reasons, plugins and compile times in the report")
PY
grep -q '"plugin_sha256"' c1.jsonl || fail "the measurement cache's keys do not hold the plugin's SHA-256"

# A second run compiles nothing; the failures are remembered.
tune 2
counts 2 0 6 3 3
out=$("$bin" tune --space space.json --fake-evaluator --jit-cache jc --dry-run 2>&1) || fail "dry run after the build exited $?: $out"
grep -q "0 compiled, 3 failed to compile, 3 pruned;" <<<"$out" || fail "dry run after the build does not see the cache"
# run --dry-run: a pruned label is a skipped point with its constraint; a label
# to build is estimated from the 6 compiles the cache recorded.
"$bin" run --isolate --fake-evaluator --variants fake.ondemand.rb5.ipt8.tpb128,fake.ondemand.rb5.ipt16.tpb256 --key u32 \
  --values none --n 2^10 --dist uniform --jit-cache jc -j 1 --dry-run >rundry.txt 2>rundry.err || fail "run --dry-run exited $?"
grep -qx "fake.ondemand.rb5.ipt16.tpb256 u32/none ascending n=1024 uniform  skipped: a tile of 4096 keys, above the fake kernel's 2048" rundry.txt ||
  fail "run --dry-run: the pruned on-demand point has no reason: $(cat rundry.txt)"
grep -qx "fake.ondemand.rb5.ipt8.tpb128 u32/none ascending n=1024 uniform" rundry.txt || fail "run --dry-run: the point to build: $(cat rundry.txt)"
grep -qE "^dry run: 2 points: 1 to measure, 1 skipped \(1: a tile of 4096 keys, above the fake kernel's 2048\), est. measuring <= 2s \(1 x \(1 s budget \+ 1.2 s energy window\)\), 1 to compile, est. [0-9]+s \([0-9.]+ s a point, the mean of 6 compiles the cache recorded; 1 job\)$" rundry.txt ||
  fail "run --dry-run: summary: $(tail -n 1 rundry.txt)"

# A killed run leaves temporaries, never entries; a torn entry (record lost)
# and a corrupt one (library changed) are built again.
entries=(jc/*.so)
printf 'half a library' >"${entries[0]%.so}.tmp.999.so"
rm "${entries[1]%.so}.json"
printf 'corrupt' >>"${entries[2]}"
tune 3
counts 3 2 4 3 3

# run: a label of the space that the binary lacks is built (here: found in the cache).
"$bin" run --isolate --fake-evaluator --variants fake.ondemand.rb5.ipt4.tpb128 --key u32 --n 2^10 --dist uniform \
  --jit-cache jc --out run.json >run.txt 2>&1 || fail "run exited $?: $(tail -3 run.txt)"
python3 -c "
import json, sys
r = json.load(open('run.json'))
od = r['context']['on_demand']
ok = [x for x in r['results'] if x['variant'] == 'fake.ondemand.rb5.ipt4.tpb128' and x['status'] == 'ok']
sys.exit(0 if od['cached'] == 1 and od['points'] == 1 and ok else 'FAIL: run with an on-demand label: %s' % od)
" || fails=1
exit $fails
