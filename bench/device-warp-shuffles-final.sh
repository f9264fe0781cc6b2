#!/usr/bin/env bash
# The final check of bench/NOTES.md step 57 (run as .gpu/device-warp-shuffles-final.sh with the
# committed `tfft` in .gpu/): n-D shapes whose contiguous axis runs the warp-shuffle kernel by
# default, and the small 1D rows of f16 and f32 against cuFFT.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for p in f16 bf16 f32; do
  for s in 64x4 4x8 512x8 32x16 16x32 8x8x8 4x16x4 2x2x32; do
    ./tfft check --shape "$s" --batch 5 --precision "$p" --json "$OUT/c.json" 2>&1 | tail -1 | sed "s/^/$p $s: /"
  done
done | tee "$OUT/check-nd.txt"
for pn in f16:4 f16:8 f16:16 f16:32 f16:64 f16:256 f16:1024 f16:4096 bf16:4 bf16:8 bf16:16 f32:16 f32:32 f32:64; do
  ./tfft bench --n "${pn#*:}" --precision "${pn%:*}" --json "$OUT/b-${pn%:*}-${pn#*:}.json" 2>&1 | grep -E '^(f|b)[0-9a-z]* +[0-9]' | head -1
done | tee "$OUT/bench-small.txt"
tar -C "$OUT" -cf "$OUT/bench-small-json.tar" $(cd "$OUT"; ls b-*.json) && rm "$OUT"/b-*.json "$OUT/c.json"
