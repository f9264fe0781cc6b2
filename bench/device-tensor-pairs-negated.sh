#!/usr/bin/env bash
# A/B of the warp-resident tensor-core kernels with -Im F fragments (.gpu/tfft-old) against
# negated data and no -Im F fragments (.gpu/tfft), F16 256 / 512 / 1024, their opt-in default
# launch shapes, same machine; after the tensor-core cases of tfft check on the new binary.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
.gpu/tfft check --tensor-cores --quick --only f16 2>&1 | tail -3 | tee "$OUT/check-tc.txt"
for n in 256 512 1024; do
  m="minblocks=2 prefetch=true twiddles_ahead=true persistent=true"
  [[ $n == 1024 ]] && m="E=32 T=32 B=8 io=Direct(V=4) twiddles=Table exchange=F32 smem=0B minblocks=2 prefetch=false twiddles_ahead=true persistent=true"
  for b in tfft-old tfft; do
    .gpu/$b bench --n $n --precision f16 --reps 20 --variants-matching "$m" --json "$OUT/ab-$n-$b.json" > /dev/null 2>&1
  done
done
python3 - <<'PY'
import json, os
o = os.environ["OUT"]
for n in (256, 512, 1024):
    for b in ("tfft-old", "tfft"):
        r = json.load(open(f"{o}/ab-{n}-{b}.json"))["rows"][0]
        best = max(r["variants"], key=lambda v: v["pct_copy"])
        print(n, b, "h2 %.1f cufft %.1f tc %.1f err %.2e regs %s" % (r["tfft_pct_copy"], r["cufft_pct_copy"], best["pct_copy"], best["rel_l2"],
              [x for x in best["recipe"].split() if x.startswith("regs") or x.startswith("E=")]))
PY
