"""Compares tfft bench JSON files of an A/B run (bench-N-NAME-rR.json in one folder, NAME the
binary): for each length, the default row and every variant, % of the copy per binary and
repetition, and cuFFT's. A variant is keyed by its whole recipe description (the batch, registers,
spills and blocks per SM left out) and labelled by the recipe fields that differ between the
variants of that length. Usage: python3 bench/compare_ab.py DIR"""
import collections
import glob
import gzip
import json
import os
import re
import sys

d = sys.argv[1]


def load_json(path):
    """A bench JSON, plain or gzipped (results over 150 KB are stored as .json.gz)."""
    with (gzip.open if path.endswith('.gz') else open)(path, 'rt') as f:
        return json.load(f)


pct = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
regs = collections.defaultdict(dict)
cufft = collections.defaultdict(list)
names = []
for f in sorted(glob.glob(os.path.join(d, 'bench-*-*-r*.json*'))):
    m = re.match(r'bench-(\d+)-(\w+)-r(\d+)\.json(\.gz)?$', os.path.basename(f))
    n, b = int(m.group(1)), m.group(2)
    if b not in names:
        names.append(b)
    for r in load_json(f)['rows']:
        pct[n][()][b].append(r['tfft_pct_copy'])
        cufft[n].append(r['cufft_pct_copy'])
        for v in r['variants']:
            fields = v['recipe'].split('\n')[1].split()
            key = tuple(x for x in fields if '=' in x and x.split('=')[0] not in ('regs', 'spill', 'blocks/SM'))
            pct[n][key][b].append(v['pct_copy'])
            regs[(n, key)][b] = ' '.join(x for x in fields if x.split('=')[0] in ('regs', 'spill'))
names.sort(key=lambda b: (b != 'prev', b))
for n in sorted(pct):
    keys = [k for k in pct[n] if k]
    varying = {f.split('=')[0] for k in keys for f in k if sum(f in k2 for k2 in keys) < len(keys)}
    print(f'N={n}  cuFFT {" ".join("%.1f" % x for x in cufft[n])}   columns: {" / ".join(names)}')
    rows = sorted(pct[n].items(), key=lambda kv: -max(kv[1].get(names[-1], [0]) + [0]))
    for key, v in rows:
        cols = ' '.join('[%11s]' % ' '.join('%.1f' % x for x in v.get(b, [])) for b in names)
        label = ' '.join(f for f in key if f.split('=')[0] in varying) if key else 'default'
        r = ' -> '.join(regs[(n, key)].get(b, '') for b in names) if key else ''
        print(f'  {cols}  {label}  | {r}')
