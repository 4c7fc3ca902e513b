#!/usr/bin/env python3
"""Plants a slowdown in a copy of a sortbench report, to check that
`sortbench compare` catches it.

    python3 tools/plant_slowdown.py REPORT VARIANT FACTOR OUT [--noise PCT] [--seed S]

Every raw sample (time_ms.raw) of each ok result whose variant matches VARIANT
(a glob: 'cub.radix_sort.off64', 'cub.radix_sort*', 'cub.*', '*') is multiplied
by FACTOR (1.05: 5 % slower); the summary statistics, throughputs and speedups
are recomputed the way the harness computes them (against the baselines that
match the report's context.config.baselines globs; schema version 2 reports
also get `vs`, per workload and baseline group the fastest baseline), and the
context records what was planted.
--noise PCT multiplies every sample of every result by 1 + N(0, PCT/100)
(seeded) to make a noisy copy instead of, or on top of, the slowdown.
"""
import argparse
import fnmatch
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_common as rc  # noqa: E402  (same folder, standard library only)


def quantile(sorted_values, q):
    # Linear interpolation between order statistics (harness/src/stats.cpp).
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (pos - lo) * (sorted_values[hi] - sorted_values[lo])


def summarize(samples):
    v = sorted(samples)
    n = len(v)
    mean = sum(v) / n if n else 0.0
    stdev = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
    return {
        "samples": n,
        "median": quantile(v, 0.5),
        "mean": mean,
        "min": v[0] if v else 0.0,
        "max": v[-1] if v else 0.0,
        "stdev": stdev,
        "q1": quantile(v, 0.25),
        "q3": quantile(v, 0.75),
        "rel_stderr": stdev / math.sqrt(n) / mean if n > 1 and mean > 0 else 0.0,
        "raw": list(samples),
    }


def recompute_speedups(report):
    """speedup (and vs, for schema version 2 or where the report has it) as
    harness/src/report.cpp's compute_speedups, against the labels matching
    context.config.baselines (globs; default cub.* and thrust.*)."""
    with_vs = rc.schema_version(report) >= 2 or any("vs" in r for r in report["results"])
    rc.compute_speedups(report["results"], rc.baseline_globs(report), with_vs=with_vs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("variant", help="variant label glob, e.g. cub.radix_sort.off64 or 'cub.*'")
    ap.add_argument("factor", type=float, help="multiplies the matched samples: 1.05 is 5 %% slower")
    ap.add_argument("out")
    ap.add_argument("--noise", type=float, default=0.0, help="per-sample noise on every result, in percent")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not args.factor > 0:
        sys.exit(f"plant_slowdown.py: factor {args.factor} must be positive")
    try:
        with open(args.report) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"plant_slowdown.py: {args.report}: cannot read the report: {e}")
    if not isinstance(report, dict) or report.get("schema") != "sortbench-report":
        sys.exit(f"plant_slowdown.py: {args.report}: not a sortbench report")

    rng = random.Random(args.seed)
    matched = 0
    for r in report["results"]:
        if r["status"] != "ok":
            continue
        hit = fnmatch.fnmatchcase(r["variant"], args.variant)
        factor = args.factor if hit else 1.0
        if not hit and args.noise == 0:
            continue
        matched += hit
        raw = []
        for x in r["time_ms"]["raw"]:
            jitter = 1.0 + rng.gauss(0.0, args.noise / 100.0) if args.noise else 1.0
            raw.append(x * factor * jitter)
        old_median = r["time_ms"]["median"]
        r["time_ms"] = summarize(raw)
        ratio = old_median / r["time_ms"]["median"] if r["time_ms"]["median"] > 0 else 1.0
        for field in ("gkeys_per_s", "gb_per_s", "fraction_of_copy_bw"):
            r[field] = r[field] * ratio
    if matched == 0 and args.factor != 1.0:
        sys.exit(f"plant_slowdown.py: no ok result of {args.report} matches variant '{args.variant}'")
    recompute_speedups(report)
    report.setdefault("context", {})["planted"] = {
        "source": args.report, "variant": args.variant, "factor": args.factor,
        "noise_percent": args.noise, "seed": args.seed, "results_changed": matched}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(f"plant_slowdown.py: {matched} results of '{args.variant}' x{args.factor}"
          + (f", {args.noise}% noise on all" if args.noise else "") + f" -> {args.out}")


if __name__ == "__main__":
    main()
