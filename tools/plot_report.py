#!/usr/bin/env python3
"""Plots of a sortbench report (matplotlib, Agg backend: no display needed).

    python3 tools/plot_report.py REPORT --out-dir DIR [--n N] [--heatmap VARIANT_GLOB]
                                 [--heatmap-workload u32/none/uniform]

writes into DIR:
  throughput-<key>-<value>-<distribution>.png  GKeys/s against n, one line per
        variant; dashed reference lines: CUB's fastest call at each n (the
        legend names the calls that were fastest) and Thrust (thrust.sort); one
        figure per key/value/distribution workload group
  energy-<key>-<value>-<distribution>.png  GKeys/J (keys sorted per joule of
        one sort) against n, drawn as the throughput figures; only for groups
        with energy measured (schema version 3), so none for older reports
  heatmap.png   GKeys/s over radix bits x items per thread at one n, for the
        variants matching --heatmap (default: the variant family with the most
        such points); a "no data" figure when the report has none
  speedup.png   speedup against the fastest CUB call at one n (default: the
        largest measured), one bar per variant and workload group; each group's
        tick label names the CUB call it is against

"The fastest CUB call" is, per workload, the fastest baseline whose label
starts with "cub." (schema version 2: cub.radix_sort.off32/.off64,
cub.merge_sort.off32/.off64, ...; version 1: cub.radix_sort, cub.merge_sort),
as tools/report_common.py's vs_group and fastest_baseline find it.

tools/report_html.py puts the same figures into one self-contained HTML page.
"""
import argparse
import fnmatch
import io
import json
import math
import os
import sys
from collections import OrderedDict, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_common as rc  # noqa: E402  (same folder)
from report_common import size_text  # noqa: E402

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:  # the Debian package; a pyenv or venv python may lack it
    sys.exit("plot_report.py: matplotlib is missing for " + sys.executable +
             "; run tools/setup.sh (python3-matplotlib) and use /usr/bin/python3")

CUB = rc.CUB  # the baseline group "cub": speedups are against its fastest call
THRUST = "thrust.sort"
# CUB and Thrust usually coincide (thrust.sort dispatches to CUB): thick dashed
# under thin dotted keeps both visible.
CUB_STYLE = ("CUB, fastest call at each n", "black", "--", 3.0, "s")
THRUST_STYLE = ("Thrust sort", "tab:red", ":", 2.0, "^")
MAX_LINES = 12  # more variants than this per figure: the fastest of each family are drawn


class ReportError(Exception):
    pass


def load_report(path):
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: cannot read the report: {e}")
    if not isinstance(report, dict) or report.get("schema") != "sortbench-report":
        raise ReportError(f"{path}: not a sortbench report (expected \"schema\": \"sortbench-report\")")
    return report


def ok_results(report):
    return [r for r in report.get("results", []) if r.get("status") == "ok"]


def group_key(r):
    return (r["key"], r["value"], r["order"], r["distribution"], r["seed"])


def group_title(g):
    key, value, order, dist, seed = g
    title = f"{key} keys" if value == "none" else f"{key}+{value} pairs"
    if order == "descending":
        title += ", descending"
    title += f", {dist}"
    if seed != 1:
        title += f", seed {seed}"
    return title


def group_slug(g):
    key, value, order, dist, seed = g
    parts = [key, value] + (["desc"] if order == "descending" else []) + [dist] + ([f"seed{seed}"] if seed != 1 else [])
    return "-".join(p.replace(":", "") for p in parts)


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0.0


def figure_png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    # A palette of 256 colours holds every line, marker and the heatmap's
    # colormap; it makes the PNGs (and the page that embeds them) about a
    # quarter of their RGBA size.
    from PIL import Image
    buf.seek(0)
    out = io.BytesIO()
    Image.open(buf).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                            dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def no_data_figure(title, message):
    fig, ax = plt.subplots(figsize=(7, 2.2))
    ax.axis("off")
    ax.set_title(title)
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=11, color="dimgray", wrap=True)
    return fig


