#!/usr/bin/env python3
"""One self-contained HTML page per sortbench report: the run's context, the
summary per workload (as `sortbench run` prints it: the fastest of ours, the
fastest library call, who won by how much, and ours against the fastest CUB
call), the plots of tools/plot_report.py embedded as base64 PNG, and every
result with its ratio to the fastest CUB call on its workload (named).
"Ours" are the results whose label matches none of the report's baseline
globs (context.config.baselines). Reads report schema versions 1 to 3;
where results carry `energy` (version 3), GKeys/J stands beside GKeys/s and
the run's section gives each GPU's idle draw and power limit.

    python3 tools/report_html.py results/h200/quick.json --out results/h200/quick.html
        [--n N] [--heatmap VARIANT_GLOB] [--heatmap-workload KEY/VALUE/DIST] [--png-dir DIR]

--png-dir also writes the figures as PNG files (for a README).
Bad input (unreadable, not a report): one line naming the file, exit 2.
"""
import argparse
import base64
import html
import json
import math
import os
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_report as pr  # noqa: E402  (same folder)
import report_common as rc  # noqa: E402  (same folder)

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1200px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f4f4f4; }
tr.failed td { background: #fde2e2; } tr.skipped td { color: #888; }
figure { margin: 1em 0; } figcaption { font-size: 0.85em; color: #555; }
img { max-width: 100%; border: 1px solid #eee; }
code { background: #f4f4f4; padding: 0 3px; }
.bad { color: #b00020; font-weight: bold; } .good { color: #1b7f3b; }
"""


def esc(v):
    return html.escape(str(v))


def fmt(v, digits=3):
    return f"{v:.{digits}f}" if isinstance(v, (int, float)) else esc(v)


def table(headers, rows, numeric=(), row_classes=None):
    out = ["<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in headers) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        cells = "".join(f'<td class="num">{c}</td>' if j in numeric else f"<td>{c}</td>" for j, c in enumerate(row))
        out.append(f"<tr{cls}>{cells}</tr>")
    out.append("</table>")
    return "\n".join(out)


def energy_cell(r):
    """GKeys/J of r, or an em dash whose tooltip says why it was not measured."""
    v, why = rc.gkeys_per_joule(r)
    return fmt(v, 4) if v is not None else f'<span title="{esc(why)}">&mdash;</span>'


def counter_text(e):
    if not isinstance(e, dict):
        return "not recorded"
    if not e.get("counter"):
        return f"not readable: {e.get('missing', '?')}"
    return f"readable; idle {e.get('idle_w', 0):.1f} W, power limit {e.get('power_limit_w', 0):.0f} W"


def workload_text(r):
    return f"{pr.group_title(pr.group_key(r))}, n={pr.size_text(r['n'])}"


def context_section(report, path):
    ctx = report.get("context", {})
    dev, build, cfg = ctx.get("device", {}), ctx.get("build", {}), ctx.get("config", {})
    rows = [
        ("report", f"<code>{esc(path)}</code>" + ("" if report.get("complete", True)
                                                   else ' <span class="bad">incomplete</span>')),
        ("GPU", esc(f"{dev.get('name', '?')} ({dev.get('sm_count', '?')} SMs, CC {dev.get('compute_capability', '?')}, "
                    f"SM clock peak {dev.get('sm_clock_peak_mhz', '?')} MHz, copy "
                    f"{dev.get('copy_gb_per_s', 0):.0f} GB/s)")),
        ("driver / runtime / CCCL", esc(f"{dev.get('driver_version', '?')} / {dev.get('runtime_version', '?')} / "
                                        f"{dev.get('cccl_version', '?')}")),
        ("build", esc(f"{build.get('version', '?')}, commit {str(build.get('git_commit', '?'))[:10]}"
                      f"{' (dirty)' if build.get('git_dirty') else ''}, {build.get('build_type', '?')}, "
                      f"sm_{build.get('cuda_architectures', '?')}, {build.get('cuda_compiler', '')}")),
        ("when / host", esc(f"{ctx.get('timestamp', '?')} on {ctx.get('host', {}).get('hostname', '?')}")),
        ("command", f"<code>{esc(ctx.get('command_line', ''))}</code>"),
        ("config", esc(f"{cfg.get('name', '?')} ({cfg.get('source', '')}); measure "
                       f"{json.dumps(cfg.get('measure', {}), sort_keys=True)}")),
    ]
    # Version 3: NVML's energy counter, per GPU where the run spanned several.
    devices = ctx.get("devices") if isinstance(ctx.get("devices"), list) else []
    if len(devices) > 1 and any("energy" in d for d in devices):
        rows.append(("energy counter (NVML)", "<br>".join(
            esc(f"GPU {d.get('ordinal', i)}: {counter_text(d.get('energy'))}") for i, d in enumerate(devices))))
    elif "energy" in dev:
        rows.append(("energy counter (NVML)", esc(counter_text(dev["energy"]))))
    if "planted" in ctx:
        rows.append(("planted", f'<span class="bad">{esc(ctx["planted"])}</span>'))
    return "<h2>Run</h2>\n" + table(["", ""], rows)


def won_by(ours, library):
    """As `sortbench run`'s summary: "ours 1.04x", "library 1.06x", or
    "tie (1.00x)" when |ln ratio| <= 2 sqrt(rse_ours^2 + rse_library^2)."""
    ratio = library["time_ms"]["median"] / ours["time_ms"]["median"]
    e = math.hypot(ours["time_ms"].get("rel_stderr", 0.0), library["time_ms"].get("rel_stderr", 0.0))
    if abs(math.log(ratio)) <= 2 * e:
        return f"tie ({ratio:.2f}x)"
    if ratio > 1:
        return f"ours {ratio:.2f}x"
    return f"library {1 / ratio:.2f}x"


def vs_text(r, group=rc.CUB):
    """'1.04x (cub.radix_sort.off64)': r against the fastest call of group."""
    ratio, label = rc.vs_group(r, group)
    return f"{ratio:.2f}x (<code>{esc(label)}</code>)" if ratio else "-"


def summary_section(report):
    """Per workload, the summary table `sortbench run` prints: the fastest of
    ours, the fastest library call (baseline), who won by how much; then ours
    against the fastest CUB call, and the failed/skipped counts."""
    globs = rc.baseline_globs(report)
    energy = rc.has_energy(report)
    rows, classes = [], []
    by_workload = OrderedDict()
    for r in report.get("results", []):
        by_workload.setdefault(rc.workload_key(r), []).append(r)
    for rs in by_workload.values():
        ours = library = None
        for r in rs:
            if r["status"] != "ok":
                continue
            if rc.is_baseline(r["variant"], globs):
                if library is None or r["time_ms"]["median"] < library["time_ms"]["median"]:
                    library = r
            elif ours is None or r["time_ms"]["median"] < ours["time_ms"]["median"]:
                ours = r
        failed = sum(r["status"] == "failed" for r in rs)
        skipped = sum(r["status"] == "skipped" for r in rs)
        verdict = "-"
        if ours and library:
            verdict = esc(won_by(ours, library))
        row = [esc(workload_text(rs[0])),
               f"<code>{esc(ours['variant'])}</code>" if ours else "-",
               fmt(ours["gkeys_per_s"], 2) if ours else "-",
               f"<code>{esc(library['variant'])}</code>" if library else "-",
               fmt(library["gkeys_per_s"], 2) if library else "-",
               verdict, vs_text(ours) if ours else "-", f"{failed}/{skipped}"]
        if energy:
            row.insert(5, energy_cell(library) if library else "-")
            row.insert(3, energy_cell(ours) if ours else "-")
        rows.append(row)
        classes.append("failed" if failed else "")
    headers = ["workload", "fastest of ours", "GKeys/s", "fastest library call", "GKeys/s", "won by",
               "ours vs the fastest CUB call", "failed/skipped"]
    numeric = (2, 4, 7)
    note = ""
    if energy:
        headers = headers[:3] + ["GKeys/J"] + headers[3:5] + ["GKeys/J"] + headers[5:]
        numeric = (2, 3, 5, 6, 9)
        note = (" GKeys/J: keys sorted per joule of one sort, from NVML's energy counter; "
                "&mdash; where the point's energy was not measured (its tooltip says why).")
    return ("<h2>Fastest of ours and fastest library call per workload</h2>\n"
            "<p>Ours: the variants whose label matches none of the baseline globs " +
            ", ".join(f"<code>{esc(g)}</code>" for g in globs) + ". Won by: the slower median over the faster; "
            "a tie when the medians differ by at most twice their combined relative standard error. "
            "Ours vs the fastest CUB call: CUB's fastest call on that workload (named) over ours." + note + "</p>\n" +
            table(headers, rows, numeric=numeric, row_classes=classes))


def problems_section(report):
    bad = [r for r in report.get("results", []) if r["status"] != "ok"]
    if not bad:
        return '<p class="good">Every point validated: none failed, none skipped.</p>'
    rows = [[esc(r["status"]), f"<code>{esc(r['variant'])}</code>", esc(workload_text(r)),
             esc(r.get("reason", "") or r.get("validation", {}).get("message", ""))] for r in bad]
    classes = [r["status"] for r in bad]
    n_failed = sum(r["status"] == "failed" for r in bad)
    head = f'<h2>Failed and skipped points</h2>\n<p><span class="{"bad" if n_failed else ""}">' \
           f'{n_failed} failed validation</span>, {len(bad) - n_failed} skipped.</p>\n'
    return head + table(["status", "variant", "workload", "reason"], rows, row_classes=classes)


def results_section(report):
    energy = rc.has_energy(report)
    rows, classes = [], []
    for r in report.get("results", []):
        params = " ".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
        if r["status"] == "ok":
            t = r["time_ms"]
            rows.append([f"<code>{esc(r['variant'])}</code>", esc(params), esc(workload_text(r)), "ok",
                         fmt(t["median"], 4), fmt(100 * t["stdev"] / t["mean"] if t["mean"] else 0, 2),
                         str(t["samples"]), fmt(r["gkeys_per_s"], 2)] + ([energy_cell(r)] if energy else []) +
                        [fmt(r["gb_per_s"], 1), vs_text(r), fmt(r.get("sm_clock_mhz", 0), 0)])
            classes.append("")
        else:
            rows.append([f"<code>{esc(r['variant'])}</code>", esc(params), esc(workload_text(r)), esc(r["status"]),
                         "-", "-", "-", "-", "-", "-", "-"] + (["-"] if energy else []))
            classes.append(r["status"])
    n = len(rows)
    headers = ["variant", "params", "workload", "status", "median ms", "stdev %", "samples", "GKeys/s", "GB/s",
               "vs the fastest CUB call", "SM MHz"]
    if energy:
        headers.insert(8, "GKeys/J")
    return (f"<h2>All results</h2>\n<details><summary>{n} points (median of the raw samples; "
            f"cold L2 unless the config says hot)</summary>\n" +
            table(headers, rows, numeric=tuple(range(4, len(headers))), row_classes=classes) +
            "\n</details>")


def figures_section(figs):
    parts = ["<h2>Plots</h2>"]
    for slug, title, png, caption in figs:
        data = base64.b64encode(png).decode("ascii")
        parts.append(f'<figure id="{esc(slug)}"><img alt="{esc(title)}" src="data:image/png;base64,{data}">'
                     f"<figcaption>{esc(caption)}</figcaption></figure>")
    return "\n".join(parts)


def render(report, path, figs):
    device = report.get("context", {}).get("device", {}).get("name", "unknown GPU")
    name = report.get("context", {}).get("config", {}).get("name", os.path.basename(path))
    variants = sorted({r["variant"] for r in report.get("results", [])})
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>sortbench {esc(name)} on {esc(device)}</title>", f"<style>{STYLE}</style></head><body>",
        f"<h1>sortbench report: {esc(name)} on {esc(device)}</h1>",
        f"<p>{len(report.get('results', []))} points, {len(variants)} variants: " +
        ", ".join(f"<code>{esc(v)}</code>" for v in variants) + "</p>",
        context_section(report, path), problems_section(report), summary_section(report), figures_section(figs),
        results_section(report),
        "<p><small>Generated by tools/report_html.py from the report alone; "
        "every image is embedded, so this file can be sent on its own.</small></p>",
        "</body></html>", ""])


def main():
    ap = argparse.ArgumentParser(description="One self-contained HTML page for a sortbench report.")
    pr.add_common_args(ap)
    ap.add_argument("--out", required=True, help="the HTML file to write")
    ap.add_argument("--png-dir", default=None, help="also write the figures as PNG files here")
    args = ap.parse_args()
    try:
        report = pr.load_report(args.report)
    except pr.ReportError as e:
        print(f"report_html.py: {e}", file=sys.stderr)
        sys.exit(2)
    figs = pr.all_figures(report, args.n, args.heatmap, args.heatmap_workload)
    page = render(report, args.report, figs)
    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, args.out)
    if args.png_dir:
        os.makedirs(args.png_dir, exist_ok=True)
        for slug, _, png, _ in figs:
            with open(os.path.join(args.png_dir, slug + ".png"), "wb") as f:
                f.write(png)
    print(f"report_html.py: {args.report} -> {args.out} ({len(figs)} figures, {len(page) // 1024} KiB)")


if __name__ == "__main__":
    main()
