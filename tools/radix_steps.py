#!/usr/bin/env python3
"""Turn a sortbench report of configs/radix-steps.json into a step-by-step
account of the radix family (PMPP ch. 13 and seeds 001/002): what each
optimisation bought at 2^24 and 2^28 keys, in GKeys/s and as a ratio to the
fastest CUB call on that workload (Python standard library only).

"vs fastest CUB" is CUB's median over the variant's, same workload, same run,
against the fastest CUB call measured there: a result's `vs["cub"]` (report
schema version 2, where CUB is measured as cub.radix_sort.off32 and .off64,
and maybe .double_buffer.off32/.off64), or for version 1 reports the smallest
of its `speedup` ratios over cub.* labels (there only cub.radix_sort). When
the reports hold more than one CUB label, each ratio names the call it is
against, by its label less "cub.radix_sort." (or less "cub."): `1.04x (off64)`.
Above each step table (when there are several CUB labels) a line names the
fastest CUB call at each size; below it, and below the "Every radix variant"
table, one reference row per CUB label measured (cub.radix_sort.off32,
.off64, .double_buffer.* forms; cub.merge_sort.* where measured) and one for
thrust.sort, each with its GKeys/s and its ratio to the fastest CUB call.

The last row of each step table is what `sortbench::sort` runs on that GPU:
the point the GPU's best.json (the tuner's pick per key type, value type and
size range; a CUB call where none of ours beat it) names for the workload,
as measured in the report. best.json is the one beside the first report, or
--best PATH; without one the row is left out. The test
tools.generated_markdown_is_current regenerates the committed tables from the
committed reports and best.json, so a new tune means a new table.

usage: tools/radix_steps.py REPORT.json [MORE.json ...] [--out PATH] [--sizes 24,28] [--best best.json]
Several reports (of one device) are merged; without --out the markdown goes
to results/<gpu-model>/radix-steps.md. Reads report schema versions 1 and 2.
"""
import argparse
import fnmatch
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_common as rc  # noqa: E402  (same folder, standard library only)

CUB = rc.CUB  # the baseline group: every cub.* call
THRUST = "thrust.sort"

# The optimisation steps in the order of the book. Each step is the best
# variant (highest GKeys/s at that point) among the labels its patterns match.
STEPS = [
    ("1-bit scatter, one thread per key", "000 PMPP 13.3 Fig. 13.4", ["radix.naive_scatter.*"]),
    ("shared-memory local sort, coalesced writes", "000 PMPP 13.4", ["radix.local_sort.*"]),
    ("r-bit digits, r successive 1-bit splits", "000 PMPP 13.5",
     ["radix.rbit.*.ipt1.*.split.*"]),
    ("r-bit digits, warp multisplit ranking", "000 PMPP 13.5, ranking method",
     ["radix.rbit.*.ipt1.*.match.*"]),
    ("thread coarsening (items per thread)", "000 PMPP 13.6",
     ["radix.rbit.*.split.three_launch.*", "radix.rbit.*.match.three_launch.*"]),
    ("single-pass bucket-table scan (decoupled look-back)", "001 scan strategy",
     ["radix.rbit.*.single_pass_lookback.*"]),
    ("Onesweep: one histogram pass, one ranking+look-back+scatter kernel per digit", "001 further reading",
     ["radix.onesweep.*"]),
]
TEACHING = ("base-10 radix, three kernels (corrected)", "002 sec. 5", ["radix.base10.*"])

DIST_ORDER = ["uniform", "entropy:0.544", "entropy:0.201", "sorted"]


def matches(label, patterns):
    return any(fnmatch.fnmatchcase(label, p) for p in patterns)


def log2(n):
    return n.bit_length() - 1 if n and n & (n - 1) == 0 else None


class Table:
    """Results indexed by (key, value, order, distribution, n) -> {variant: result}."""

    def __init__(self, results, globs):
        self.points = {}
        self.failed = []
        self.globs = globs
        # The CUB labels measured anywhere: reference rows, and whether ratios name their call.
        self.cub_labels = sorted({r["variant"] for r in results if r.get("status") == "ok"
                                  and rc.in_group(r["variant"], CUB) and rc.is_baseline(r["variant"], globs)},
                                 key=cub_label_order)
        for r in results:
            if r.get("status") == "failed":
                self.failed.append(r)
            if r.get("status") != "ok":
                continue
            k = (r["key"], r["value"], r.get("order", "ascending"), r["distribution"], r["n"])
            self.points.setdefault(k, {})[r["variant"]] = r

    def at(self, key, value, dist, n, order="ascending"):
        return self.points.get((key, value, order, dist, n), {})


