#!/usr/bin/env bash
# Shows that `sortbench compare` is right both ways on two real runs:
#
#   bash tools/ci_compare_demo.sh BASE.json NEW.json OUT_DIR [--check]
#
# 1. BASE against NEW as measured (two back-to-back runs: expect no regression)
#    -> OUT_DIR/compare.txt, compare.md, compare.exit
# 2. BASE against a copy of NEW with a 5 % slowdown planted in one variant's
#    samples (DEMO_VARIANT, default cub.radix_sort.off64, or cub.radix_sort when
#    NEW is an old report (schema version 1) without it; DEMO_FACTOR, default 1.05)
#    -> OUT_DIR/new-slow5.json, compare-slow5.txt, compare-slow5.md, compare-slow5.exit
# 3. Where Debian's libbenchmark-tools is installed, Google Benchmark's
#    compare.py on the gbench exports of the same two runs -> OUT_DIR/gbench-compare.txt
# --check: exit 1 unless (1) exits 0 with no SLOW point and (2) exits 1 with
# SLOW points of DEMO_VARIANT only.
# Environment: SORTBENCH (default build/sortbench), PYTHON (default /usr/bin/python3).
set -uo pipefail
if [ $# -lt 3 ]; then
  echo "usage: tools/ci_compare_demo.sh BASE.json NEW.json OUT_DIR [--check]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
base=$1 new=$2 out=$3 check=${4:-}
bin=${SORTBENCH:-$here/../build/sortbench}
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
if [ -n "${DEMO_VARIANT:-}" ]; then
  variant=$DEMO_VARIANT
else
  # The first of these labels that NEW has measured ok: new reports time CUB's
  # radix sort as cub.radix_sort.off32/.off64, old ones as cub.radix_sort.
  variant=$("$py" - "$new" <<'EOF'
import json, sys
try:
    with open(sys.argv[1]) as f:
        labels = {r.get("variant") for r in json.load(f).get("results", []) if r.get("status") == "ok"}
except (OSError, ValueError, AttributeError):
    labels = set()
print(next((v for v in ("cub.radix_sort.off64", "cub.radix_sort") if v in labels), "cub.radix_sort.off64"))
EOF
)
fi
factor=${DEMO_FACTOR:-1.05}
compare_py=${GBENCH_COMPARE_PY:-/usr/share/benchmark/compare.py}
mkdir -p "$out"

"$bin" compare "$base" "$new" --markdown "$out/compare.md" >"$out/compare.txt"
echo $? >"$out/compare.exit"
"$py" "$here/plant_slowdown.py" "$new" "$variant" "$factor" "$out/new-slow5.json" >/dev/null || exit 2
"$bin" compare "$base" "$out/new-slow5.json" --markdown "$out/compare-slow5.md" >"$out/compare-slow5.txt"
echo $? >"$out/compare-slow5.exit"

if [ -f "$compare_py" ]; then
  "$bin" export "$base" --format gbench --out "$out/base.gbench.json" 2>/dev/null &&
    "$bin" export "$new" --format gbench --out "$out/new.gbench.json" 2>/dev/null &&
    "$py" "$compare_py" --no-color benchmarks "$out/base.gbench.json" "$out/new.gbench.json" >"$out/gbench-compare.txt" 2>&1
  rm -f "$out/base.gbench.json" "$out/new.gbench.json"  # large; the compare output is what matters
fi

as_run=$(cat "$out/compare.exit")
planted=$(cat "$out/compare-slow5.exit")
echo "as measured:        exit $as_run: $(tail -n 1 "$out/compare.txt")"
echo "$variant x$factor: exit $planted: $(tail -n 1 "$out/compare-slow5.txt")"
[ "$check" = "--check" ] || exit 0

fails=0
if [ "$as_run" != 0 ] || grep -q '^SLOW ' "$out/compare.txt"; then
  echo "FAIL: the runs as measured should compare with exit 0 and no SLOW point"
  fails=1
fi
slow_lines=$(grep -c '^SLOW ' "$out/compare-slow5.txt")
# DEMO_VARIANT may be a glob (as plant_slowdown.py takes it): as a pattern over one label.
variant_re=$(printf '%s' "$variant" | sed -e 's/[].[\^$]/\\&/g' -e 's/\*/[^ ]*/g' -e 's/?/[^ ]/g')
other_slow=$(grep '^SLOW ' "$out/compare-slow5.txt" | grep -vc "^SLOW  *$variant_re ")
if [ "$planted" != 1 ] || [ "$slow_lines" = 0 ] || [ "$other_slow" != 0 ]; then
  echo "FAIL: the planted slowdown should give exit 1 and SLOW points of $variant only" \
    "(exit $planted, $slow_lines SLOW, $other_slow of other variants)"
  fails=1
fi
[ $fails = 0 ] && echo "ok: no regression as measured; planted slowdown reported SLOW with exit 1"
exit $fails
