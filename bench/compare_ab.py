"""Compares tfft bench JSON files of an A/B run (bench-N-{prev,new}-rR.json in one folder): for
each length, the default row and every variant, % of the copy per binary and repetition, and
cuFFT's. Usage: python3 bench/compare_ab.py DIR"""
import collections
import glob
import json
import os
import re
import sys

d = sys.argv[1]
table = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
cufft = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(d, 'bench-*-*-r*.json'))):
    m = re.match(r'bench-(\d+)-(\w+)-r(\d+)\.json', os.path.basename(f))
    n, b = int(m.group(1)), m.group(2)
    for r in json.load(open(f))['rows']:
        table[n][('default', '')][b].append(r['tfft_pct_copy'])
        cufft[n].append(r['cufft_pct_copy'])
        for v in r['variants']:
            rc = v['recipe'].split('\n')[1]
            key = ' '.join(x for x in rc.split() if x.split('=')[0] in
                           ('E', 'minblocks', 'prefetch', 'persistent', 'io', 'twiddles_ahead'))
            regs = ' '.join(x for x in rc.split() if x.startswith('regs') or x.startswith('spill'))
            table[n][(key, '')][b].append(v['pct_copy'])
            table[n][(key, '')]['regs-' + b] = regs
names = sorted({b for n in table for kv in table[n].values() for b in kv if not b.startswith('regs-')},
               key=lambda b: (b != 'prev', b))
for n in sorted(table):
    print(f'N={n}  cuFFT {" ".join("%.1f" % x for x in cufft[n])}   columns: {" / ".join(names)}')
    rows = sorted(table[n].items(), key=lambda kv: -max(kv[1].get(names[-1], [0]) + [0]))
    for (key, _), v in rows:
        cols = ' '.join('[%11s]' % ' '.join('%.1f' % x for x in v.get(b, [])) for b in names)
        regs = ' -> '.join(v.get('regs-' + b, '') for b in names)
        print(f'  {cols}  {key}  | {regs}')
