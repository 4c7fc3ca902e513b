#!/usr/bin/env python3
"""Extracts the code blocks of the docs that claim to be complete files, so a
test can build them (ctest package.doc_snippets): a fenced block whose first
line is `// file: NAME` (C++, CUDA) or `# file: NAME` (CMake) in README.md,
docs/**/*.md or examples/*/README.md. The blocks of one document go into one
folder, OUT/<document path with / as _>/NAME, so a CMakeLists.txt block and
the sources it names form a project.

    tools/doc_snippets.py SOURCE_DIR OUT_DIR

Prints one line per folder: the folder, then its files."""
import glob
import os
import re
import sys

FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r"^(?://|#)\s*file:\s*(\S+)\s*$")


def documents(src):
    yield os.path.join(src, "README.md")
    yield from sorted(glob.glob(os.path.join(src, "docs", "**", "*.md"), recursive=True))
    yield from sorted(glob.glob(os.path.join(src, "examples", "*", "README.md")))


def blocks(path):
    """(name, text) of each fenced block whose first line names its file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]) and lines[i].strip() != "```":
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            body = lines[i + 1:j]
            m = MARK.match(body[0]) if body else None
            if m:
                yield m.group(1), "\n".join(body) + "\n"
            i = j + 1
        else:
            i += 1


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-3])
    src, out = sys.argv[1], sys.argv[2]
    found = 0
    for doc in documents(src):
        files = list(blocks(doc))
        if not files:
            continue
        rel = os.path.relpath(doc, src)
        folder = os.path.join(out, rel.replace("/", "_").replace(".md", ""))
        os.makedirs(folder, exist_ok=True)
        names = []
        for name, text in files:
            if "/" in name or name in names:
                sys.exit(f"{rel}: file name '{name}' is a path or given twice; expected one plain name per document")
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
            names.append(name)
            found += 1
        print(folder, *names)
    if not found:
        sys.exit("no block claims to be a complete file (// file: NAME or # file: NAME as its first line)")


if __name__ == "__main__":
    main()
