#!/bin/bash
# A/B (NOTES step 108): tfft-base (f16 packed half reads every table row) against tfft (derived
# twiddles from N = 8192), `tfft bench --shape N --precision f16` forward and inverse, alternating,
# twice; then `tfft check` of the changed sizes with the new binary.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz
mkdir -p /tmp/ab; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for n in 8192 16384 32768; do
    for b in tfft-base tfft; do
      for dir in forward inverse; do
        .gpu/$b bench --shape $n --precision f16 --direction $dir --json /tmp/ab/ab-$b-$n-$dir-r$rep.json > /dev/null 2>&1
        python3 -c "import json,sys;r=json.load(open('/tmp/ab/ab-$b-$n-$dir-r$rep.json'))['rows'][0];print('$b $n $dir r$rep', round(r['tfft_ms'],4), round(r['tfft_pct_copy'],1), round(r['cufft_pct_copy'],1), round(r['speedup_vs_cufft'],2), '%.2e %.2e'%(r['tfft_rel_l2'],r['cufft_rel_l2']))"
      done
    done
  done
done
for n in 8192 16384 32768; do .gpu/tfft check --shape $n --precision f16 2>&1 | tail -2; done
tar czf $OUT/ab-json.tar.gz -C /tmp ab