def gk(r):
    return r.get("gkeys_per_s") if r else None


def cub_label_order(label):
    """cub.radix_sort forms first, the plain forms (off32, off64) before the
    longer ones (double_buffer.off32, ...), then by label."""
    return (rc.baseline_groups(label)[-1] != "cub.radix_sort", label.count("."), label)


def ratio_to_cub(r, point, tab):
    """(ratio, label of the fastest CUB call) for result r at this point."""
    if not r:
        return None, None
    ratio, label = rc.vs_group(r, CUB)
    if ratio:
        return ratio, label
    # No ratio in the report (a result from a report without CUB at this
    # point, when reports are merged): the fastest CUB call here, by GKeys/s.
    c = rc.fastest_baseline(point.values(), CUB, tab.globs)
    if c and gk(c) and gk(r):
        return gk(r) / gk(c), c["variant"]
    return None, None


def f_vs(tab, ratio_label):
    ratio, label = ratio_label
    if ratio is None:
        return "-"
    if len(tab.cub_labels) > 1 and label:
        return f"{ratio:.2f}x ({rc.short_cub(label)})"
    return f"{ratio:.2f}x"


def best(point, patterns):
    cands = [r for v, r in point.items() if matches(v, patterns) and gk(r)]
    return max(cands, key=gk) if cands else None


def f_gk(x):
    return "-" if x is None else (f"{x:.2f}" if x < 100 else f"{x:.0f}")


def f_ratio(x):
    return "-" if x is None else f"{x:.2f}x"


def class_of(best_json, key, dist):
    """The input class best.json's tune put a distribution in (its entries'
    "distributions", the key type's first), else spread, as best:FAMILY
    reads it (docs/tune.md "Input classes")."""
    entries = (best_json or {}).get("entries", [])
    for same_key in (True, False):
        for e in entries:
            if "class" in e and dist in e.get("distributions", []) and (not same_key or e.get("key") == key):
                return e["class"]
    return "spread"


def tuned_pick(best_json, key, value, n, order="ascending", input_class="spread"):
    """The variant best.json names for this workload and size, or None: an
    entry of the input class first, then one for every input."""
    found = None
    for e in (best_json or {}).get("entries", []):
        if (e.get("key"), e.get("value"), e.get("order", "ascending")) == (key, value, order) \
                and e.get("n_min", 0) <= n <= e.get("n_max", 0):
            if e.get("class") == input_class:
                return e.get("variant")
            if "class" not in e and found is None:
                found = e.get("variant")
    return found


def step_table(tab, key, value, dist, sizes, best_json=None):
    lines = []
    if len(tab.cub_labels) > 1:
        named = []
        for s in sizes:
            c = rc.fastest_baseline(tab.at(key, value, dist, 1 << s).values(), CUB, tab.globs)
            if c:
                named.append(f"`{c['variant']}` at 2^{s} ({f_gk(gk(c))} GKeys/s)")
        if named:
            lines += ["Fastest CUB call: " + ", ".join(named) + ".", ""]
    head = "| step | seed | " + " | ".join(
        f"best variant at 2^{s} | GKeys/s | vs fastest CUB | vs previous step" for s in sizes) + " |"
    lines.append(head)
    lines.append("|" + " --- |" * (2 + 4 * len(sizes)))
    prev = {s: None for s in sizes}
    rows = [(i + 1, *st) for i, st in enumerate(STEPS)] + [("-", *TEACHING)]
    any_data = False
    for num, name, seed, pats in rows:
        cells = [f"{num}. {name}" if num != "-" else f"({name})", seed]
        for s in sizes:
            point = tab.at(key, value, dist, 1 << s)
            r = best(point, pats)
            if r:
                any_data = True
            g = gk(r)
            gain = None
            if num != "-" and g and prev[s]:
                gain = g / prev[s]
            cells += [f"`{r['variant']}`" if r else "-", f_gk(g), f_vs(tab, ratio_to_cub(r, point, tab)),
                      f_ratio(gain) if num != "-" else ""]
            if num != "-" and g:
                prev[s] = g
        lines.append("| " + " | ".join(cells) + " |")
        if num == len(STEPS) and best_json:
            lines.append(tuned_row(tab, key, value, dist, sizes, best_json, prev))
    for ref in reference_labels(tab, key, value, dist, sizes):
        cells = [f"reference: {ref}", "-"]
        for s in sizes:
            point = tab.at(key, value, dist, 1 << s)
            r = point.get(ref)
            cells += [f"`{ref}`" if r else "-", f_gk(gk(r)), f_vs(tab, ratio_to_cub(r, point, tab)), ""]
        lines.append("| " + " | ".join(cells) + " |")
    return lines if any_data else []


