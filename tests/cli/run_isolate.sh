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
[ -z "$(ls -A)" ] || fail "bad input wrote files: $(ls -A)"
echo "run --isolate CLI: ok"
