#!/usr/bin/env bash
# Bad input: one line naming the file, JSON path or flag, exit code 2, and no
# report written. Without a GPU, `run` says so in one line and exits 1.
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

expect() {  # expect CODE PATTERN -- ARGS...
  local code=$1 pattern=$2
  shift 3
  local out rc
  out=$("$bin" "$@" --out "$tmp/report.json" 2>&1 >/dev/null)
  rc=$?
  local lines
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ "$rc" != "$code" ] || ! grep -qF -- "$pattern" <<<"$out" || [ "$lines" != 1 ] || [ -e "$tmp/report.json" ]; then
    echo "FAIL: sortbench $* -> exit $rc, $lines lines: $out (wanted exit $code and '$pattern')"
    fails=$((fails + 1))
  else
    echo "ok: sortbench $* -> $out"
  fi
}

printf '{"name": "x", "sizes": [1' >"$tmp/malformed.json"
printf '{"sizes": [1], "distributions": ["uniform"], "keys": ["u24"]}' >"$tmp/badkey.json"
printf '{"sizes": [1], "distributions": ["gaussian"]}' >"$tmp/baddist.json"
printf '{"sizes": [-4], "distributions": ["uniform"]}' >"$tmp/negsize.json"
printf '{"sizes": [1], "distributions": ["uniform"], "variants": ["nosuch.*"]}' >"$tmp/badvariant.json"
printf '{"sizes": [1], "distributions": ["uniform"], "variants": ["cub.*"], "baselines": ["cub.radix_sort"]}' >"$tmp/badbaseline.json"
printf '{"sizes": [1], "distributions": ["uniform"], "variants": ["best:nosuch"]}' >"$tmp/badbest.json"

expect 2 "$tmp/malformed.json: malformed JSON" -- run --config "$tmp/malformed.json"
expect 2 "$tmp/badkey.json: \$.keys[0]: unknown value 'u24'" -- run --config "$tmp/badkey.json"
expect 2 "$tmp/baddist.json: \$.distributions[0]: unknown distribution 'gaussian'" -- run --config "$tmp/baddist.json"
expect 2 "$tmp/negsize.json: \$.sizes[0]: size -4 is negative" -- run --config "$tmp/negsize.json"
expect 2 "$tmp/badvariant.json: \$.variants: 'nosuch.*' matches no registered variant" -- run --config "$tmp/badvariant.json"
expect 2 "$tmp/badbaseline.json: \$.baselines[0]: 'cub.radix_sort' matches no registered variant" -- run --config "$tmp/badbaseline.json"
expect 2 "$tmp/badbest.json: \$.variants: 'best:nosuch' names no family with a default point; expected one of dispatch, merge, network" -- run --config "$tmp/badbest.json"
expect 2 "$tmp/none.json: cannot open" -- run --config "$tmp/none.json"
expect 2 "--variants: 'nosuch' matches no registered variant" -- run --variants nosuch
expect 2 "--dist: unknown distribution 'gauss'" -- run --dist gauss
expect 2 "--key: unknown key type 'u24'; expected one of u8, i8, u16, i16, f16, bf16, u32" -- run --key u24
expect 2 "--n: size 'lots' is not a number" -- run --n lots
expect 2 "--n: size '-5' is negative" -- run --n=-5
expect 2 "unrecognised option '--colour'" -- run --colour
expect 2 "--values: unknown value type 'u16'; expected one of none, u32, u64" -- run --values u16

# The default sweep resolves and lists its points without a GPU.
points=$("$bin" run --dry-run | tail -n 1)
# 32 workloads x (7 families of ours, dispatch.sort among them, + 6 CUB calls + 2 Thrust calls); the lean
# build compiles CUB's merge sort and Thrust's comparator sort for u32 and u64 keys first (two units).
to_compile=2
grep -q "^build .*full grid" <<<"$("$bin" --version)" && to_compile=0
case "$points" in
  "dry run: 480 points: "*", est. measuring <= "*" s budget + 1.2 s energy window)), $to_compile to compile"*) ;;
  *) echo "FAIL: run --dry-run of the default sweep: '$points' (wanted 480 points)"; fails=$((fails + 1)) ;;
