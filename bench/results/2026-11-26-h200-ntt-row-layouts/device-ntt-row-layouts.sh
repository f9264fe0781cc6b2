#!/usr/bin/env bash
# NTT row layouts chosen by the bank model (bench/NOTES.md step 62; tool `device`, kind
# nvidia-h200, carry [".gpu"]). Build here: `tfft` from this commit and `tfft-old` from the
# commit before (one word of padding after every 32 / 16 words); copy both and this script to
# .gpu/. Results in $OUT: check-quick.txt (the new binary, bit-exact sweep), ab.txt and the
# JSONs of alternating quick benches (old, new, old, new).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 240 ./tfft ntt check --quick 2>&1 | tail -6 | tee "$OUT/check-quick.txt"
for r in 1 2; do for b in old new; do
  bin=./tfft; [ $b = old ] && bin=./tfft-old
  echo "== $b rep $r" >> "$OUT/ab.txt"
  timeout 200 $bin ntt bench --quick --json "$OUT/ntt-$b-r$r.json" 2>&1 | grep -E '^(babybear|koalabear|goldilocks|fhe62)' >> "$OUT/ab.txt"
done; done
tail -3 "$OUT/ab.txt"
