#!/usr/bin/env bash
# Fault isolation against real kernel faults (GPU): the test.fault.* variants
# write through a bad pointer, trap, and launch 2048 threads per block.
# `sortbench run --isolate` records each as failed with its CUDA error and
# measures everything else, the later workload included, in fresh workers;
# `sortbench tune` does the same and prunes the invalid launch from its
# kernel's resources before it runs. Exit 77 (skipped) without a GPU.
# usage: fault_isolation_gpu.sh SORTBENCH_BINARY
source "$(dirname "$0")/scratch.sh"
bin=$(realpath "$1")
cd "$work"

need_gpus "$bin" 1

onesweep=radix.onesweep.rb8.ipt22.tpb384.mb3
cat > faults.json <<JSON
{"name": "faults", "variants": ["test.fault.*", "cub.radix_sort.off64", "$onesweep"], "baselines": ["cub.radix_sort.off64"],
 "sizes": ["2^16", "2^20"], "distributions": ["uniform"], "measure": {"budget_s": 0.2},
 "sweeps": [{"keys": ["u32"], "values": ["none"]}]}
JSON
rc=0
"$bin" run --config faults.json --isolate --out run.json > run.out 2> run.err || rc=$?
[ "$rc" -eq 1 ] || fail "run --isolate: expected exit 1 (failed points), got $rc: $(tail -5 run.err)"
grep -q '^sortbench: 4 worker processes replaced after a kernel fault lost the CUDA context$' run.err \
  || fail "run --isolate: no count of lost contexts: $(tail -5 run.err)"
python3 - run.json "$onesweep" <<'PY' || fail "run --isolate: report check failed"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"] is True
by = {(x["variant"], x["n"]): x for x in r["results"]}
assert len(by) == 10, sorted(by)
# The two faults poison the context; the refused launch (CUDA 13.0 says
# cudaErrorInvalidValue) does not, and its worker goes on.
expect = {"test.fault.illegal_address": "cudaErrorIllegalAddress",
          "test.fault.trap": "cudaErrorLaunchFailure",
          "test.fault.invalid_launch": "test.fault: launch: cudaError"}
for n in (1 << 16, 1 << 20):
    for label, error in expect.items():
        x = by[(label, n)]
        assert x["status"] == "failed", (label, n, x["status"])
        assert error in x["reason"], (label, n, x["reason"])
        assert ("context is lost" in x["reason"]) == (label != "test.fault.invalid_launch"), (label, x["reason"])
        assert x.get("gkeys_per_s") in (None, 0), x
    # Measured and validated after the faults, in a fresh worker.
    for label in ("cub.radix_sort.off64", sys.argv[2]):
        x = by[(label, n)]
        v = x["validation"]
        assert x["status"] == "ok" and v["checked"] and v["sorted"] and v["permutation"], (label, n, x["status"], x.get("reason"))
print("run --isolate report: ok")
PY

# tune over the same variants: the invalid launch is pruned before it runs,
# the two faults fail, the Onesweep shapes are scored and one is picked.
cat > space.json <<'JSON'
{"name": "faults-tune", "variants": ["test.fault.*", "radix.onesweep.rb8.ipt22.tpb384.mb3", "radix.onesweep.rb8.ipt19.tpb512.mb2"],
 "baselines": ["cub.radix_sort.off64"], "sizes": ["2^18", "2^20"], "distributions": ["uniform"], "measure": {"budget_s": 0.2},
 "sweeps": [{"keys": ["u32"], "values": ["none"]}], "strategy": {"name": "exhaustive"}}
JSON
"$bin" tune --space space.json --out tune.json --best best.json --cache cache.jsonl > tune.out 2> tune.err \
  || fail "tune: exit $?: $(tail -5 tune.err)"
python3 - tune.json <<'PY' || fail "tune: report check failed"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["context"]["tune"]
res = r["results"]
pruned = [x for x in res if x["variant"] == "test.fault.invalid_launch"]
assert len(pruned) == 1 and pruned[0]["status"] == "skipped", pruned
assert "pruned: kernel 'write_through' (2048 threads" in pruned[0]["reason"], pruned[0]["reason"]
assert "more threads per block than the 1024" in pruned[0]["reason"], pruned[0]["reason"]
for label, error in (("test.fault.illegal_address", "cudaErrorIllegalAddress"), ("test.fault.trap", "cudaErrorLaunchFailure")):
    xs = [x for x in res if x["variant"] == label]
    assert xs and all(x["status"] == "failed" and error in x["reason"] for x in xs), xs
assert t["worker_contexts_lost"] >= 2, t["worker_contexts_lost"]
g = t["groups"][0]
assert g["pick"].startswith("radix.onesweep."), g
assert (g["scored"], g["unscored"]) == (2, 2), g
kernels = t["resources"]["points"]["radix.onesweep.rb8.ipt22.tpb384.mb3"]["u32/none"]
assert [k["kernel"] for k in kernels] == ["histogram", "digit scan", "pass"], kernels
assert kernels[2]["blocks_per_sm"] >= 2, kernels[2]
print("tune report: ok")
PY
echo "fault isolation on the GPU: ok"
