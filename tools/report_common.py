#!/usr/bin/env python3
"""What the report tools share about baselines (Python standard library only).

A baseline is a result whose label matches one of the report's
`context.config.baselines` globs (default ["cub.*", "thrust.*"]; version 1
reports list plain labels there, which match themselves). A baseline label is
`library.call[.form...]`; its groups are the library ("cub") and the call
("cub.radix_sort"), as harness/src/report.cpp's baseline_groups.

Schema version 2 gives each ok result `vs`: {group: {"baseline": label,
"speedup": x}}, against the fastest baseline of that group on the same
workload in the same run. Version 1 reports have only `speedup` ({label:
ratio}); the fastest baseline of a group there is the one our result has the
smallest ratio over, so `vs_group` takes the minimum over the group's labels.

    glob_match(pattern, label)           '*' and '?' as sortbench's glob_match
    baseline_globs(report)               context.config.baselines or the default
    is_baseline(label, globs)
    baseline_groups(label)               "cub.radix_sort.off64" -> ["cub", "cub.radix_sort"]
    in_group(label, group)
    workload_key(r)                      (key, value, order, n, distribution, seed)
    vs_group(r, group="cub")             (speedup, baseline label) or (None, None)
    fastest_baseline(results, group="cub", globs=None)
                                         the ok baseline result of that group with the
                                         smallest median among results (of one workload)
    short_cub(label)                     "cub.radix_sort.off64" -> "off64",
                                         "cub.merge_sort.off32" -> "merge_sort.off32"
    fastest_baselines(results, group="cub", globs=None)
                                         {workload_key: that result} over a whole report
    compute_speedups(results, globs, with_vs=True)
                                         speedup and vs recomputed as the harness does
    gkeys_per_joule(r)                   (GKeys/J of one sort, None) or (None, why not measured)
    has_energy(report)                   whether any result carries `energy` (measured or missing)
    size_text(n)                         1048576 -> "2^20"; other sizes as digits
    write_text(text, path)               to path, or to standard output where path is None
"""
import re
import sys

DEFAULT_BASELINES = ["cub.*", "thrust.*"]
CUB = "cub"
THRUST = "thrust"

_glob_cache = {}


def glob_match(pattern, label):
    """'*' any run of characters, '?' one character, everything else literal
    (harness/src/registry.cpp glob_match; no [...] classes)."""
    rx = _glob_cache.get(pattern)
    if rx is None:
        rx = re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern) + r"\Z",
                        re.S)
        _glob_cache[pattern] = rx
    return rx.match(label) is not None


def schema_version(report):
    return report.get("schema_version", 1)


def baseline_globs(report):
    globs = report.get("context", {}).get("config", {}).get("baselines")
    return list(globs) if globs else list(DEFAULT_BASELINES)


def is_baseline(label, globs):
    return any(glob_match(g, label) for g in globs)


def baseline_groups(label):
    """The library (text before the first '.') and the call (the first two
    dot components): "cub.radix_sort.off64" -> ["cub", "cub.radix_sort"]."""
    parts = label.split(".")
    if len(parts) == 1:
        return [label]
    return [parts[0], ".".join(parts[:2])]


def in_group(label, group):
    return group in baseline_groups(label)


def workload_key(r):
    return (r["key"], r["value"], r.get("order", "ascending"), r["n"], r["distribution"], r.get("seed", 1))


def vs_group(r, group=CUB):
    """(speedup, baseline label) of result r against the fastest baseline of
    `group` on its workload in its run, or (None, None) when there is none.
    Version 2: r["vs"][group]. Version 1: the smallest r["speedup"][label]
    over the labels of that group (the old single label cub.radix_sort is in
    group "cub" and "cub.radix_sort")."""
    if not r or r.get("status", "ok") != "ok":
        return None, None
    vs = r.get("vs")
    if isinstance(vs, dict) and group in vs:
        entry = vs[group]
        return entry.get("speedup"), entry.get("baseline")
    best = (None, None)
    for label, ratio in (r.get("speedup") or {}).items():
        if ratio is None or not in_group(label, group):
            continue
        if best[0] is None or ratio < best[0]:
            best = (ratio, label)
    return best


def short_cub(label):
    """A CUB label without "cub.radix_sort." (or else without "cub."), for
    tight table cells and tick labels: off64, double_buffer.off32,
    merge_sort.off32; the version 1 label cub.radix_sort -> radix_sort."""
    for prefix in ("cub.radix_sort.", "cub."):
        if label.startswith(prefix):
            return label[len(prefix):]
    return label


def fastest_baseline(results, group=CUB, globs=None):
    """The ok baseline result of `group` with the smallest median among
    `results` (meant for the results of one workload and one run), or None.
    Its label is result["variant"]. Ties go to the earlier result, as in the
    harness."""
    globs = DEFAULT_BASELINES if globs is None else globs
    best = None
    for r in results:
        if r.get("status") != "ok" or not in_group(r["variant"], group) or not is_baseline(r["variant"], globs):
            continue
        m = r["time_ms"]["median"]
        if m > 0 and (best is None or m < best["time_ms"]["median"]):
            best = r
    return best


def fastest_baselines(results, group=CUB, globs=None):
    """{workload_key: the fastest baseline result of `group` on that workload}."""
    by_workload = {}
    for r in results:
        by_workload.setdefault(workload_key(r), []).append(r)
    out = {}
    for w, rs in by_workload.items():
        b = fastest_baseline(rs, group, globs)
        if b is not None:
            out[w] = b
    return out


def compute_speedups(results, globs, with_vs=True):
    """harness/src/report.cpp compute_speedups: for each ok result,
    speedup[label] = baseline median / this median for every baseline measured
    ok on the same workload, and (with_vs) vs[group] = the fastest baseline of
    each group there with that ratio. Rewrites the results in place."""
    base = {}  # workload -> [(label, median)] in results order
    for r in results:
        if r.get("status") == "ok" and r["time_ms"]["median"] > 0 and is_baseline(r["variant"], globs):
            base.setdefault(workload_key(r), []).append((r["variant"], r["time_ms"]["median"]))
    for r in results:
        if r.get("status") != "ok" or r["time_ms"]["median"] <= 0:
            continue
        speedup, vs = {}, {}
        for label, median in base.get(workload_key(r), []):
            ratio = median / r["time_ms"]["median"]
            speedup[label] = ratio
            for group in baseline_groups(label):
                if group not in vs or ratio < vs[group]["speedup"]:
                    vs[group] = {"baseline": label, "speedup": ratio}
        r["speedup"] = {k: speedup[k] for k in sorted(speedup)}
        if with_vs:
            r["vs"] = {g: vs[g] for g in sorted(vs)}
        else:
            r.pop("vs", None)


def gkeys_per_joule(r):
    """Schema version 3's energy: (1 / joules_per_gkey, None) where r's energy
    was measured, else (None, why): its `missing`, or why it has none."""
    e = r.get("energy")
    if not isinstance(e, dict):
        return None, "no energy recorded for this point"
    if "missing" in e:
        return None, str(e["missing"]) or "not measured"
    jpg = e.get("joules_per_gkey") or 0
    if jpg > 0:
        return 1 / jpg, None
    return None, "0 J recorded: below the counter's resolution"  # a zero would read as infinitely efficient


def has_energy(report):
    return any("energy" in r for r in report.get("results", []))


def size_text(n):
    if n >= 1024 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)


def write_text(text, path):
    if path:
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