def tuned_row(tab, key, value, dist, sizes, best_json, prev):
    """The final row: best.json's pick at each size, against the last step."""
    cells = ["**final: `sortbench::sort` (this GPU's best.json)**", "tuned"]
    for s in sizes:
        point = tab.at(key, value, dist, 1 << s)
        label = tuned_pick(best_json, key, value, 1 << s, input_class=class_of(best_json, key, dist))
        r = point.get(label) if label else None
        g = gk(r)
        cells += [f"`{label}`" if label else "- (not tuned)", f_gk(g), f_vs(tab, ratio_to_cub(r, point, tab)),
                  f_ratio(g / prev[s]) if g and prev[s] else "-"]
    return "| " + " | ".join(cells) + " |"


def reference_labels(tab, key, value, dist, sizes):
    """Each CUB label measured at one of these points (fastest-call order as
    cub_label_order), then thrust.sort; as before, thrust.sort and a single
    CUB label always get a row."""
    measured = {v for s in sizes for v in tab.at(key, value, dist, 1 << s)}
    cub = [v for v in tab.cub_labels if v in measured] or tab.cub_labels[:1] or ["cub.radix_sort"]
    return cub + [THRUST]


def all_variants_table(tab, key, value, dist, sizes, labels):
    lines = ["| variant | " + " | ".join(f"2^{s} GKeys/s | 2^{s} vs fastest CUB" for s in sizes) + " |",
             "|" + " --- |" * (1 + 2 * len(sizes))]
    refs = reference_labels(tab, key, value, dist, sizes)
    for v in list(labels) + refs:
        cells = [f"`{v}`" if v not in refs else f"reference: `{v}`"]
        have = False
        for s in sizes:
            point = tab.at(key, value, dist, 1 << s)
            r = point.get(v)
            have = have or bool(r)
            cells += [f_gk(gk(r)), f_vs(tab, ratio_to_cub(r, point, tab))]
        if have:
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--sizes", default="24,28", help="log2 sizes to show (default 24,28)")
    ap.add_argument("--best", help="the GPU's best.json (default: best.json beside the first report)")
    args = ap.parse_args()
    reports = []
    for path in args.report:
        with open(path) as f:
            reports.append(json.load(f))
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    ctx = reports[0].get("context", {})
    device = ctx.get("device", {})
    model = device["model"]  # sortbench writes the folder name of results/ here
    for rep in reports[1:]:
        other = rep.get("context", {}).get("device", {})
        if other.get("name") != device.get("name"):
            sys.exit(f"reports from different devices: {device.get('name')} and {other.get('name')}")
    results = [r for rep in reports for r in rep.get("results", [])]
    incomplete = [p for p, rep in zip(args.report, reports) if rep.get("complete") is False]
    globs = rc.baseline_globs(reports[0])
    for rep in reports[1:]:
        globs += [g for g in rc.baseline_globs(rep) if g not in globs]
    tab = Table(results, globs)
    best_path = args.best or os.path.join(os.path.dirname(args.report[0]), "best.json")
    best_json = None
    if os.path.exists(best_path):
        with open(best_path) as f:
            best_json = json.load(f)
        if best_json.get("gpu_model") not in (None, model):
            sys.exit(f"{best_path}: tuned on {best_json.get('gpu_model')}, the report is from {model}")
    elif args.best:
        sys.exit(f"--best: {args.best} does not exist")

    combos = sorted({(k[0], k[1]) for k in tab.points}, key=lambda kv: (kv[1] != "none", kv[0]))
    dists = sorted({k[3] for k in tab.points},
                   key=lambda d: (DIST_ORDER.index(d) if d in DIST_ORDER else len(DIST_ORDER), d))
    labels = sorted({r["variant"] for r in results if r["variant"].startswith("radix.")})

    out = []
    out.append("# The radix family step by step")
    out.append("")
    names = ", ".join(f"`{os.path.basename(p)}`" for p in args.report)
    out.append(f"Generated by `tools/radix_steps.py` from {names}.")
    for rep in reports:
        c = rep.get("context", {})
        if c.get("command_line"):
            cl = c["command_line"]
            out.append(f"Command: `{' '.join(cl) if isinstance(cl, list) else cl}`" +
                       (f", {c['timestamp']}" if c.get("timestamp") else "") + ".")
    if incomplete:
        out.append(f"Incomplete (interrupted) reports: {', '.join(incomplete)}.")
    if device:
        out.append(f"Device: {device.get('name', '?')}"
                   + (f", {device.get('sm_count')} SMs" if device.get('sm_count') else "")
                   + (f", copy bandwidth {device.get('copy_gb_per_s'):.0f} GB/s"
                      if isinstance(device.get('copy_gb_per_s'), (int, float)) else "") + ".")
    build = ctx.get("build", {})
    commit = build.get("git_commit") or build.get("commit") or build.get("git")
    if commit:
        out.append(f"Build: `{commit}`.")
    n_ok = sum(1 for r in results if r.get("status") == "ok")
    n_val = sum(1 for r in results if r.get("status") == "ok" and r.get("validation", {}).get("checked")
                and r["validation"].get("sorted") and r["validation"].get("permutation"))
    out.append(f"Results: {len(results)} points, {n_ok} ok ({n_val} of them validated sorted and a permutation), "
               f"{len(tab.failed)} failed, {sum(1 for r in results if r.get('status') == 'skipped')} skipped.")
    out.append("")
    out.append("Each step row is the fastest variant of that design at the point (its parameters are in the "
               "label); 'vs previous step' is its throughput over the row above. 'vs fastest CUB' is the ratio "
               "to the fastest CUB call measured on that workload in the same run (CUB's median over the "
               "variant's).")
    if best_json:
        prov = best_json.get("provenance") if isinstance(best_json.get("provenance"), dict) else {}
        source = f" (tuned in `{prov['report']}`)" if prov.get("report") else ""
        out.append(f"Final rows: what `sortbench::sort` runs, the pick of `{best_path}`{source} for the key type, "
                   "value type and size, measured in this run; 'vs previous step' there is against the last step.")
    if len(tab.cub_labels) > 1:
        out.append("CUB calls measured: " + ", ".join(f"`{v}`" for v in tab.cub_labels) + "; each ratio names "
                   "the one that was fastest there, e.g. " + f"`({rc.short_cub(tab.cub_labels[-1])})` = "
                   f"`{tab.cub_labels[-1]}`. The reference rows give each CUB call and thrust.sort with its "
                   "own ratio to the fastest.")
    elif tab.cub_labels:
        out.append(f"CUB call measured: `{tab.cub_labels[0]}`.")
    out.append("")

    for key, value in combos:
        for dist in dists:
            t = step_table(tab, key, value, dist, sizes, best_json)
            if not t:
                continue
            what = f"{key} keys" + ("" if value == "none" else f" + {value} values")
            out.append(f"## {what}, {dist}")
            out.append("")
            out += t
            out.append("")

    if labels:
        out.append("## Every radix variant, u32 keys, uniform")
        out.append("")
        out += all_variants_table(tab, "u32", "none", "uniform", sizes, labels)
        out.append("")

    if tab.failed:
        out.append("## Failed points")
        out.append("")
        for r in tab.failed:
            out.append(f"- `{r['variant']}` {r['key']}/{r['value']}/{r['distribution']} n={r['n']}: "
                       f"{r.get('reason') or r.get('validation', {}).get('message', '')}")
        out.append("")

    text = "\n".join(out)
    path = args.out or os.path.join("results", model, "radix-steps.md")
    if path == "-":
        sys.stdout.write(text)
        return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
