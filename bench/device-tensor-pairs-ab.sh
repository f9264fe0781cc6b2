#!/usr/bin/env bash
# A/B of the warp-resident tensor-core kernel (F16 N = 256): .gpu/tfft against .gpu/tfft-perm
# (another build) on the same machine, twice, then memcheck and racecheck of .gpu/tfft on the
# tensor-core cases of tfft check. Writes under $OUT.
set -euo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
for r in 1 2; do
 for b in tfft tfft-perm; do
  .gpu/$b bench --n 256 --precision f16 --variants-matching "E=16 T=16 B=16 io=Direct(V=4) twiddles=Table exchange=F32 smem=0B minblocks=2" --json $OUT/ab-$b-r$r.json > /dev/null 2>&1
 done
done
python3 - <<'PY'
import json,os
o=os.environ['OUT']
for r in (1,2):
  for b in ('tfft','tfft-perm'):
    d=json.load(open(f'{o}/ab-{b}-r{r}.json'))['rows'][0]
    print(r, b, 'default', round(d['tfft_pct_copy'],2), 'cufft', round(d['cufft_pct_copy'],2), [ (round(v['pct_copy'],2), 'pf' if 'prefetch=true' in v['recipe'] else 'nopf', 'twa' if 'twiddles_ahead=true' in v['recipe'] else '') for v in d['variants']])
PY
/usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/tfft check --tensor-cores --quick --only f16 > $OUT/memcheck-first.txt 2>&1; echo "memcheck rc=$?" >> $OUT/memcheck-first.txt; tail -3 $OUT/memcheck-first.txt
/usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 .gpu/tfft check --tensor-cores --quick --only f16 > $OUT/racecheck-first.txt 2>&1; echo "racecheck rc=$?" >> $OUT/racecheck-first.txt; tail -3 $OUT/racecheck-first.txt
