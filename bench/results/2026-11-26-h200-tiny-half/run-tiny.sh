#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
for p in f16 bf16; do for r in 1 2; do
  timeout 120 ./tfft bench --n 4 --precision $p --variants-matching warp_shuffles=true --json "$OUT/bench-$p-4-r$r.json" 2>&1 | grep -vE '^\s*$|^wrote|^prec|^tfft bench|cuFFT baseline' | tee -a "$OUT/tiny.txt"
done; done
for p in f16 bf16; do for n in 4 2; do
  timeout 100 ./tfft check --n $n --batch 1001 --precision $p 2>&1 | tail -1 | sed "s/^/$p $n: /" | tee -a "$OUT/tiny.txt"
done; done
timeout 200 ./tfft check --quick --rank 1 --precision bf16 2>&1 | tail -2 | tee -a "$OUT/tiny.txt"
