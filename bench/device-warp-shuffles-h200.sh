#!/usr/bin/env bash
# The H200 A/B of the FFT warp-shuffle defaults (bench/NOTES.md steps 57 and 60; tool `device`,
# kind nvidia-h200, carry [".gpu"]). Build here: `tfft-ab` with `measured_faster` in
# plan/warp_shuffles.rs returning false (every default row the Stockham kernel, the shuffle
# recipe its variant) and `tfft` as committed; copy both and this script to .gpu/.
# Results in $OUT: ab-h200.txt (+ JSON tar), defaults-h200.txt (the committed planner's rows
# against cuFFT and a correctness check of each at batch 1001).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in $(seq 1 "${1:-1}"); do for pn in f32:32 f32:64 f16:4 f16:8 f16:16 f16:64 bf16:8 f64:16; do
  ./tfft-ab bench --n "${pn#*:}" --precision "${pn%:*}" --variants-matching warp_shuffles=true --json "$OUT/ab-r$r-${pn%:*}-${pn#*:}.json" 2>&1 | grep -vE '^\s*$|tfft bench|^wrote' >> "$OUT/ab-h200.txt"
done; done
tar -C "$OUT" -cf "$OUT/ab-h200-json.tar" $(cd "$OUT"; ls ab-r*.json) && rm "$OUT"/ab-r*.json
for pn in f32:32 f16:4 f16:8 f16:16 bf16:4 bf16:8; do
  ./tfft bench --n "${pn#*:}" --precision "${pn%:*}" 2>&1 | grep -E '^(f|b)[0-9a-z]* +[0-9]' | head -1
  ./tfft check --n "${pn#*:}" --batch 1001 --precision "${pn%:*}" 2>&1 | tail -1
done | tee "$OUT/defaults-h200.txt"
