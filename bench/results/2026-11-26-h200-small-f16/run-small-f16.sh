#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
for a in "f16 4 warp_shuffles=true" "bf16 4 exchange=BF16" "bf16 8 exchange=BF16"; do set -- $a
  timeout 150 ./tfft bench --n $2 --precision $1 --variants-matching $3 --json "$OUT/bench-$1-$2.json" 2>&1 | grep -vE '^\s*$|^wrote' | tee -a "$OUT/small.txt"
done
for a in "f16 4" "bf16 4" "f16 2" "bf16 2"; do set -- $a
  timeout 100 ./tfft check --n $2 --batch 1001 --precision $1 2>&1 | tail -1 | sed "s/^/$1 $2: /" | tee -a "$OUT/small.txt"
done
