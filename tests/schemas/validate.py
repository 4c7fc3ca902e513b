#!/usr/bin/env python3
"""Validates sortbench files against the published JSON Schemas (schemas/).

usage: validate.py SCHEMA_DIR FILE...

Reports ("schema": "sortbench-report") against report.schema.json, best.json
files against best.schema.json, caches (*.jsonl: a header line, then one line
per point) line by line against cache.schema.json; other JSON files (GoogleTest
logs) are skipped. Prints one line per file; exits 1 if any file does not
validate, 2 on bad usage. Needs Debian's python3-jsonschema (tools/setup.sh).
"""
import json
import os
import sys

from jsonschema import Draft202012Validator, RefResolver


def load_schemas(folder):
    schemas = {}
    for name in ("report.schema.json", "best.schema.json", "cache.schema.json"):
        with open(os.path.join(folder, name)) as f:
            schemas[name] = json.load(f)
    store = {s["$id"]: s for s in schemas.values()}
    validators = {}
    for name, s in schemas.items():
        Draft202012Validator.check_schema(s)
        validators[name] = Draft202012Validator(s, resolver=RefResolver.from_schema(s, store=store))
    return validators


def first_error(validator, doc):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
    return f"{path}: {e.message[:200]}"


def check_file(validators, path):
    """(kind, error or None); kind None for a file that is not ours."""
    if path.endswith(".jsonl"):
        with open(path) as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for i, line in enumerate(lines, 1):
            try:
                doc = json.loads(line)
            except ValueError as e:
                return "cache", f"line {i}: not JSON ({e})"
            if i == 1 and doc.get("schema") != "sortbench-cache":
                return "cache", "line 1: not a cache header"
            err = first_error(validators["cache.schema.json"], doc)
            if err:
                return "cache", f"line {i}: {err}"
        return "cache", None
    with open(path) as f:
        try:
            doc = json.load(f)
        except ValueError as e:
            return "json", f"not JSON ({e})"
    if not isinstance(doc, dict):
        return None, None
    if doc.get("schema") == "sortbench-report":
        return "report", first_error(validators["report.schema.json"], doc)
    if doc.get("schema") == "sortbench-best" or ("entries" in doc and "gpu_model" in doc):
        return "best.json", first_error(validators["best.schema.json"], doc)
    return None, None


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    validators = load_schemas(sys.argv[1])
    bad = checked = 0
    for path in sys.argv[2:]:
        kind, err = check_file(validators, path)
        if kind is None:
            continue
        checked += 1
        if err:
            bad += 1
            print(f"INVALID {kind} {path}: {err}")
        else:
            print(f"ok {kind} {path}")
    print(f"{checked} files checked, {bad} invalid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
