#!/usr/bin/env bash
# sortbench tune end to end with the fake evaluator (no GPU): a worker that
# crashes costs only its point, a SIGKILLed tune resumes from the cache losing
# at most the point in flight, --devices shards merge to the unsharded answer,
# --dry-run needs no GPU, and bad input exits 2 writing nothing.
# usage: tune.sh SORTBENCH_BINARY SOURCE_DIR
source "$(dirname "$0")/scratch.sh"
bin=$(realpath "$1")
src=$(realpath "$2")
cd "$work"
cat > space.json <<'JSON'
{"name": "fake", "variants": ["fake.*"],
 "sweeps": [{"keys": ["u32"], "values": ["none", "u32"], "sizes": ["2^20:2^28:x4"], "distributions": ["uniform"]}],
 "strategy": {"name": "exhaustive"}}
JSON
pick() { python3 -c "import json,sys; print(' '.join(e['variant']+'@'+str(e['n_min']) for e in json.load(open(sys.argv[1]))['entries']))" "$1"; }

# 1. Reference run.
"$bin" tune --space space.json --fake-evaluator --out ref.json --best ref-best.json --cache ref.jsonl > /dev/null 2>&1
# The cache's first line is its header (what it belongs to); every other line one evaluation.
total=$(( $(wc -l < ref.jsonl) - 1 ))
[ "$(head -n 1 ref.jsonl | python3 -c 'import json,sys; print(json.load(sys.stdin)["schema"])')" = sortbench-cache ] || fail "ref.jsonl: no cache header"
[ "$total" -eq 300 ] || fail "expected 300 cached evaluations (2 groups x (4 CUB radix sort calls + 26 points) x 5 workloads), got $total"
# The fake kernels' resources are in the report; tpb512 x ipt16 is pruned for its registers.
python3 - ref.json <<'PY' || fail "ref.json: resources not reported"
import json, sys
t = json.load(open(sys.argv[1]))["context"]["tune"]
k = t["resources"]["points"]["fake.radix.rb8.ipt8.tpb256"]["u32/none"][0]
assert (k["kernel"], k["registers_per_thread"], k["blocks_per_sm"]) == ("pass", 65, 3), k
assert t["resources"]["points"]["fake.radix.rb8.ipt16.tpb512"]["u32/u32"][0]["blocks_per_sm"] == 0
res = json.load(open(sys.argv[1]))["results"]
why = [x["reason"] for x in res if x["variant"] == "fake.radix.rb8.ipt16.tpb512"]
assert why and all("allows 480 threads per block" in w for w in why), why
PY

# 2. Fault isolation: the worker aborts on rb6.ipt4.*; those points fail, the rest is measured.
"$bin" tune --space space.json --fake-evaluator --fake-crash 'fake.radix.rb6.ipt4.*' --out crash.json \
  --best crash-best.json --cache crash.jsonl > /dev/null 2>&1 || fail "tune with a crashing worker exited $?"
failed=$(grep -c 'killed by signal' crash.jsonl || true)
[ "$failed" -eq 6 ] || fail "expected 6 points failed by the crashing worker, got $failed"
[ "$(pick crash-best.json)" = "$(pick ref-best.json)" ] || fail "a crashing point changed the picks"
python3 - crash.json <<'PY' || fail "crash.json: the crashed points are not counted as unscored"
import json, sys
for g in json.load(open(sys.argv[1]))["context"]["tune"]["groups"]:
    assert (g["scored"], g["unscored"]) == (g["candidates"] - 3, 3), g
PY

# 3. SIGKILL part way, then resume: nothing measured is lost.
"$bin" tune --space space.json --fake-evaluator --fake-delay 0.01 --out kill.json --best kill-best.json \
  --cache kill.jsonl > /dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
  [ -f kill.jsonl ] && [ "$(wc -l < kill.jsonl)" -ge 31 ] && break
  sleep 0.05
done
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
before=$(( $(wc -l < kill.jsonl) - 1 ))
[ "$before" -ge 30 ] && [ "$before" -lt "$total" ] || fail "kill landed at $before of $total"
out=$("$bin" tune --space space.json --fake-evaluator --out kill.json --best kill-best.json --cache kill.jsonl 2>/dev/null)
grep -q "from the cache" <<<"$out" || fail "no cache summary"
measured=$(echo "$out" | sed -n 's/^strategy exhaustive: \([0-9]*\) evaluations, \([0-9]*\) from the cache.*/\1/p')
hits=$(echo "$out" | sed -n 's/^strategy exhaustive: \([0-9]*\) evaluations, \([0-9]*\) from the cache.*/\2/p')
[ "$hits" -ge "$((before - 1))" ] || fail "resume reused $hits of $before cached lines"
[ "$((measured + hits))" -eq "$total" ] || fail "resume measured $measured + $hits cached != $total"
[ "$(pick kill-best.json)" = "$(pick ref-best.json)" ] || fail "resumed picks differ"

