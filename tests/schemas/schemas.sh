#!/usr/bin/env bash
# The published JSON Schemas (schemas/) and the C++ readers agree: every
# committed report and best.json under results/ and tests/data/, and the reports, best.json and
# cache the binary writes (fake evaluator), validate; a file spoiled in one
# field is refused by both the schema and the C++ reader (exit 2).
# usage: schemas.sh SORTBENCH_BINARY SOURCE_DIR PYTHON
source "$(dirname "$0")/../cli/scratch.sh"
bin=$(realpath "$1")
src=$(realpath "$2")
py=$3
validate() { "$py" "$src/tests/schemas/validate.py" "$src/schemas" "$@"; }
"$py" -c 'import jsonschema' 2>/dev/null || fail "python3-jsonschema missing: run tools/setup.sh"

# 1. Every committed report and best.json.
mapfile -t committed < <(find "$src/results" "$src/tests/data" -name '*.json' | sort)
out=$(validate "${committed[@]}") || { echo "$out" | grep -v '^ok'; fail "committed files do not validate"; }
echo "$out" | tail -n 1

# 2. What the binary writes: a tune (report, best.json, cache), its shards and their merge, a run.
cd "$work"
cat > space.json <<'JSON'
{"name": "fake", "variants": ["fake.*"], "sweeps": [{"keys": ["u32"], "values": ["none", "u32"], "sizes": ["2^20", "2^24"],
 "distributions": ["uniform"]}], "strategy": {"name": "exhaustive"}}
JSON
"$bin" tune --space space.json --fake-evaluator --out tune.json --best best.json --cache cache.jsonl >/dev/null 2>&1 \
  || fail "fake tune exited $?"
"$bin" tune --space space.json --fake-evaluator --devices 0,1 --out shards.json --best shards-best.json --cache shards.jsonl \
  >/dev/null 2>&1 || fail "fake tune --devices exited $?"
"$bin" tune --space space.json --fake-evaluator --objective energy --out tune-energy.json --best best-energy.json \
  --cache energy.jsonl >/dev/null 2>&1 || fail "fake tune --objective energy exited $?"
"$bin" run --isolate --fake-evaluator --variants 'fake.radix.rb8.*' --n 2^20 --key u32 --values none,u64 --dist uniform \
  --out run.json >/dev/null 2>&1 || fail "fake run exited $?"
out=$(validate tune.json best.json cache.jsonl shards.json shards.shard-0-of-2.json shards-best.json shards.jsonl run.json \
      best-energy.json) || { echo "$out" | grep -v '^ok'; fail "written files do not validate"; }
echo "$out" | tail -n 1
[ "$(echo "$out" | grep -c '^ok')" = 9 ] || fail "expected 9 files checked: $out"
grep -q '"time_pick"' best-energy.json || fail "a best.json by energy names no time_pick"

# 3. One spoiled field: the schema and the reader both refuse it.
"$py" - tune.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["results"][0]["n"] = -5
json.dump(r, open("spoiled.json", "w"))
lines = open("cache.jsonl").read().splitlines()
entry = json.loads(lines[1])
entry["result"]["key"] = "u24"
open("spoiled.jsonl", "w").write("\n".join([lines[0], json.dumps(entry)]) + "\n")
PY
validate spoiled.json >/dev/null && fail "the schema took n = -5"
validate spoiled.jsonl >/dev/null && fail "the schema took key u24 in a cache line"
rc=0; err=$("$bin" compare spoiled.json tune.json 2>&1 >/dev/null) || rc=$?
[ "$rc" = 2 ] && grep -q 'spoiled.json: $.results\[0\].n: expected a whole number' <<<"$err" || fail "reader: exit $rc: $err"
rc=0; err=$("$bin" merge --caches spoiled.jsonl --cache-out x.jsonl 2>&1 >/dev/null) || rc=$?
[ "$rc" = 2 ] && grep -q 'spoiled.jsonl:2: $.result.key: expected one of' <<<"$err" || fail "cache reader: exit $rc: $err"
echo "schemas: ok"
