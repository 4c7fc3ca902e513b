#!/usr/bin/env bash
# One call on a lent GPU machine: binaries built here for sm_90 are in BIN
# (sortbench, sortbench_gpu_tests); logs and reports go to OUT.
#   tools/gpu_session.sh BIN OUT STEP...
# Steps: info | tests[:FILTER] | tests-sharded:N[:FILTER] | memcheck[:GLOBS] | racecheck[:GLOBS]
#        | sweep:CONFIG[:NAME] | run:NAME:ARGS (ARGS with '+' for spaces) | sh:COMMAND (with '+' for spaces)
# tests-sharded runs the GPU test binary as N processes side by side on the
# one GPU (GoogleTest sharding): the registry-driven suite is bound by launch
# and copy latency, not by the GPU, so shards overlap.
set -uo pipefail
bin=$1
out=$2
shift 2
status=0
note() { echo "== $* ($(date +%T))"; }
for step in "$@"; do
  case "$step" in
    info)
      note info
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
      "$bin/sortbench" info | tee "$out/info.txt" || status=1
      ;;
    tests-sharded:*)
      spec=${step#tests-sharded:}
      shards=${spec%%:*}
      filter=""
      [ "$spec" != "$shards" ] && filter=${spec#*:}
      note "gpu tests in $shards shards ${filter:-all}"
      pids=()
      for ((i = 0; i < shards; i++)); do
        GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$bin/sortbench_gpu_tests" ${filter:+--gtest_filter="$filter"} \
          --gtest_output="json:$out/gpu-tests-shard$i.json" >"$out/gpu-tests-shard$i.log" 2>&1 &
        pids+=($!)
      done
      for ((i = 0; i < shards; i++)); do
        wait "${pids[$i]}" || status=1
        grep -E "^\[==========\].*ran|^\[  (PASSED|FAILED) \]|Failure$" "$out/gpu-tests-shard$i.log" | sed "s/^/shard $i: /" | tail -n 12
      done
      ;;
    tests*)
      filter=${step#tests}
      filter=${filter#:}
      note "gpu tests ${filter:-all}"
      "$bin/sortbench_gpu_tests" ${filter:+--gtest_filter="$filter"} --gtest_output="json:$out/gpu-tests.json" \
        >"$out/gpu-tests.log" 2>&1 || status=1
      grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure|FAILED" "$out/gpu-tests.log" | tail -n 40
      ;;
    memcheck* | racecheck*)
      tool=${step%%:*}
      glob=${step#"$tool"}
      glob=${glob#:}
      note "compute-sanitizer $tool ${glob:-*}"
      compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 20 \
        "$bin/sortbench" run --variants "${glob:-*}" --n 4113 --key u8,f16,u32,f64 --values none,u32,u64 --dist uniform \
        --budget 0.001 --out "$out/sanitize-$tool.json" >"$out/sanitize-$tool.log" 2>&1
      rc=$?
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|points, " "$out/sanitize-$tool.log"
      echo "$tool exit $rc"
      [ $rc = 0 ] || status=1
      ;;
    sweep:*)
      spec=${step#sweep:}
      cfg=${spec%%:*}
      name=$(basename "$cfg" .json)
      [ "$spec" != "$cfg" ] && name=${spec#*:}
      note "sweep $cfg"
      "$bin/sortbench" run --config "$cfg" --out "$out/$name.json" >"$out/$name.txt" 2>"$out/$name.log" || status=1
      cat "$out/$name.txt"
      ;;
    run:*)
      spec=${step#run:}
      name=${spec%%:*}
      args=${spec#*:}
      note "run $name"
      "$bin/sortbench" run ${args//+/ } --out "$out/$name.json" >"$out/$name.txt" 2>"$out/$name.log" || status=1
      cat "$out/$name.txt"
      ;;
    sh:*)
      cmd=${step#sh:}
      note "sh ${cmd//+/ }"
      bash -c "${cmd//+/ }" || status=1
      ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
exit $status