def pick_lines(by_variant, skip=(), y=lambda r: r["gkeys_per_s"]):
    """The variants to draw besides the references (thrust.sort and the labels
    in `skip`): all when few, else the best (geomean of y, GKeys/s by default)
    of each family up to MAX_LINES."""
    others = [v for v in by_variant if v != THRUST and v not in skip]
    if len(others) <= MAX_LINES:
        return sorted(others), 0
    best = {}
    for v in others:
        family = v.split(".")[0]
        score = geomean([y(r) for r in by_variant[v]])
        if family not in best or score > best[family][0]:
            best[family] = (score, v)
    chosen = sorted(best.values(), reverse=True)[:MAX_LINES]
    return sorted(v for _, v in chosen), len(others) - len(chosen)


def per_n_figures(report, y, ylabel, slug, what, worse="slower", title_head="", unmeasured_text=""):
    """[(slug-group, title, png bytes, caption)], one per workload group with
    a point where y(r) is not None; y(r) of each ok result against n."""
    groups = OrderedDict()
    for r in ok_results(report):
        groups.setdefault(group_key(r), defaultdict(list))[r["variant"]].append(r)
    out = []
    device = report.get("context", {}).get("device", {}).get("name", "")
    globs = rc.baseline_globs(report)
    for g, by_variant in groups.items():
        # The fastest CUB call at each n: one dashed line. A CUB label that is
        # that call at every n of the group is drawn only as the dashed line.
        # Fastest by time over every ok point, as the throughput figure.
        by_n = defaultdict(list)
        for rs in by_variant.values():
            for r in rs:
                by_n[r["n"]].append(r)
        cub_best = sorted((b for b in (rc.fastest_baseline(rs, CUB, globs) for rs in by_n.values()) if b),
                          key=lambda r: r["n"])
        cub_names = sorted({r["variant"] for r in cub_best})
        best_at = {b["n"]: b["variant"] for b in cub_best}
        always_fastest = {v for v in cub_names if all(best_at.get(r["n"]) == v for r in by_variant[v])}
        shown = {v: [r for r in rs if y(r) is not None] for v, rs in by_variant.items()}
        shown = {v: rs for v, rs in shown.items() if rs}
        cub_best = [r for r in cub_best if y(r) is not None]
        cub_names = sorted({r["variant"] for r in cub_best})  # those drawn
        if not shown:
            continue
        fig, ax = plt.subplots(figsize=(11, 4.8))
        lines, omitted = pick_lines(shown, skip=always_fastest, y=y)
        cmap = plt.get_cmap("tab10" if len(lines) <= 10 else "tab20")
        for i, v in enumerate(lines):
            pts = sorted(shown[v], key=lambda r: r["n"])
            ax.plot([r["n"] for r in pts], [y(r) for r in pts], marker="o", ms=4, lw=1.6,
                    color=cmap(i % cmap.N), label=v)
        refs = []
        if cub_best:
            refs.append((cub_best, CUB_STYLE, ", ".join(cub_names)))
        if THRUST in shown:
            refs.append((sorted(shown[THRUST], key=lambda r: r["n"]), THRUST_STYLE, THRUST))
        for z, (pts, (label, color, style, width, marker), names) in enumerate(refs):
            ax.plot([r["n"] for r in pts], [y(r) for r in pts], ls=style, lw=width, color=color,
                    marker=marker, ms=5, label=f"{label} ({names})", zorder=5 + z)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("n (keys)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{title_head}{group_title(g)}" + (f" on {device}" if device else ""))
        ax.grid(True, which="major", alpha=0.3)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the axes: never over the lines
        caption = (f"{what} against n, {group_title(g)}: {len(lines)} variant(s); dashed: the fastest CUB call "
                   f"at each n ({', '.join(cub_names) or 'none measured'}) and Thrust ({THRUST})")
        if omitted:
            caption += f"; {omitted} {worse} variant(s) of the same families not drawn"
        unmeasured = sum(len(rs) for rs in by_variant.values()) - sum(len(rs) for rs in shown.values())
        if unmeasured:
            caption += f"; {unmeasured} {unmeasured_text}"
        out.append((f"{slug}-{group_slug(g)}", title_head + group_title(g), figure_png(fig), caption))
    return out


