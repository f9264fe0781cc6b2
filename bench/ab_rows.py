#!/usr/bin/env python3
"""Default rows of an A/B run: files DIR/ab-<binary>-<n>-r<rep>.json (one `tfft bench --json`
row each, binaries alternating per repetition), printed per length and binary as the range of
% of the device copy, of the speed-up over cuFFT, and the worst error (tensorfft / cuFFT).
Usage: python3 bench/ab_rows.py bench/results/2026-11-26-h100-f32split-pairs/run4-final"""
import glob
import gzip
import json
import os
import re
import sys
from collections import defaultdict


def load_json(path):
    """A bench JSON, plain or gzipped (results over 150 KB are stored as .json.gz)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main(directory):
    rows = defaultdict(list)
    for path in glob.glob(os.path.join(directory, "ab-*-r*.json*")):
        m = re.match(r"ab-(.+)-(\d+)-r\d+\.json(\.gz)?$", os.path.basename(path))
        if not m:
            continue
        data = load_json(path)
        for row in data["rows"] if isinstance(data, dict) else data:
            rows[(int(m.group(2)), m.group(1))].append(row)
    for (n, binary), rs in sorted(rows.items()):
        pct = [r["tfft_pct_copy"] for r in rs]
        speed = [r["speedup_vs_cufft"] for r in rs]
        print(
            f"{n:>8} {binary:<6} {min(pct):5.1f}-{max(pct):5.1f}% of copy  "
            f"{min(speed):.2f}-{max(speed):.2f}x cuFFT  "
            f"err {max(r['tfft_rel_l2'] for r in rs):.2e} / {max(r['cufft_rel_l2'] for r in rs):.2e}  "
            f"({len(rs)} runs)"
        )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
