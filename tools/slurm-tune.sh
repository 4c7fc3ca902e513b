#!/usr/bin/env bash
# One shard of a sortbench tune per Slurm array task, then a merge job.
#
#   mkdir -p results/slurm   # Slurm opens the --output files below before the script runs
#   jobs=$(sbatch --parsable --array=0-7 tools/slurm-tune.sh configs/tune-radix.json)
#   sbatch --dependency=afterok:$jobs --export=ALL,MERGE=1,SHARDS=8 tools/slurm-tune.sh configs/tune-radix.json
#
# Each task tunes the points whose label hashes to its shard (--shard I/N is a
# deterministic split, so a re-queued task redoes exactly its own points) and
# keeps its own cache file: appends from several nodes to one file on a network
# file system are not atomic. A task that is preempted or killed resumes from
# its cache when re-queued. The merge job joins reports, caches and best.json.
# tests/cli/slurm_tune.sh runs exactly these commands under a one-node Slurm.
#SBATCH --job-name=sortbench-tune
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=results/slurm/%x-%A_%a.out
#SBATCH --requeue
set -euo pipefail
space=${1:?usage: slurm-tune.sh SPACE_FILE [extra sortbench tune flags]}
shift
bin=${SORTBENCH:-build/sortbench}
name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("name","tune"))' "$space")
dir=results/shards/$name
mkdir -p "$dir" results/slurm
if [ "${MERGE:-0}" = 1 ]; then
  shards=${SHARDS:?MERGE=1 needs SHARDS=N}
  reports=() caches=()
  for i in $(seq 0 $((shards - 1))); do
    reports+=("$dir/shard-$i-of-$shards.json")
    caches+=("$dir/cache-$i-of-$shards.jsonl")
  done
  model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]["device"]["model"])' "${reports[0]}")
  # One merge writes the report, results/<gpu-model>/best.json (the picks
  # best:FAMILY and sortbench::sort read) and the joined cache (where an
  # unsharded tune looks by default) together, or nothing.
  exec "$bin" merge --out "$dir/merged.json" "${reports[@]}" --best "results/$model/best.json" \
    --caches "$(IFS=,; echo "${caches[*]}")" --cache-out "sortbench-out/$model/cache/$name.jsonl"
fi
i=${SLURM_ARRAY_TASK_ID:?run as an array job (sbatch --array=0-N)}
n=${SLURM_ARRAY_TASK_COUNT:?}
exec "$bin" tune --space "$space" --shard "$i/$n" --out "$dir/shard-$i-of-$n.json" \
  --cache "$dir/cache-$i-of-$n.jsonl" "$@"
