#!/usr/bin/env python3
"""The compile time of every translation unit, as a markdown table.

tools/time_compile.sh, set as the compiler launcher, appends one line per
object (object, wall s, user s, system s) to the build folder's
compile-times.tsv:

  cmake --preset default -B build-timed \\
        -DCMAKE_CUDA_COMPILER_LAUNCHER=$PWD/tools/time_compile.sh \\
        -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/tools/time_compile.sh
  cmake --build build-timed -j2
  python3 tools/compile_times.py build-timed/compile-times.tsv > table.md

The table is sorted by CPU seconds (user + system: the compiler's own work,
which other jobs on the machine do not change), with the wall seconds beside.
"""
import argparse
import os
import sys


def read(path):
    rows = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 4:
                sys.exit(f"{path}:{n}: expected object, wall, user, system seconds separated by tabs")
            obj, wall, user, system = parts
            try:
                rows[obj] = (float(wall), float(user) + float(system))  # a rebuilt object: its last compile
            except ValueError:
                sys.exit(f"{path}:{n}: seconds are not numbers")
    return rows


def source_of(obj):
    """CMakeFiles/sortbench_variants.dir/variants/radix/x.cu.o -> variants/radix/x.cu"""
    name = obj
    if ".dir/" in name:
        target, name = name.split(".dir/", 1)
        if name.startswith("Unity/"):  # a unity batch: name its target
            name = f"{target.rsplit('/', 1)[-1]} {name}"
    return name[:-2] if name.endswith(".o") else name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tsv", help="compile-times.tsv of a build folder")
    ap.add_argument("--top", type=int, default=0, help="only the N slowest (default: all)")
    a = ap.parse_args()
    if not os.path.isfile(a.tsv):
        sys.exit(f"{a.tsv}: no such file (build with tools/time_compile.sh as the compiler launcher)")
    rows = sorted(read(a.tsv).items(), key=lambda kv: -kv[1][1])
    total_cpu = sum(cpu for _, (_, cpu) in rows)
    shown = rows[: a.top] if a.top else rows
    print("| translation unit | CPU s | wall s | share of CPU |")
    print("| --- | ---: | ---: | ---: |")
    for obj, (wall, cpu) in shown:
        print(f"| `{source_of(obj)}` | {cpu:.1f} | {wall:.1f} | {100 * cpu / total_cpu:.1f} % |")
    print(f"| **all {len(rows)}** | **{total_cpu:.1f}** | | |")


if __name__ == "__main__":
    main()
