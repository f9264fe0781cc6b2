"""Prints each bench JSON row of a folder (tfft bench --json) with its three fastest tuning variants:
% of the copy, relative L2 error, values per thread, blocks per SM, prefetch, persistence,
registers and spills. Usage: python3 bench/summarize_variants.py DIR"""
import gzip,json,os,sys,glob
o=sys.argv[1]
for f in sorted(glob.glob(o+'/bench-*.json*')):
  d=json.load((gzip.open if f.endswith('.gz') else open)(f,'rt'))
  for r in d['rows']:
    vs=sorted(r['variants'], key=lambda v:v['ms'])
    print(os.path.basename(f), r['direction'][:3], 'h2', round(r['tfft_pct_copy'],1), '%.2e'%r['tfft_rel_l2'], 'cufft', round(r['cufft_pct_copy'],1), '%.2e'%r['cufft_rel_l2'])
    for v in vs[:3]:
      rc=v['recipe'].split('\n')[1]
      import re
      key=' '.join(x for x in rc.split() if x.split('=')[0] in ('E','minblocks','prefetch','persistent') or x.startswith('regs') or x.startswith('spill'))
      print('    %.1f %.2e %s'%(v['pct_copy'], v['rel_l2'], key))
