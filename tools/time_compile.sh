#!/usr/bin/env bash
# A compiler launcher (CMAKE_<LANG>_COMPILER_LAUNCHER) that records each
# translation unit's seconds: appends "object<TAB>wall<TAB>user<TAB>system" to
# $SORTBENCH_COMPILE_TIMES (default compile-times.tsv in the build folder).
# tools/compile_times.py makes docs/build-times.md's table from it.
out="" prev=""
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  prev=$a
done
exec /usr/bin/time -a -o "${SORTBENCH_COMPILE_TIMES:-$PWD/compile-times.tsv}" -f "$out	%e	%U	%S" "$@"
