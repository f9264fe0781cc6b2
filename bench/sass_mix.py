#!/usr/bin/env python3
"""Opcode mix of CUBIN files (SASS from `cuobjdump -sass`), for reading where a kernel's
instructions go without a GPU: `python3 bench/sass_mix.py DIR/pass0.cubin ...` (CUBINs from
`cargo run --release --example ntt_kernels -- DIR LOG_N` or `kernel_report` with TFFT_DUMP=DIR).
cuobjdump comes from the `nvidia-cuda-cuobjdump` wheel (`.nvrtc-venv`) or $CUOBJDUMP. Counts are
static (each instruction once); `--top N` limits the listing (default 20)."""
import collections
import glob
import os
import re
import subprocess
import sys


def cuobjdump():
    if os.environ.get("CUOBJDUMP"):
        return os.environ["CUOBJDUMP"]
    found = glob.glob(".nvrtc-venv/lib/python3*/site-packages/nvidia/cu*/bin/cuobjdump")
    return found[0] if found else "cuobjdump"


def mix(path):
    sass = subprocess.run([cuobjdump(), "-sass", path], check=True, capture_output=True, text=True).stdout
    ops = collections.Counter()
    for line in sass.splitlines():
        m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[0-9T]\s+)?([A-Z0-9_.]+)", line)
        if m:
            ops[m.group(1)] += 1
    return ops


def main():
    args = sys.argv[1:]
    top = 20
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i : i + 2]
    if not args:
        sys.exit(__doc__)
    for path in args:
        ops = mix(path)
        families = collections.Counter()
        for op, n in ops.items():
            families[op.split(".")[0]] += n
        print(f"== {path}: {sum(ops.values())} instructions")
        for op, n in families.most_common(top):
            variants = ", ".join(f"{v} {c}" for v, c in sorted(ops.items()) if v.split(".")[0] == op and v != op)
            print(f"  {n:6d} {op}" + (f"  ({variants})" if variants else ""))


if __name__ == "__main__":
    main()
