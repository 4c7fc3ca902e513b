#!/usr/bin/env bash
# package.example_plugin: the installed package as an outside project sees it.
# Installs this build into a temporary prefix, builds examples/plugin against
# it (find_package(sortbench), sortbench_add_plugin), and has the installed
# binary list the plugin's variants, by --plugin and by SORTBENCH_PLUGIN_PATH.
# Usage: example_plugin.sh CMAKE BUILD_DIR SOURCE_DIR CUDA_COMPILER CXX_COMPILER PYTHON SORTBENCH
set -uo pipefail
cmake=$1 build_dir=$2 src=$3 nvcc=$4 cxx=$5 py=$6 built_binary=$7
tmp=$(mktemp -d) || { echo "FAIL: mktemp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
# A plugin path from the caller's environment would add variants to every listing.
unset SORTBENCH_PLUGIN_PATH

fail() { echo "FAIL: $*"; exit 1; }
# Runs a step quietly; on failure shows its output and names it.
step() {
  local what=$1; shift
  if ! "$@" >"$tmp/step.log" 2>&1; then
    cat "$tmp/step.log"
    fail "$what failed: $*"
  fi
  echo "ok: $what"
}

[ -x "$built_binary" ] || fail "$built_binary is not built (cmake --build $build_dir --target sortbench)"
step "install into a temporary prefix" "$cmake" --install "$build_dir" --prefix "$tmp/prefix"
bin=$tmp/prefix/bin/sortbench
[ -x "$bin" ] || fail "the install has no bin/sortbench"
# What the binary reads outside the checkout: configs, schemas, each GPU's best.json.
share=$tmp/prefix/share/sortbench
for f in configs/quick.json configs/realistic.json schemas/report.schema.json schemas/best.schema.json; do
  [ -f "$share/$f" ] || fail "the install has no share/sortbench/$f"
done
for best in "$src"/results/*/best.json; do
  model=$(basename "$(dirname "$best")")
  cmp -s "$best" "$share/results/$model/best.json" || fail "the install's share/sortbench/results/$model/best.json is not $best"
done
[ -z "$(find "$share/results" -type f ! -name best.json)" ] || fail "the install carries more of results/ than best.json"
echo "ok: configs, schemas and $(ls -d "$share"/results/*/ | wc -l) GPUs' best.json installed"
# The headers installed are the public interface (harness/include), each
# compiling alone; the harness's internal ones and the distributed family,
# written against them, stay behind.
inc=$tmp/prefix/include
[ "$(cd "$inc/sortbench" && find . -type f | sort | tr '\n' ' ')" = "$(cd "$src/harness/include/sortbench" && find . -type f | sort | tr '\n' ' ')" ] \
  || fail "include/sortbench is not harness/include/sortbench: $(cd "$inc/sortbench" && find . -type f | sort | tr '\n' ' ')"
