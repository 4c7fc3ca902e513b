#!/usr/bin/env bash
# tools/slurm-tune.sh under a real, one-node Slurm (issue 16): munged, slurmctld
# and slurmd are configured in a scratch folder, started, and stopped on exit;
# the script runs as an array of 3 shards plus the merge job (afterok) against
# the fake evaluator, and the merged report and best.json must equal those of
# the same tune run unsharded. Skipped (exit 77, with the reason) where Slurm
# is not installed or its daemons do not come up.
# usage: slurm_tune.sh SORTBENCH_BINARY SOURCE_DIR
source "$(dirname "$0")/scratch.sh"
bin=$(realpath "$1")
src=$(realpath "$2")
skip() { echo "SKIPPED: $*"; exit 77; }
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || skip "$tool not installed (tools/setup.sh installs slurmctld, slurmd, slurm-client and munge)"
done
export PATH="$PATH:/usr/sbin"
[ "$(id -u)" = 0 ] || skip "the test starts slurmd, which runs as root; run it as root (as CI does)"

s=$work/slurm
mkdir -p "$s/state" "$s/spool" "$s/munge"
chmod 711 "$s/munge"
dd if=/dev/urandom of="$s/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$s/munge/munge.key"
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 1' INT TERM  # a ctest timeout still stops the daemons (through the EXIT trap)

munged --force --foreground --key-file="$s/munge/munge.key" --socket="$s/munge/munge.socket" \
  --pid-file="$s/munge/munged.pid" --log-file="$s/munge/munged.log" --seed-file="$s/munge/seed" \
  > "$s/munge/munged.out" 2>&1 &
pids+=($!)

# Free ports for this run, so a Slurm already on the machine is not disturbed.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for x in ss: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in ss))')
host=$(hostname -s)
cpus=$(nproc)
cat > "$s/slurm.conf" <<CONF
ClusterName=sortbench-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/munge/munge.socket
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
# One fake GPU: the script asks for --gres=gpu:1; the fake evaluator uses none.
echo "NodeName=$host Name=gpu File=/dev/null" > "$s/gres.conf"
export SLURM_CONF=$s/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" > "$s/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$host" -f "$SLURM_CONF" > "$s/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 120); do
  state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n 1 || true)
  if [ "$state" = idle ]; then up=1; break; fi
  sleep 0.5
done
[ -n "$up" ] || skip "the one-node Slurm did not come up in 60 s (node state '${state:-none}'): $(tail -n 3 "$s/slurmctld.log" "$s/slurmd.log" 2>/dev/null | tr '\n' ' ')"

cd "$work"
mkdir -p tools results/slurm && cp "$src/tools/slurm-tune.sh" tools/
cat > space.json <<'JSON'
{"name": "fake", "variants": ["fake.*"],
 "sweeps": [{"keys": ["u32"], "values": ["none", "u32"], "sizes": ["2^20:2^28:x4"], "distributions": ["uniform"]}],
 "strategy": {"name": "exhaustive"}}
JSON
# The script's --cpus-per-task=4 is more than this machine may have: the command line overrides it.
array=$(sbatch --parsable --array=0-2 --cpus-per-task=1 --export=ALL,SORTBENCH="$bin" \
  tools/slurm-tune.sh space.json --fake-evaluator) || fail "sbatch of the shard array failed"
merge=$(sbatch --parsable --dependency=afterok:"$array" --cpus-per-task=1 \
  --export=ALL,SORTBENCH="$bin",MERGE=1,SHARDS=3 tools/slurm-tune.sh space.json) || fail "sbatch of the merge job failed"
done_=""
for _ in $(seq 240); do
  if [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ]; then done_=1; break; fi
  squeue -h -j "$merge" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied &&
    fail "a shard failed, so the merge job never runs: $(tail -q -n 3 results/slurm/*.out 2>/dev/null | tr '\n' ' ')"
  sleep 0.5
done
[ -n "$done_" ] || fail "the jobs did not finish in 120 s: $(squeue 2>&1 | tail -n 5 | tr '\n' ' ') $(cat results/slurm/*.out 2>/dev/null | tail -n 5 | tr '\n' ' ') $(grep -i error "$s/slurmd.log" | tail -n 5 | tr '\n' ' ')"
for i in 0 1 2; do
  [ -s "results/shards/fake/shard-$i-of-3.json" ] ||
    fail "shard $i wrote no report: $(cat results/slurm/*_"$i".out 2>/dev/null | tail -n 5 | tr '\n' ' ')"
done
[ -s results/shards/fake/merged.json ] || fail "the merge job wrote no report: $(cat results/slurm/*.out | tail -n 5 | tr '\n' ' ')"
[ -s results/fake-gpu/best.json ] || fail "the merge job wrote no results/fake-gpu/best.json"

# The same tune, unsharded.
"$bin" tune --space space.json --fake-evaluator --out ref.json --best ref-best.json --cache ref.jsonl > /dev/null 2>&1 ||
  fail "the unsharded tune exited $?"
python3 - results/shards/fake/merged.json ref.json results/fake-gpu/best.json ref-best.json <<'PY' || fail "the Slurm merge differs from the unsharded tune"
import json, sys
merged, ref, best, ref_best = (json.load(open(p)) for p in sys.argv[1:5])
def points(r):
    return sorted((x["variant"], x["key"], x["value"], x["n"], x["status"], (x.get("time_ms") or {}).get("median"))
                  for x in r["results"])
assert points(merged) == points(ref), "results differ"
assert len(points(ref)) >= 300, len(points(ref))  # 300 measured, and the pruned points
def picks(b):
    return [(e["key"], e["value"], e["n_min"], e["n_max"], e["variant"], e["library"]) for e in b["entries"]]
assert picks(best) == picks(ref_best), (picks(best), picks(ref_best))
shards = merged["context"].get("merged_from", [])
assert len(shards) == 3, merged["context"].get("merged_from")
PY
echo "ok: 3 Slurm array shards and the merge job equal the unsharded tune ($(wc -l < ref.jsonl) cache lines)"