def throughput_figures(report):
    """[(slug, title, png bytes, caption)], one per workload group."""
    return per_n_figures(report, lambda r: r["gkeys_per_s"], "GKeys/s (higher is better)", "throughput",
                         "Throughput")


def energy_figures(report):
    """As throughput_figures, GKeys/J from each result's energy (schema
    version 3); none where no point's energy was measured."""
    return per_n_figures(report, lambda r: rc.gkeys_per_joule(r)[0], "GKeys/J (higher is better)", "energy",
                         "Keys sorted per joule of one sort (NVML's energy counter)", "less efficient",
                         "Energy: ", "point(s) whose energy was not measured not drawn")


def parse_int(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def heatmap_figure(report, n=None, variant_glob=None, workload="u32/none/uniform"):
    """(title, png bytes, caption): GKeys/s over radix_bits x items_per_thread."""
    key, value, dist = (workload.split("/") + ["", "", ""])[:3]
    tunable = [r for r in ok_results(report)
               if parse_int(r.get("params", {}).get("radix_bits")) is not None
               and parse_int(r.get("params", {}).get("items_per_thread")) is not None]
    title = "Radix bits x items per thread"
    if not tunable:
        return title, figure_png(no_data_figure(title, "no data: no result in this report has the params "
                                                       "radix_bits and items_per_thread")), \
            "no data: the report has no result with radix_bits and items_per_thread params"
    if variant_glob is None:
        # The variant family (label up to the params) with the most distinct points.
        counts = defaultdict(set)
        for r in tunable:
            method = ".".join(r["variant"].split(".")[:2])
            counts[method].add((r["params"]["radix_bits"], r["params"]["items_per_thread"]))
        variant_glob = max(counts, key=lambda m: len(counts[m])) + "*"
    chosen = [r for r in tunable if fnmatch.fnmatchcase(r["variant"], variant_glob)
              and r["key"] == key and r["value"] == value and r["distribution"] == dist]
    if n is None and chosen:
        n = max(r["n"] for r in chosen)
    chosen = [r for r in chosen if r["n"] == n]
    title = f"{variant_glob}: radix bits x items per thread, {key}/{value} {dist}, n={size_text(n) if n else '?'}"
    if not chosen:
        return title, figure_png(no_data_figure(title, f"no data for {variant_glob} on {workload} at n={n}")), \
            f"no data for {variant_glob} on {workload}"
    best = {}  # (rb, ipt) -> best GKeys/s over the other params (block threads, ...)
    for r in chosen:
        cell = (parse_int(r["params"]["radix_bits"]), parse_int(r["params"]["items_per_thread"]))
        best[cell] = max(best.get(cell, 0.0), r["gkeys_per_s"])
    bits = sorted({c[0] for c in best})
    ipts = sorted({c[1] for c in best})
    grid = [[best.get((b, i), float("nan")) for i in ipts] for b in bits]
    fig, ax = plt.subplots(figsize=(1.1 * len(ipts) + 3, 0.7 * len(bits) + 2))
    im = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
    ax.set_xticks(range(len(ipts)), [str(i) for i in ipts])
    ax.set_yticks(range(len(bits)), [str(b) for b in bits])
    ax.set_xlabel("items per thread")
    ax.set_ylabel("radix bits")
    ax.set_title(title, fontsize=10)
    finite = [v for row in grid for v in row if not math.isnan(v)]
    lo, hi = min(finite), max(finite)
    for y, row in enumerate(grid):
        for x, v in enumerate(row):
            if not math.isnan(v):  # dark text on viridis' light end, light text on its dark end
                light_cell = hi > lo and (v - lo) / (hi - lo) > 0.55
                ax.text(x, y, f"{v:.2f}", ha="center", va="center", fontsize=8,
                        color="black" if light_cell else "white")
    fig.colorbar(im, ax=ax, label="GKeys/s (best over other params)")
    return title, figure_png(fig), (f"GKeys/s of {variant_glob} at n={size_text(n)}, {key}/{value} {dist}; "
                                    f"each cell the best over the other params; blank: not measured")


def speedup_figure(report, n=None):
    """(title, png bytes, caption): speedup against the fastest CUB call at one n."""
    results = [r for r in ok_results(report) if rc.vs_group(r, CUB)[0]]
    if n is None and results:
        n = max(r["n"] for r in results)
    results = [r for r in results if r["n"] == n]
    # A CUB call that is the fastest one in every group is the 1.0 line itself: no bars.
    against = defaultdict(set)
    for r in results:
        against[r["variant"]].add(rc.vs_group(r, CUB)[1] == r["variant"])
    results = [r for r in results if against[r["variant"]] != {True}]
    title = f"Speedup against the fastest CUB call at n={size_text(n) if n else '?'}"
    if not results:
        return title, figure_png(no_data_figure(title, "no data: no variant measured beside the fastest CUB call")), \
            "no data"
    groups = list(OrderedDict.fromkeys(group_key(r) for r in results))
    by_variant = defaultdict(dict)
    fastest = {}  # group -> the CUB call the ratios are against
    for r in results:
        ratio, label = rc.vs_group(r, CUB)
        by_variant[r["variant"]][group_key(r)] = ratio
        fastest.setdefault(group_key(r), set()).add(label)
    variants = sorted(by_variant, key=lambda v: -geomean(list(by_variant[v].values())))
    omitted = max(0, len(variants) - 15)
    variants = variants[:15]
    width = 0.8 / len(variants)
    fig, ax = plt.subplots(figsize=(max(8, 1.2 * len(groups) + 2), 4.8))
    cmap = plt.get_cmap("tab10" if len(variants) <= 10 else "tab20")
    for i, v in enumerate(variants):
        xs = [gi + (i - (len(variants) - 1) / 2) * width for gi in range(len(groups))]
        ys = [by_variant[v].get(g, 0.0) for g in groups]
        ax.bar(xs, ys, width=width * 0.95, label=v, color=cmap(i % cmap.N))
    ax.axhline(1.0, color="black", ls="--", lw=1.5, label="the fastest CUB call = 1")
    ax.set_xticks(range(len(groups)), [group_title(g).replace(", ", "\n") + "\nvs " +
                                       "/".join(rc.short_cub(v) for v in sorted(fastest[g])) for g in groups],
                  fontsize=8)
    ax.set_ylabel("speedup vs the fastest CUB call (higher is better)")
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=2 if len(variants) > 6 else 1, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    caption = (f"{title}: the median of the fastest CUB call on that workload over the variant's, same run; "
               "fastest CUB call: " +
               "; ".join(f"{group_title(g)}: {', '.join(sorted(fastest[g]))}" for g in groups))
    if omitted:
        caption += f"; {omitted} variant(s) with the lowest geomean speedup not drawn"
    return title, figure_png(fig), caption


def all_figures(report, n=None, heatmap_glob=None, heatmap_workload="u32/none/uniform"):
    """[(slug, title, png, caption)] in the order a page shows them."""
    figs = throughput_figures(report) + energy_figures(report)
    title, png, caption = speedup_figure(report, n)
    figs.append(("speedup", title, png, caption))
    title, png, caption = heatmap_figure(report, n, heatmap_glob, heatmap_workload)
    figs.append(("heatmap", title, png, caption))
    return figs


def add_common_args(ap):
    ap.add_argument("report", help="a sortbench report (JSON)")
    ap.add_argument("--n", type=int, default=None, help="size for the speedup bars and the heatmap (default: largest)")
    ap.add_argument("--heatmap", default=None, metavar="VARIANT_GLOB",
                    help="variants for the radix bits x items per thread heatmap, e.g. 'radix.onesweep.*'")
    ap.add_argument("--heatmap-workload", default="u32/none/uniform", metavar="KEY/VALUE/DIST")


def main():
    ap = argparse.ArgumentParser(description="Plots of a sortbench report as PNG files.")
    add_common_args(ap)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    try:
        report = load_report(args.report)
    except ReportError as e:
        print(f"plot_report.py: {e}", file=sys.stderr)
        sys.exit(2)
    os.makedirs(args.out_dir, exist_ok=True)
    for slug, _, png, _ in all_figures(report, args.n, args.heatmap, args.heatmap_workload):
        path = os.path.join(args.out_dir, slug + ".png")
        with open(path, "wb") as f:
            f.write(png)
        print(path)


if __name__ == "__main__":
    main()
