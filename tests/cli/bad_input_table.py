#!/usr/bin/env python3
"""The table-driven bad-input test (ctest cli.bad_input_table).

usage: bad_input_table.py SORTBENCH_BINARY SOURCE_DIR [ROWS_FILE]

Environment: SORTBENCH_TEST_PLUGIN_DIR, the folder of the loader tests' plugins
(tests/plugins), copied into the fixtures as plugins/*.so. Leading NAME=VALUE
words of ARGUMENTS set the environment of that row's command.

Each row of tests/cli/bad_inputs.tsv is `EXIT <tab> PATTERN <tab> ARGUMENTS`
(ARGUMENTS split as a shell would, without expansion). The runner builds a
folder of fixtures (reports, shards, caches, configs, key files, a binary file,
a folder), then for every row runs `sortbench ARGUMENTS` in that folder and
checks: the exit code is EXIT, standard error is exactly one line, that line
contains PATTERN (a regular expression when it starts with `re:`), and nothing
in the folder was created, modified or deleted (every entry's path, type, mode
and content hashed before and after). Exits 1 listing every row that failed.
"""
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def snapshot(root):
    """{relative path: (kind, mode, sha256)} of everything below root."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if os.path.islink(p):
                out[rel] = ("link", st.st_mode, os.readlink(p))
            elif os.path.isdir(p):
                out[rel] = ("dir", st.st_mode, "")
            else:
                with open(p, "rb") as f:
                    out[rel] = ("file", st.st_mode, hashlib.sha256(f.read()).hexdigest())
    return out


def changes(before, after):
    out = []
    for k in sorted(set(before) | set(after)):
        if k not in before:
            out.append(f"created {k}")
        elif k not in after:
            out.append(f"deleted {k}")
        elif before[k] != after[k]:
            out.append(f"modified {k}")
    return out


def run(binary, args, cwd, check=True):
    p = subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True, timeout=120)
    if check and p.returncode != 0:
        raise SystemExit(f"fixture: sortbench {' '.join(args)} exited {p.returncode}: {p.stderr.strip()[-500:]}")
    return p


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)


def spoil(src, dst, edit):
    with open(src) as f:
        doc = json.load(f)
    edit(doc)
    write(dst, json.dumps(doc))


def make_fixtures(binary, src, d):
    """Everything the rows name, in folder d."""
    shutil.copy(os.path.join(src, "results/h200/quick.json"), os.path.join(d, "quick.json"))
    shutil.copy(os.path.join(src, "tests/data/v1-tune-report.json"), os.path.join(d, "v1-tune.json"))
    write(os.path.join(d, "config.json"), json.dumps(
        {"name": "small", "variants": ["cub.radix_sort.off64"], "sizes": ["2^10"], "distributions": ["uniform"]}))
    space = {"name": "fake", "variants": ["fake.*"], "strategy": {"name": "exhaustive"},
             "sweeps": [{"keys": ["u32"], "values": ["none", "u32"], "sizes": ["2^20", "2^22"], "distributions": ["uniform"]}]}
    write(os.path.join(d, "space.json"), json.dumps(space))
    space2 = dict(space, sweeps=[dict(space["sweeps"][0], sizes=["2^20"])])
    write(os.path.join(d, "space2.json"), json.dumps(space2))
    write(os.path.join(d, "sp.shard-0-of-2.json"), json.dumps(space))  # a space named like a --devices shard report
    # A space of real variants: rows without the fake evaluator must be refused before the GPU check.
    write(os.path.join(d, "real-space.json"), json.dumps(dict(space, name="real", variants=["radix.onesweep.*"])))
    # A tune as two shards side by side, merged; a shard of another GPU model; its caches.
    run(binary, ["tune", "--space", "space.json", "--fake-evaluator", "--devices", "0,1", "--out", "shards.json",
                 "--best", "best.json", "--cache", "cache.jsonl"], d)
    os.rename(os.path.join(d, "shards.shard-0-of-2.json"), os.path.join(d, "shard0.json"))
    os.rename(os.path.join(d, "shards.shard-1-of-2.json"), os.path.join(d, "shard1.json"))
    os.rename(os.path.join(d, "shards.json"), os.path.join(d, "merged.json"))
    run(binary, ["tune", "--space", "space.json", "--fake-evaluator", "--fake-model", "other-gpu", "--shard", "1/2",
                 "--out", "shard1-other-gpu.json", "--cache", "cache-other-gpu.jsonl"], d)
    run(binary, ["tune", "--space", "space2.json", "--fake-evaluator", "--out", "tune2.json", "--best", "best2.json",
                 "--cache", "cache-other-space.jsonl"], d)
    run(binary, ["tune", "--space", "space.json", "--fake-evaluator", "--shard", "0/3", "--out", "shard0-of-3.json",
                 "--cache", "cache-of-3.jsonl"], d)
    spoil(os.path.join(d, "shard1.json"), os.path.join(d, "shard1-other-build.json"),
          lambda r: r["context"]["build"].update(git_commit="0000000000000000000000000000000000000000"))
    run(binary, ["run", "--isolate", "--fake-evaluator", "--variants", "fake.radix.rb8.ipt8.tpb256", "--n", "2^20",
                 "--key", "u32", "--values", "none", "--dist", "uniform", "--out", "run.json"], d)
    # Caches: valid, with a garbage line in the middle, with a wrong type, a report, binary.
    with open(os.path.join(d, "cache.jsonl")) as f:
        lines = f.read().splitlines()
    write(os.path.join(d, "cache-garbage.jsonl"), "\n".join(lines[:3] + ["this is not JSON at all"] + lines[3:]) + "\n")
    entry = json.loads(lines[2])
    entry["result"]["n"] = "many"
    write(os.path.join(d, "cache-wrong-type.jsonl"), "\n".join(lines[:2] + [json.dumps(entry)] + lines[3:]) + "\n")
    entry = json.loads(lines[2])
    del entry["result"]
    write(os.path.join(d, "cache-no-result.jsonl"), "\n".join(lines[:2] + [json.dumps(entry)]) + "\n")
    write(os.path.join(d, "cache-no-header.jsonl"), "\n".join(lines[1:]) + "\n")
    write(os.path.join(d, "binary.bin"), bytes(range(256)) * 8, "wb")
    write(os.path.join(d, "empty.json"), "")
    os.mkdir(os.path.join(d, "folder"))
    write(os.path.join(d, "plain.txt"), "not a folder\n")
    # Other names for inputs: a symbolic link and a hard link (compared by device and inode).
    os.symlink("run.json", os.path.join(d, "link-to-run.json"))
    os.link(os.path.join(d, "run.json"), os.path.join(d, "hardlink-to-run.json"))
    os.symlink("shard0.json", os.path.join(d, "link-to-shard0.json"))
    os.link(os.path.join(d, "config.json"), os.path.join(d, "hardlink-to-config.json"))
    shutil.copy(os.path.join(d, "run.json"), os.path.join(d, "run-again.json"))  # the same points, another file
    # Reports spoiled in one field each.
    q = os.path.join(d, "run.json")
    spoil(q, os.path.join(d, "context-array.json"), lambda r: r.update(context=[1, 2]))
    spoil(q, os.path.join(d, "device-name-number.json"), lambda r: r["context"]["device"].update(name=5))
    spoil(q, os.path.join(d, "results-string.json"), lambda r: r.update(results="x"))
    spoil(q, os.path.join(d, "schema-number.json"), lambda r: r.update(schema=1))
    spoil(q, os.path.join(d, "schema-version-9.json"), lambda r: r.update(schema_version=9))
    spoil(q, os.path.join(d, "negative-n.json"), lambda r: r["results"][0].update(n=-5))
    spoil(q, os.path.join(d, "status-maybe.json"), lambda r: r["results"][0].update(status="maybe"))
    spoil(q, os.path.join(d, "raw-text.json"), lambda r: r["results"][0]["time_ms"].update(raw=["fast"]))
    spoil(q, os.path.join(d, "no-results.json"), lambda r: r.pop("results"))
    spoil(q, os.path.join(d, "duplicate-result.json"), lambda r: r["results"].append(r["results"][0]))
    spoil(q, os.path.join(d, "empty-label.json"), lambda r: r["results"][0].update(variant=""))
    spoil(q, os.path.join(d, "negative-median.json"), lambda r: r["results"][0]["time_ms"].update(median=-1))
    spoil(q, os.path.join(d, "zero-median.json"), lambda r: r["results"][0]["time_ms"].update(median=0))
    spoil(q, os.path.join(d, "bored-stop.json"), lambda r: r["results"][0].update(stop_reason="bored"))
    spoil(q, os.path.join(d, "newline-label.json"), lambda r: r["results"][0].update(variant="cub.radix\nsort"))
    # Context fields the tools read, mistyped.
    run_json = os.path.join(d, "run.json")
    spoil(run_json, os.path.join(d, "ctx-clock.json"), lambda r: r["context"]["device"].update(sm_clock_peak_mhz="x"))
    spoil(run_json, os.path.join(d, "ctx-build.json"), lambda r: r["context"].update(build="x"))
    spoil(run_json, os.path.join(d, "clock-1e308.json"), lambda r: r["results"][0].update(sm_clock_mhz=1e308))
    spoil(run_json, os.path.join(d, "ctx-clock-1e308.json"), lambda r: r["context"]["device"].update(sm_clock_peak_mhz=1e308))
    shard0 = os.path.join(d, "shard0.json")
    spoil(shard0, os.path.join(d, "ctx-resources.json"), lambda r: r["context"]["tune"].update(resources=5))
    spoil(shard0, os.path.join(d, "ctx-shard.json"), lambda r: r["context"]["tune"].update(shard=5))
    spoil(os.path.join(d, "shard1.json"), os.path.join(d, "shard1-foreign-n.json"), lambda r: r["results"][0].update(n=12345))
    spoil(shard0, os.path.join(d, "shard0-no-config.json"), lambda r: r["context"].pop("config"))
    spoil(os.path.join(d, "shard1.json"), os.path.join(d, "shard1-no-config.json"), lambda r: r["context"].pop("config"))
    spoil(os.path.join(d, "shard1.json"), os.path.join(d, "shard1-bogus-strategy.json"),
          lambda r: r["context"]["tune"].update(strategy="bogus"))
    spoil(q, os.path.join(d, "top-array.json"), lambda r: r.clear())
    write(os.path.join(d, "top-array.json"), "[1, 2, 3]")
    write(os.path.join(d, "truncated.json"), open(q).read()[:200])
    # Configs.
    def config(name, doc):
        write(os.path.join(d, name), doc if isinstance(doc, str) else json.dumps(doc))
    base = {"sizes": ["2^10"], "distributions": ["uniform"], "variants": ["cub.radix_sort.off64"]}
    config("c-1e999.json", '{"sizes": [1e999], "distributions": ["uniform"]}')
    config("c-float-size.json", dict(base, sizes=[1.5]))
    config("c-big-size.json", dict(base, sizes=[18446744073709551615]))
    config("c-negative-seed.json", dict(base, seed=-1))
    config("c-unknown-field.json", dict(base, colour="red"))
    config("c-bad-key.json", dict(base, keys=["u24"]))
    config("c-bad-value.json", dict(base, values=["u16"]))
    config("c-bad-order.json", dict(base, orders=["sideways"]))
    config("c-bad-dist.json", dict(base, distributions=["gaussian"]))
    config("c-bad-range.json", dict(base, distributions=["uniform", "range:5:5"]))
    config("c-bad-hot.json", dict(base, sweeps=[{"keys": ["u32"], "values": ["none"], "distributions": ["hot_buckets:2:16"]}]))
    config("c-bad-variant.json", dict(base, variants=["nosuch.*"]))
    config("c-bad-baseline.json", dict(base, baselines=["cub.radix_sort"]))
    config("c-bad-best.json", dict(base, variants=["best:nosuch"]))
    config("c-empty-best.json", dict(base, variants=["best:"]))
    config("c-slash-name.json", dict(base, name="a/b"))
    config("c-nul-name.json", dict(base, name="a\u0000b"))
    config("c-dotdot-name.json", dict(base, name=".."))
    config("c-min-samples.json", dict(base, measure={"min_samples": 0}))
    config("c-max-below-min.json", dict(base, measure={"min_samples": 50, "max_samples": 10}))
    config("c-measure-field.json", dict(base, measure={"speed": 1}))
    config("c-fraction-samples.json", dict(base, measure={"min_samples": 10.7, "max_samples": 10.2}))
    config("c-duplicate-key.json", '{"sizes": ["2^10"], "distributions": ["uniform"], "sweeps": [{"keys": ["u32"], "keys": ["u64"]}]}')
    config("c-budget-string.json", dict(base, measure={"budget_s": "long"}))
    config("c-sweeps-object.json", dict(base, sweeps={"keys": ["u32"]}))
    config("c-sweep-field.json", dict(base, sweeps=[{"keyz": ["u32"]}]))
    config("c-no-sizes.json", {"distributions": ["uniform"]})
    config("c-range.json", dict(base, sizes=["1:1e12:+1"]))
    config("c-top-array.json", "[]")
    config("c-gpus-empty.json", dict(base, gpus=[]))
    config("c-gpus-twice.json", dict(base, sweeps=[{"gpus": [1, 1]}]))
    config("c-gpus-nested.json", dict(base, gpus=[[0, 1]]))
    config("c-gpus-three.json", dict(base, sweeps=[{"gpus": [0, 1]}, {"gpus": [0, 1, 2]}]))
    # Key files: 1000 u32 keys; lengths that are not whole u32 or u64 keys; an empty one.
    write(os.path.join(d, "keys.bin"), bytes(4000), "wb")
    write(os.path.join(d, "keys-odd.bin"), bytes(4002), "wb")
    write(os.path.join(d, "keys-1001.bin"), bytes(4004), "wb")  # whole u32 keys, not whole u64 keys
    write(os.path.join(d, "keys-empty.bin"), b"", "wb")
    config("c-file-missing.json", dict(base, distributions=["file:nokeys.bin"]))
    config("c-file-short.json", dict(base, distributions=["file:keys.bin"], sizes=["2^12"]))
    # Tune spaces.
    config("s-bad-strategy.json", dict(space, strategy={"name": "annealing"}))
    config("s-bad-param.json", dict(space, params={"radix_bits": {"least": 1}}))
    config("s-no-points.json", dict(space, params={"radix_bits": [99]}))
    config("s-bad-baseline.json", dict(space, baselines=["nosuch.*"]))
    config("s-bad-score.json", dict(space, score={"noise_z": -1}))
    config("s-keep.json", dict(space, strategy={"name": "halving", "keep_fraction": 2}))
    config("s-on-demand-text.json", dict(space, on_demand="yes"))
    config("s-on-demand-bad-param.json", dict(space, variants=["fake.ondemand.*"], on_demand=True,
                                               params={"warp_size": [32]}))
    if os.geteuid() != 0:  # root writes through a read-only mode bit
        write(os.path.join(d, "readonly.json"), "{}")
        os.chmod(os.path.join(d, "readonly.json"), 0o444)
    # The loader tests' plugins, and a file that only looks like one.
    plugin_dir = os.environ.get("SORTBENCH_TEST_PLUGIN_DIR")
    if not plugin_dir:
        raise SystemExit("fixture: SORTBENCH_TEST_PLUGIN_DIR is not set (ctest sets it to the tests/plugins build folder)")
    os.mkdir(os.path.join(d, "plugins"))
    for name in os.listdir(plugin_dir):
        if name.startswith("plugin_") and name.endswith(".so"):
            shutil.copy(os.path.join(plugin_dir, name), os.path.join(d, "plugins", name))
    # Default outputs that cannot be written: run's report path is a folder; the
    # folder of GPU model blocked-gpu is a file (its tune and merge outputs go through it).
    os.makedirs(os.path.join(d, "sortbench-out", "fake-gpu", "small.json"))
    write(os.path.join(d, "sortbench-out", "blocked-gpu"), "not a folder\n")
    run(binary, ["tune", "--space", "space.json", "--fake-evaluator", "--fake-model", "blocked-gpu", "--devices", "0,1",
                 "--out", "blocked.json", "--best", "blocked-best.json", "--cache", "blocked-cache.jsonl"], d)
    # Cut short (a copy interrupted): dlopen would map pages past its end (SIGBUS).
    good = open(os.path.join(plugin_dir, "plugin_good.so"), "rb").read()
    write(os.path.join(d, "plugins", "cut_half.so"), good[:len(good) // 2], "wb")
    write(os.path.join(d, "plugins", "cut_4096.so"), good[:4096], "wb")
    with open(os.path.join(d, "plugins", "not_a_plugin.so"), "w") as f:
        f.write("just text\n")


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary = os.path.realpath(sys.argv[1])
    src = os.path.realpath(sys.argv[2])
    rows_file = sys.argv[3] if len(sys.argv) > 3 else os.path.join(src, "tests/cli/bad_inputs.tsv")
    rows = []
    with open(rows_file) as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3:
                raise SystemExit(f"{rows_file}:{no}: expected EXIT<tab>PATTERN<tab>ARGUMENTS")
            rows.append((no, int(parts[0]), parts[1], shlex.split(parts[2])))
    d = tempfile.mkdtemp(prefix="sortbench_bad_inputs_")
    failures = []
    try:
        make_fixtures(binary, src, d)
        for no, want_rc, pattern, args in rows:
            if "readonly.json" in args and not os.path.exists(os.path.join(d, "readonly.json")):
                continue  # as root there is no read-only file
            env = dict(os.environ, CUDA_VISIBLE_DEVICES="")  # the same answers on a GPU runner
            env.pop("SORTBENCH_PLUGIN_PATH", None)
            while args and re.match(r"^[A-Z_]+=", args[0]):
                name, _, value = args[0].partition("=")
                env[name] = value
                args = args[1:]
            before = snapshot(d)
            p = subprocess.run([binary] + args, cwd=d, capture_output=True, text=True, timeout=120, env=env)
            after = snapshot(d)
            err = [l for l in p.stderr.split("\n") if l.strip()]
            problems = []
            if p.returncode != want_rc:
                problems.append(f"exit {p.returncode}, wanted {want_rc}")
            if len(err) != 1:
                problems.append(f"{len(err)} lines on stderr, wanted 1")
            text = "\n".join(err)
            found = re.search(pattern[3:], text) if pattern.startswith("re:") else pattern in text
            if not found:
                problems.append(f"no '{pattern}'")
            problems += changes(before, after)
            if problems:
                failures.append(f"{rows_file}:{no}: sortbench {shlex.join(args)}: {'; '.join(problems)}\n    stderr: {text[:400]}")
        print(f"{len(rows)} rows, {len(failures)} failed")
        for f in failures:
            print("FAIL " + f)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