# 4. Two shards side by side, merged == unsharded; and by hand with sortbench merge.
"$bin" tune --space space.json --fake-evaluator --devices 0,1 --out dev.json --cache dev.jsonl > /dev/null 2>&1
# With no --best the picks go to sortbench-out/, never into the checkout's committed results/.
[ "$(pick sortbench-out/fake-gpu/best.json)" = "$(pick ref-best.json)" ] || fail "--devices merge differs from unsharded"
[ ! -e results ] || fail "--devices wrote into results/: $(find results)"
python3 - dev.json ref.json <<'PY' || fail "--devices: the merged report lacks a shard's resources"
import json, sys
points = lambda f: set(json.load(open(f))["context"]["tune"]["resources"]["points"])
assert points(sys.argv[1]) == points(sys.argv[2]), points(sys.argv[2]) ^ points(sys.argv[1])
PY
"$bin" tune --space space.json --fake-evaluator --devices 0,1 --out dev2.json --best dev2-best.json --cache dev.jsonl > /dev/null 2>&1
[ "$(pick dev2-best.json)" = "$(pick ref-best.json)" ] || fail "--devices did not write --best"
"$bin" merge --out m.json --best m-best.json dev.shard-0-of-2.json dev.shard-1-of-2.json > /dev/null
rm -r sortbench-out
"$bin" merge --out m2.json dev.shard-0-of-2.json dev.shard-1-of-2.json > /dev/null
[ "$(pick sortbench-out/fake-gpu/best.json)" = "$(pick ref-best.json)" ] || fail "merge: no best.json at the default sortbench-out/fake-gpu/best.json"
[ ! -e results ] || fail "merge wrote into results/: $(find results)"
# A tune with no paths writes its report, best.json and cache below sortbench-out/<gpu-model>/.
mkdir defaults && (cd defaults && "$bin" tune --space ../space.json --fake-evaluator > out.txt 2>&1) || fail "tune with default paths exited $?"
for f in fake-gpu/fake-exhaustive.json fake-gpu/best.json fake-gpu/cache/fake.jsonl; do
  [ -s "defaults/sortbench-out/$f" ] || fail "tune with default paths: no sortbench-out/$f: $(find defaults)"
done
grep -q '^report: sortbench-out/fake-gpu/fake-exhaustive.json$' defaults/out.txt || fail "tune: report line: $(cat defaults/out.txt)"
[ ! -e defaults/results ] || fail "tune with default paths wrote into results/: $(find defaults/results)"
[ "$(pick m-best.json)" = "$(pick ref-best.json)" ] || fail "sortbench merge differs from unsharded"
"$bin" merge --caches ref.jsonl,crash.jsonl --cache-out joined.jsonl > /dev/null
[ "$(wc -l < joined.jsonl)" -eq 301 ] || fail "merged caches should hold a header and 300 distinct keys"

# 5. --dry-run touches no GPU (CUDA_VISIBLE_DEVICES= hides any there is), writes nothing,
# and prints the groups, points and pruned points.
mkdir dry && cd dry
out=$(CUDA_VISIBLE_DEVICES= "$bin" tune --space ../space.json --fake-evaluator --dry-run 2>&1) \
  || fail "fake dry run without a GPU exited $?: $out"
grep -q '^u32/none: 5 workloads, 26 points, 14 pruned' <<<"$out" || fail "fake dry run: no u32/none group: $out"
grep -q '^  fake.radix.rb8.ipt8.tpb256' <<<"$out" || fail "fake dry run: points not listed: $out"
# The real radix space, whose variants' own checks query the GPU (shared memory), when this build has them.
if grep -q '^radix\.' <<<"$("$bin" list --variants 'radix.*')"; then
  out=$(CUDA_VISIBLE_DEVICES= "$bin" tune --space "$src/configs/tune-radix.json" --dry-run 2>&1) \
    || fail "dry run of configs/tune-radix.json without a GPU exited $?: $out"
  grep -q '^dry run: no GPU queried' <<<"$out" || fail "radix dry run: no GPU note: $out"
  grep -q '^u32/u32: .* points' <<<"$out" || fail "radix dry run: no u32/u32 group: $out"
  grep -q '^  radix\.onesweep\.' <<<"$out" || fail "radix dry run: no onesweep points: $out"
  grep -q '^  radix\.onesweep\..*  (own check needs the GPU; not run)$' <<<"$out" || fail "radix dry run: own checks not marked: $out"
  grep -q 'evaluations at most' <<<"$out" || fail "radix dry run: no total: $out"
  grep -q '^kernel resources (registers, shared memory, resident blocks) not checked: that needs the GPU$' <<<"$out" \
    || fail "radix dry run: does not say resources were not checked: $out"
