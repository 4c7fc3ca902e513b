#!/usr/bin/env bash
# package.example_app_builds: examples/app, an application that links the
# installed library sortbench::sort, built against a temporary prefix with
# find_package(sortbench) (C++ only: no CUDA compiler). The application is
# left in OUT_DIR/build/sort_app for package.example_app_sorts to run on a GPU.
# Usage: example_app.sh CMAKE BUILD_DIR SOURCE_DIR CXX_COMPILER OUT_DIR
set -uo pipefail
cmake=$1 build_dir=$2 src=$3 cxx=$4 dir=$5
fail() { echo "FAIL: $*"; exit 1; }
step() {
  local what=$1; shift
  if ! "$@" >"$dir/step.log" 2>&1; then
    tail -n 30 "$dir/step.log"
    fail "$what failed: $*"
  fi
  echo "ok: $what"
}
rm -rf "$dir" && mkdir -p "$dir" || fail "cannot make $dir"
step "install into a temporary prefix" "$cmake" --install "$build_dir" --prefix "$dir/prefix"
lib=$(ls "$dir"/prefix/lib*/libsortbench_sort.so "$dir"/prefix/lib/*/libsortbench_sort.so 2>/dev/null | head -n 1)
[ -n "$lib" ] || fail "the install has no libsortbench_sort.so"
# The library exports its entry points and nothing of CUB or the CUDA runtime inside it.
exported=$(nm -DC --defined-only "$lib" | awk '$2 ~ /^[TWV]$/')
grep -q "sortbench::detail::sort(" <<<"$exported" || fail "$lib does not export sortbench::detail::sort"
if grep -E " (cuda[A-Z]|cub::|thrust::)" <<<"$exported" | head -n 3 | grep .; then fail "$lib exports the above"; fi
[ -f "$dir/prefix/share/sortbench/results/h200/best.json" ] || fail "the install has no share/sortbench/results/h200/best.json"
step "configure examples/app" "$cmake" -S "$src/examples/app" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$dir/prefix" -DCMAKE_CXX_COMPILER="$cxx"
step "build examples/app" "$cmake" --build "$dir/build"
[ -x "$dir/build/sort_app" ] || fail "no sort_app built"
# Without a GPU it says so and exits 0; with one, package.example_app_sorts checks its sorts.
echo "ok: examples/app built against $dir/prefix"
