#!/usr/bin/env python3
"""Whether a change left the machine code of the kernels alone: compares the
.text section of every kernel in cubins built before and after it
(nvcc -cubin -arch=sm_90 ... FILE.cu -o DIR/NAME.cubin, from two checkouts),
with the per-file hashes nvcc puts into the names of anonymous-namespace and
static symbols taken out, since they follow the source path.

    tools/sass_compare.py BEFORE_DIR AFTER_DIR

Prints each cubin's kernel count and how many are byte-identical; exits 1
when any kernel differs or is missing on one side. No CUDA tools needed."""
import glob
import os
import re
import struct
import sys


def normalize(name):
    name = re.sub(r"__nv_static_\d+__[0-9a-f]+_\d+_\w+?_cu_[0-9a-f]+_\d+__", "__nv_static__", name)
    out, i = "", 0
    while True:  # <length>_GLOBAL__N__<hash...>: drop the length-prefixed identifier
        m = re.search(r"(\d+)_GLOBAL__N__", name[i:])
        if not m:
            return out + name[i:]
        start = i + m.start()
        out += name[i:start] + "ANON"
        i = start + len(m.group(1)) + int(m.group(1))


def kernel_text(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF":
        sys.exit(f"{path}: not an ELF cubin")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + k * shentsize) for k in range(shnum)]
    strtab = headers[shstrndx][4]
    out = {}
    for name_off, kind, _flags, _addr, off, size in headers:
        name = data[strtab + name_off:data.index(b"\0", strtab + name_off)].decode()
        if name.startswith(".text."):
            out[normalize(name)] = data[off:off + size] if kind != 8 else b""
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = sys.argv[1:]
    total = same = 0
    ok = True
    for path in sorted(glob.glob(os.path.join(before, "*.cubin"))):
        name = os.path.basename(path)
        other = os.path.join(after, name)
        if not os.path.exists(other):
            print(f"{name}: missing in {after}")
            ok = False
            continue
        a, b = kernel_text(path), kernel_text(other)
        k = sum(1 for n in a if n in b and a[n] == b[n])
        total += len(a)
        same += k
        ok = ok and k == len(a) == len(b)
        print(f"{name}: {len(a)} kernels before, {len(b)} after, {k} identical")
    print(f"{same} of {total} kernels identical")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