esac

if ! nvidia-smi -L >/dev/null 2>&1; then
  expect 1 "no usable CUDA GPU on this machine: " -- run
fi

# --version: the build, on any machine; exit 0.
version=$(sed -n 's/^project(sortbench VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
out=$("$bin" --version 2>"$tmp/version.err")
rc=$?
if [ "$rc" != 0 ] || [ -s "$tmp/version.err" ] || [ "$(head -n 1 <<<"$out")" != "sortbench      $version" ] ||
  ! grep -qE '^commit         [0-9a-f]{40}( \(dirty: uncommitted changes\))?$' <<<"$out" ||
  ! grep -qE '^build          [A-Za-z]+, (lean|full grid) ' <<<"$out" ||
  ! grep -qE '^CUDA           architectures [0-9]' <<<"$out" || ! grep -qE '^CCCL           [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out"; then
  echo "FAIL: sortbench --version -> exit $rc: $out $(cat "$tmp/version.err") (wanted version $version, commit, build, CUDA, CCCL)"
  fails=$((fails + 1))
fi
"$bin" --version --json | python3 -c '
import json, sys
b = json.load(sys.stdin)
assert b["version"] == sys.argv[1] and len(b["git_commit"]) == 40 and isinstance(b["full_grid"], bool), b
assert b["cccl_version"].count(".") == 2 and b["cuda_architectures"], b' "$version" ||
  { echo "FAIL: sortbench --version --json"; fails=$((fails + 1)); }

# info with no GPU visible: the build, then what is missing (no NVIDIA driver,
# or a driver that finds no GPU), exit 1; --json says the same as an object.
if grep -q 'libcuda\.so\.1 ' <<<"$(ldconfig -p 2>/dev/null)"; then missing="no GPU"; else missing="no NVIDIA driver"; fi
out=$(CUDA_VISIBLE_DEVICES= "$bin" info 2>"$tmp/info.err")
rc=$?
if [ "$rc" != 1 ] || [ "$(head -n 1 <<<"$out")" != "sortbench      $version" ] ||
  [ "$(tail -n 1 <<<"$out")" != "GPU            none: $missing" ] || [ "$(grep -c . "$tmp/info.err")" != 1 ] ||
  ! grep -q "^sortbench: no usable CUDA GPU on this machine: $missing (" "$tmp/info.err"; then
  echo "FAIL: sortbench info without a GPU -> exit $rc: $out / $(cat "$tmp/info.err") (wanted the build, then '$missing', exit 1)"
  fails=$((fails + 1))
fi
CUDA_VISIBLE_DEVICES= "$bin" info --json 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["device"] is None and j["device_error"].startswith(sys.argv[1] + " ("), j
assert j["build"]["version"] and j["build"]["cccl_version"], j' "$missing" ||
  { echo "FAIL: sortbench info --json without a GPU"; fails=$((fails + 1)); }

"$bin" list --json | python3 -c 'import json,sys; v=json.load(sys.stdin); assert any(x["label"]=="cub.radix_sort.off64" and "f16" in x["key_types"] and "u64" in x["value_types"] for x in v)' \
  || { echo "FAIL: list --json"; fails=$((fails + 1)); }

# Output that cannot be written is a failure (exit 1, said once); a reader that
# stops early (`| head`) is not.
if [ -w /dev/full ]; then
  out=$("$bin" list --json 2>&1 >/dev/full)
  rc=$?
  case "$rc:$out" in
    "1:sortbench: cannot write to standard output"*) ;;
    *) echo "FAIL: list --json > /dev/full -> exit $rc: $out"; fails=$((fails + 1)) ;;
  esac
fi
"$bin" list 2>"$tmp/head.err" | head -n 1 >/dev/null
if [ -s "$tmp/head.err" ]; then
  echo "FAIL: list | head -n 1: $(cat "$tmp/head.err")"
  fails=$((fails + 1))
fi

echo "$fails failures"
[ "$fails" = 0 ]
