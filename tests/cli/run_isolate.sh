#!/usr/bin/env bash
# sortbench run --isolate end to end with the fake evaluator (no GPU): a point
# that kills its worker process is recorded as failed with how the worker
# ended, the sweep goes on in a fresh worker, and every other point is kept.
# usage: run_isolate.sh SORTBENCH_BINARY
source "$(dirname "$0")/scratch.sh"
bin=$(realpath "$1")
cd "$work"

# 12 fake points x 2 workloads; the worker aborts (a stand-in for a kernel fault) on the 3 ipt4 points.
cat > iso.json <<'JSON'
{"name": "iso", "variants": ["fake.radix.rb8.*"], "sizes": ["2^20", "2^22"], "distributions": ["uniform"],
 "sweeps": [{"keys": ["u32"], "values": ["none"]}]}
JSON
rc=0
CUDA_VISIBLE_DEVICES= "$bin" run --config iso.json --isolate --fake-evaluator --fake-crash 'fake.radix.rb8.ipt4.*' \
  --out r.json > out.txt 2> err.txt || rc=$?
[ "$rc" -eq 1 ] || fail "expected exit 1 (failed points), got $rc: $(cat err.txt)"
grep -q '^sortbench: 6 worker processes replaced after a point killed or hung it$' err.txt \
  || fail "no restart count: $(tail -3 err.txt)"
python3 - r.json <<'PY' || fail "report check failed"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"] is True, "report not complete"
res = r["results"]
assert len(res) == 24, f"{len(res)} results, expected 24"
failed = [x for x in res if x["status"] == "failed"]
ok = [x for x in res if x["status"] == "ok"]
assert len(failed) == 6 and len(ok) == 18, f"{len(failed)} failed, {len(ok)} ok"
for x in failed:
    assert ".ipt4." in x["variant"], x["variant"]
    assert x["reason"].startswith("worker process killed by signal 6"), x["reason"]
    assert x["family"] == "fake" and x["params"], x
# Points measured after a crash (the ipt8 ones come after ipt4 in label order) are there.
assert sum(1 for x in ok if ".ipt8." in x["variant"]) == 6
assert r["context"]["device"]["model"] == "fake-gpu"
PY

# A point best:FAMILY names says so in the report (selected_by), also where it
# is named outright; a point named only outright has no selected_by.
CUDA_VISIBLE_DEVICES= "$bin" run --isolate --fake-evaluator --variants 'best:fake,fake.radix.rb8.ipt8.tpb256,fake.radix.rb8.ipt16.tpb256' \
  --key u32 --values none --n 2^20 --dist uniform --out sel.json > /dev/null 2> sel-err.txt \
  || fail "run with best:fake exited $?: $(tail -3 sel-err.txt)"
python3 - sel.json <<'PY' || fail "selected_by check failed"
import json, sys
res = {x["variant"]: x for x in json.load(open(sys.argv[1]))["results"]}
assert set(res) == {"fake.radix.rb8.ipt8.tpb256", "fake.radix.rb8.ipt16.tpb256"}, sorted(res)
assert res["fake.radix.rb8.ipt8.tpb256"]["selected_by"] == ["best:fake"], res["fake.radix.rb8.ipt8.tpb256"]
assert "selected_by" not in res["fake.radix.rb8.ipt16.tpb256"], res["fake.radix.rb8.ipt16.tpb256"]
PY

# With no --out the report goes to sortbench-out/<gpu-model>/<config name>.json,
# never into results/ (committed reports); --out results/... still writes there.
mkdir defaults && cd defaults
CUDA_VISIBLE_DEVICES= "$bin" run --config ../iso.json --variants fake.radix.rb8.ipt8.tpb256 --isolate --fake-evaluator \
  > out.txt 2> err.txt || fail "run with the default --out exited $?: $(tail -3 err.txt)"
[ -s sortbench-out/fake-gpu/iso.json ] || fail "no report at sortbench-out/fake-gpu/iso.json: $(find . -type f)"
grep -q '^report: sortbench-out/fake-gpu/iso.json (2 points, 0 failed)$' out.txt || fail "report line: $(cat out.txt)"
[ ! -e results ] || fail "run wrote into results/: $(find results)"
CUDA_VISIBLE_DEVICES= "$bin" run --config ../iso.json --variants fake.radix.rb8.ipt8.tpb256 --isolate --fake-evaluator \
  --out results/fake-gpu/iso.json > /dev/null 2>&1 || fail "run --out results/fake-gpu/iso.json exited $?"
[ -s results/fake-gpu/iso.json ] || fail "--out results/fake-gpu/iso.json: no report"
cd ..

