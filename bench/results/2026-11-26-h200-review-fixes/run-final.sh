#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
for a in "babybear 22" "goldilocks 20" "babybear 10" "babybear 16" "goldilocks 11"; do set -- $a
  timeout 150 ./tfft ntt check --quick --field $1 --log-n $2 2>&1 | grep -E "ntt check:|FAIL|ERROR" | sed "s/^/$1 2^$2: /" | tee -a "$OUT/final.txt"
done
for p in f16 bf16; do for sh in 64x4 4x16x4 512x8 4x8 2x2x4; do
  timeout 60 ./tfft check --shape $sh --precision $p 2>&1 | tail -1 | sed "s/^/$p $sh: /" | tee -a "$OUT/final.txt"
done; done
