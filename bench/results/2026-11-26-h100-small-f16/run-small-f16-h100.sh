#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 150 ./tfft bench --n 4 --precision f16 --variants-matching warp_shuffles=true --json "$OUT/bench-f16-4.json" 2>&1 | grep -vE '^\s*$|^wrote' | tee -a "$OUT/small.txt"
timeout 150 ./tfft bench --n 4 --precision f16 --variants-matching "T=1 B=256 io=Direct(V=1) twiddles=Table exchange=F16" --json "$OUT/bench-f16-4-direct.json" 2>&1 | grep -vE '^\s*$|^wrote' | tee -a "$OUT/small.txt"
timeout 150 ./tfft bench --n 4 --precision bf16 --variants-matching "exchange=BF16" --json "$OUT/bench-bf16-4.json" 2>&1 | grep -vE '^\s*$|^wrote' | tee -a "$OUT/small.txt"
timeout 100 ./tfft check --n 4 --batch 1001 --precision f16 2>&1 | tail -1 | tee -a "$OUT/small.txt"