[ ! -e "$inc/sortbench-variants/distributed" ] || fail "the distributed family's headers are installed"
for h in "$inc"/sortbench/*.hpp; do
  echo "#include <sortbench/$(basename "$h")>" > "$tmp/one.cpp"
  "$cxx" -std=c++17 -fsyntax-only -I"$inc" "$tmp/one.cpp" 2>"$tmp/one.log" || { cat "$tmp/one.log"; fail "sortbench/$(basename "$h") does not compile alone"; }
done
if grep -rlE '#include "sortbench/(config|tune|report|device|files|plan|best_json)\.hpp"' "$inc/sortbench" "$inc/sortbench-variants"; then
  fail "an installed header includes an internal one"
fi
echo "ok: the public headers installed, each compiling alone, nothing internal"
# Outside the checkout, a config or tune space by name is the installed one.
(cd "$tmp" && "$bin" run --config realistic --dry-run >"$tmp/named.txt" 2>&1) || { cat "$tmp/named.txt"; fail "run --config realistic outside the checkout"; }
grep -q "^dry run: 1296 points" "$tmp/named.txt" || fail "run --config realistic: $(tail -n 1 "$tmp/named.txt")"
(cd "$tmp" && "$bin" tune --space tune-radix --dry-run >"$tmp/named-space.txt" 2>&1) \
  || { cat "$tmp/named-space.txt"; fail "tune --space tune-radix outside the checkout"; }
echo "ok: --config and --space by name read the installed configs"
step "configure examples/plugin against it" "$cmake" -S "$src/examples/plugin" -B "$tmp/build" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CXX_COMPILER="$cxx"
step "build the plugin" "$cmake" --build "$tmp/build" -j2
plugin=$tmp/build/example_sorts.so
[ -f "$plugin" ] || fail "the build made no $plugin"
plugin=$(readlink -f "$plugin")

# The README's labels (examples/plugin/README.md).
labels=(example.block_radix.tpb256.ipt8 example.block_radix.tpb256.ipt16 example.block_radix.tpb512.ipt16)

"$bin" list --plugin "$plugin" >"$tmp/list.txt" 2>&1 || { cat "$tmp/list.txt"; fail "sortbench list --plugin $plugin"; }
for label in "${labels[@]}"; do
  grep -qx "$label" "$tmp/list.txt" || fail "sortbench list --plugin does not list $label"
done
grep -q "^    from plugin $plugin\$" "$tmp/list.txt" || fail "sortbench list does not name the plugin file"
echo "ok: list --plugin names ${#labels[@]} variants"

SORTBENCH_PLUGIN_PATH=$plugin "$bin" list --variants 'example.*' >"$tmp/env.txt" 2>&1 \
  || { cat "$tmp/env.txt"; fail "SORTBENCH_PLUGIN_PATH=$plugin sortbench list"; }
for label in "${labels[@]}"; do
  grep -qx "$label" "$tmp/env.txt" || fail "SORTBENCH_PLUGIN_PATH: $label not listed"
done
echo "ok: SORTBENCH_PLUGIN_PATH loads it too"

"$bin" list --plugin "$plugin" --json >"$tmp/list.json" 2>"$tmp/json.err" \
  || { cat "$tmp/json.err"; fail "sortbench list --plugin $plugin --json"; }
"$py" - "$tmp/list.json" "$plugin" "${labels[@]}" <<'PY' || fail "sortbench list --plugin --json"
import json, sys
listing, plugin, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
variants = {v["label"]: v for v in json.load(open(listing))}
for label in labels:
    if label not in variants:
        sys.exit(f"{label} missing from the JSON listing")
    if variants[label].get("plugin") != plugin:
        sys.exit(f"{label}: \"plugin\" is {variants[label].get('plugin')!r}, expected {plugin!r}")
own = [l for l, v in variants.items() if v.get("plugin") and l not in labels]
if own:
    sys.exit(f"variants of the binary marked as from a plugin: {own[:3]}")
PY
echo "ok: list --json gives \"plugin\": $plugin for each"

# The docs' complete files (a block whose first line is "// file: NAME" or
# "# file: NAME", tools/doc_snippets.py): each document's blocks form a project
# that builds against the installed package, and the plugins they make load.
lines=$("$py" "$src/tools/doc_snippets.py" "$src" "$tmp/docs") || fail "tools/doc_snippets.py: $lines"
while read -r folder files; do
  [ -f "$folder/CMakeLists.txt" ] || fail "$folder ($files): a document's complete files need a CMakeLists.txt block to build them"
  name=$(basename "$folder")
  step "configure the complete files of $name ($files)" "$cmake" -S "$folder" -B "$folder/build" \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CXX_COMPILER="$cxx"
  step "build the complete files of $name" "$cmake" --build "$folder/build" -j2
  for so in "$folder"/build/*.so; do
    [ -e "$so" ] || continue
    "$bin" list --plugin "$so" >"$tmp/doc-list.txt" 2>&1 || { cat "$tmp/doc-list.txt"; fail "list --plugin $so"; }
    echo "ok: $name's plugin $(basename "$so") loads: $(grep -c "^    from plugin" "$tmp/doc-list.txt") variants"
  done
done <<<"$lines"
grep -qx "network.my_bitonic.tpb512" "$tmp/doc-list.txt" || fail "README's plugin does not list network.my_bitonic.tpb512"