# --shard: three shards of one sweep, each workload in exactly one, joined by
# merge into the points of the whole sweep; a missing shard is refused.
cat > sh.json <<'JSON'
{"name": "sh", "variants": ["fake.radix.rb8.ipt8.*"], "sizes": ["2^16", "2^18", "2^20", "2^22"],
 "distributions": ["uniform", "sorted"], "sweeps": [{"keys": ["u32", "u64"], "values": ["none"]}]}
JSON
for i in 0 1 2; do
  CUDA_VISIBLE_DEVICES= "$bin" run --config sh.json --isolate --fake-evaluator --shard $i/3 --out sh$i.json     > /dev/null 2> sh-err$i.txt || fail "run --shard $i/3 exited $?: $(tail -2 sh-err$i.txt)"
done
CUDA_VISIBLE_DEVICES= "$bin" run --config sh.json --isolate --fake-evaluator --out whole.json > whole.txt 2>&1   || fail "the unsharded run exited $?"
"$bin" merge --out merged.json sh0.json sh1.json sh2.json > merge.txt 2> merge-err.txt   || fail "merge of the shards exited $?: $(cat merge-err.txt)"
# The merge prints the table the whole run prints, over the same workloads.
table_rows() { grep -E '^(workload|u32|u64)' "$1" | awk '{print $1, $2, $3}' | sort; }
[ "$(table_rows merge.txt | wc -l)" -eq 17 ] && [ "$(table_rows merge.txt)" = "$(table_rows whole.txt)" ] \
  || fail "merge's summary table differs from the whole run's: $(cat merge.txt)"
python3 - sh0.json sh1.json sh2.json merged.json whole.json <<'PY' || fail "shard check failed"
import json, sys
shards = [json.load(open(p)) for p in sys.argv[1:4]]
merged, whole = json.load(open(sys.argv[4])), json.load(open(sys.argv[5]))
key = lambda x: (x["variant"], x["key"], x["value"], x["n"], x["distribution"])
seen = [key(x) for s in shards for x in s["results"]]
assert len(seen) == len(set(seen)), "a point in two shards"
assert sorted(seen) == sorted(key(x) for x in whole["results"]), "the shards are not the whole sweep"
assert sorted(key(x) for x in merged["results"]) == sorted(seen)
# 16 workloads over 3 shards, dealt by size: 5 or 6 each, every shard with a 2^22 one.
for i, s in enumerate(shards):
    assert s["context"]["shard"] == f"{i}/3", s["context"].get("shard")
    ws = {(x["key"], x["n"], x["distribution"]) for x in s["results"]}
    assert len(ws) in (5, 6), (i, len(ws))
    assert any(n == 1 << 22 for _, n, _ in ws), (i, sorted(ws))
assert merged["context"]["shard"] == "merged"
assert [m["shard"] for m in merged["context"]["merged_from"]] == ["0/3", "1/3", "2/3"]
PY
rc=0
"$bin" merge --out part.json sh0.json sh2.json > /dev/null 2> part-err.txt || rc=$?
[ "$rc" -eq 2 ] || fail "merge without shard 1/3 exited $rc"
grep -q "merge: shard 1/3 is missing; the merged run would miss its workloads" part-err.txt || fail "$(cat part-err.txt)"
[ ! -e part.json ] || fail "a refused merge wrote part.json"
rc=0
"$bin" merge --out mixed.json sh0.json whole.json > /dev/null 2> mixed-err.txt || rc=$?
[ "$rc" -eq 2 ] && grep -q "whole.json: \$.context.shard: not a shard among shards of a run" mixed-err.txt \
  || fail "merge of a shard and a whole run: rc $rc, $(cat mixed-err.txt)"

# Bad input: one line, exit 2, nothing written.
expect_bad() {
  local pattern=$1 rc=0 err
  shift
  err=$("$bin" "$@" 2>&1 >/dev/null) || rc=$?
  [ "$rc" -eq 2 ] || fail "'$*' exited $rc, expected 2 ($err)"
  [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "'$*' printed more than one line: $err"
  grep -qF -- "$pattern" <<<"$err" || fail "'$*' said '$err', expected '$pattern'"
}
mkdir bad && cd bad
expect_bad "--point-timeout: only with --isolate" run --point-timeout 5 --variants 'fake.*'
expect_bad "--point-timeout: 0 is out of range; expected a number from 0.001 to 86400" run --isolate --fake-evaluator --point-timeout 0
expect_bad "--fake-evaluator: only with --isolate" run --fake-evaluator --variants 'fake.*'
expect_bad "--shard: '3/3' is not I/N with 0 <= I < N" run --isolate --fake-evaluator --config ../sh.json --shard 3/3
expect_bad "--shard: shard 17/20 has no workload (the sweep has 16); expected at most that many shards" run --isolate --fake-evaluator --config ../sh.json --shard 17/20
[ -z "$(ls -A)" ] || fail "bad input wrote files: $(ls -A)"
echo "run --isolate CLI: ok"
