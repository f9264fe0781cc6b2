#!/usr/bin/env bash
# f64 four-step twiddles from the slot table (bench/NOTES.md step 69; tool `device`, kind
# nvidia-h200, carry [".gpu"]). Copy `tfft-f64slots` (this commit) and `tfft` (the commit
# before) and this script to .gpu/. $OUT: check.txt (f64 sweep of the new binary), ab.txt
# (alternating benches of f64 rows, old then new, twice; JSONs per run).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 200 ./tfft-f64slots check --quick --only f64 2>&1 | tail -4 | tee "$OUT/check.txt"
for r in 1 2; do for b in old new; do
  bin=./tfft; [ $b = new ] && bin=./tfft-f64slots
  for n in 1048576 262144; do
    timeout 100 $bin bench --n $n --precision f64 --json "$OUT/f64-$n-$b-r$r.json" > "$OUT/f64-$n-$b-r$r.txt" 2>&1
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=(d['rows'] if isinstance(d,dict) else d)[0]; print(sys.argv[2], r['n'], 'tfft %.4f ms %.1f%% cufft %.4f ms %.2fx err %.2e' % (r['tfft_ms'], r['tfft_pct_copy'], r['cufft_ms'], r['speedup_vs_cufft'], r['tfft_rel_l2']))" "$OUT/f64-$n-$b-r$r.json" "$b r$r" | tee -a "$OUT/ab.txt"
  done
done; done
