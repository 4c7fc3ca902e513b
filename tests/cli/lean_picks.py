#!/usr/bin/env python3
"""The lean build loses no pick: every point a committed results/*/best.json
names (ours and the library call it beat) is registered in the binary, for
the key type and value type it was picked for, and so is each family's
default point (best:* falls back to it).

usage: lean_picks.py SORTBENCH SOURCE_DIR
"""
import glob
import json
import subprocess
import sys

bin_, src = sys.argv[1], sys.argv[2]
listed = {v["label"]: v for v in json.loads(subprocess.run([bin_, "list", "--json"], check=True, capture_output=True,
                                                            text=True).stdout)}
bad, checked = [], 0
for path in sorted(glob.glob(f"{src}/results/*/best.json")):
    best = json.load(open(path))
    for entry in best.get("entries", []) + best.get("group_picks", []):
        for field in ("ours", "variant"):
            label = entry.get(field)
            if not label:
                continue
            checked += 1
            v = listed.get(label)
            if v is None:
                bad.append(f"{path}: {label} ({field}) is not in this build")
            elif entry["key"] not in v["key_types"] or entry["value"] not in v["value_types"]:
                bad.append(f"{path}: {label} is built without {entry['key']} keys / {entry['value']} values")
# Every family of ours that runs by default (not opt-in, not a library's calls).
families = {v["family"] for v in listed.values() if not v["opt_in"] and v["family"] not in ("cub", "thrust")}
defaults = {v["family"] for v in listed.values() if v.get("family_default")}
for fam in sorted(families):
    if fam not in defaults:
        bad.append(f"family {fam} has no default point in this build (best:{fam} falls back to it)")
if checked == 0:
    bad.append("no best.json entry was checked")
for b in bad:
    print("FAIL:", b)
print(f"{checked} picks checked against {len(listed)} registered variants")
sys.exit(1 if bad else 0)