else
  echo "note: this build has no radix variants; the dry run of configs/tune-radix.json was not run"
fi
[ -z "$(ls -A)" ] || fail "dry run wrote files: $(ls -A)"
cd ..

# 6. A workload no variant can sort (a float distribution on integer keys, as
# --key u32 over a space with an f32 sweep makes) is left out of its group,
# said once, and the group is tuned on the rest; a group with nothing else says
# so. --groups picks groups of the space with their own sweeps instead.
mkdir unsortable && cd unsortable
cat > mixed.json <<'JSON'
{"name": "mixed", "variants": ["fake.radix.rb8.*"], "strategy": {"name": "exhaustive"},
 "sweeps": [{"keys": ["u32"], "values": ["none"], "sizes": ["2^20"], "distributions": ["uniform", "zipf"]},
            {"keys": ["f32"], "values": ["none"], "sizes": ["2^20"], "distributions": ["uniform", "normal"]}]}
JSON
rc=0
"$bin" tune --space mixed.json --fake-evaluator --key u32 --out m.json --best m-best.json --cache m.jsonl > out.txt 2> err.txt || rc=$?
[ "$rc" -eq 0 ] || fail "tune with an unsortable workload exited $rc: $(cat out.txt err.txt)"
grep -q '^sortbench tune: u32/none leaves out 1 workload no variant can sort (first: n=2^20 normal: distribution normal applies to float keys only' err.txt \
  || fail "unsortable workload not named: $(cat err.txt)"
grep -q '^  u32/none: fake\.radix\.rb8\.' out.txt || fail "u32/none not tuned on the sortable workloads: $(cat out.txt)"
python3 - m.json <<'PY' || fail "m.json: an unsortable workload was measured"
import json, sys
assert not [r for r in json.load(open(sys.argv[1]))["results"] if r["distribution"] == "normal"]
PY
out=$(CUDA_VISIBLE_DEVICES= "$bin" tune --space mixed.json --fake-evaluator --key u32 --dry-run 2>&1)
grep -q '^u32/none: 2 workloads' <<<"$out" || fail "dry run: the unsortable workload counted: $out"
grep -q '^  left out workload n=2^20 normal: distribution normal applies to float keys only' <<<"$out" || fail "dry run: $out"
rc=0
"$bin" tune --space mixed.json --fake-evaluator --key u32 --dist normal --out n.json --best n-best.json --cache n.jsonl > out.txt 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "a tune with nothing sortable exited $rc, expected 1"
grep -q '^  u32/none: no workload to score: no variant can sort any of its 1 (first: n=2^20 normal: ' out.txt \
  || fail "nothing sortable: $(cat out.txt)"
# --groups tunes the groups it names, each on its own sweep's distributions.
rc=0
"$bin" tune --space mixed.json --fake-evaluator --groups f32/none --out g.json --best g-best.json --cache g.jsonl > out.txt 2> err.txt || rc=$?
[ "$rc" -eq 0 ] || fail "tune --groups f32/none exited $rc: $(cat out.txt err.txt)"
! grep -q 'leaves out' err.txt || fail "--groups f32/none left out a workload: $(cat err.txt)"
python3 - g.json <<'PY' || fail "g.json: --groups f32/none measured other groups or distributions"
import json, sys
seen = {(r["key"], r["value"], r["distribution"]) for r in json.load(open(sys.argv[1]))["results"]}
assert seen == {("f32", "none", "uniform"), ("f32", "none", "normal")}, seen
PY
cd ..

# 7. Bad input: one line, exit 2, nothing written.
expect_bad() {
  local rc=0 err
  err=$("$bin" "$@" 2>&1 >/dev/null) || rc=$?
  [ "$rc" -eq 2 ] || fail "'$*' exited $rc, expected 2 ($err)"
  [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "'$*' printed more than one line: $err"
}
mkdir bad && cd bad
echo '{"variants": ["fake.*"], "sizes": ["2^20"], "distributions": ["uniform"], "strategy": {"name": "nope"}}' > s.json
expect_bad tune --space s.json --fake-evaluator
expect_bad tune --space ../space.json --fake-evaluator --shard 2/2
expect_bad tune --space ../space.json --fake-evaluator --strategy annealing
expect_bad tune --space ../space.json --fake-evaluator --variants 'nomatch.*'
expect_bad tune --fake-evaluator
expect_bad merge --out x.json missing.json
[ -z "$(ls -A | grep -v '^s.json$')" ] || fail "bad input wrote files: $(ls -A)"
echo "tune CLI: ok"
