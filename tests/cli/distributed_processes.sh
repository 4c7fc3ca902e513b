#!/usr/bin/env bash
# The distributed family with one process per GPU (issue 16): `sortbench run
# --gpus 0,1 --processes` starts two ranks that meet through an NCCL id file
# (ncclCommInitRank), as a launcher's tasks would; on a machine with four
# GPUs, `--gpus 0,1,2,3` too. Every point is validated
# globally; the part sizes (a pure function of the input) must equal those of
# the same sweep in one process (ncclCommInitAll), and the one-GPU baseline
# comes from rank 0. Exit 77 (skipped) with fewer than two GPUs or no NCCL.
# usage: distributed_processes.sh SORTBENCH_BINARY
source "$(dirname "$0")/scratch.sh"
bin=$(realpath "$1")
cd "$work"

need_gpus "$bin" 2

# Two GPUs, and all four where the machine has four: the same points with
# one process per GPU and in one process.
sets=(0,1)
[ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)" -ge 4 ] && sets+=(0,1,2,3)
for gpus in "${sets[@]}"; do
axes=(--variants 'distributed.*,cub.radix_sort.off64' --gpus "$gpus" --n 4097,1048579 --key u32,u64 --values none,u32
      --dist uniform,entropy:0.0 --budget 0.05)
"$bin" run "${axes[@]}" --processes --out procs.json > procs.out 2> procs.err || fail "run --processes --gpus $gpus: exit $?: $(tail -5 procs.err)"
"$bin" run "${axes[@]}" --out one.json > one.out 2> one.err || fail "run --gpus $gpus (one process): exit $?: $(tail -5 one.err)"
python3 - procs.json one.json "$gpus" <<'PY' || fail "report check failed (--gpus $gpus)"
import json, sys
procs, one = (json.load(open(p)) for p in sys.argv[1:3])
gpus = [int(g) for g in sys.argv[3].split(",")]
assert procs["context"]["processes"]["world"] == len(gpus), procs["context"].get("processes")
def key(r): return (r["variant"], r["key"], r["value"], r["n"], r["distribution"])
ones = {key(r): r for r in one["results"]}
dist = [r for r in procs["results"] if r["variant"].startswith("distributed.") and r["status"] == "ok"]
assert dist, "no distributed points"
for r in procs["results"]:
    # Past two GPUs a design written for two is a declared skip, in both modes alike.
    if r["status"] == "skipped" and len(gpus) > 2:
        assert r.get("reason") and ones[key(r)]["status"] == "skipped", (key(r), r.get("reason"))
        continue
    assert r["status"] == "ok", (key(r), r.get("reason"))
    assert r["validation"]["sorted"] and r["validation"]["permutation"], (key(r), r["validation"])
for r in dist:
    assert r["gpus"] == gpus, r["gpus"]
    assert sum(r["part_sizes"]) == r["n"], r["part_sizes"]
    if r["value"] != "none": assert r["validation"]["stability_checked"] and r["validation"]["stable"], key(r)
    assert r["part_sizes"] == ones[key(r)]["part_sizes"], (key(r), r["part_sizes"], ones[key(r)]["part_sizes"])
    assert r["scaling"]["one_gpu_baseline"] == "cub.radix_sort.off64", key(r)
    assert r["local_sort"].startswith("radix.") and r["local_sort"] == ones[key(r)]["local_sort"], key(r)
print(len(dist), "distributed points on", len(gpus), "GPUs with one process per GPU, all valid and as balanced as in one process")
PY
done
