#!/usr/bin/env bash
# compute-sanitizer on NTT plans (tool `device`, carry [".gpu"]; copy `tfft` and this script to
# .gpu/): racecheck on three row/column kernels, memcheck on one BabyBear 2^22 (slot-twiddled
# column pass), Goldilocks 2^20 and BabyBear 2^13 x 100. Results in
# $OUT/sanitizer.txt; `full` instead runs the full `tfft ntt check` ($OUT/ntt-check-full.*).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
if [ "${1:-}" = full ]; then
  timeout 560 ./tfft ntt check --json "$OUT/ntt-check-full.json" 2>&1 | tail -8 | tee "$OUT/ntt-check-full.txt"
  exit 0
fi
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "racecheck babybear 10 64" "racecheck babybear 16 4" "racecheck goldilocks 11 16" "memcheck babybear 22 1" "memcheck goldilocks 20 1" "memcheck babybear 13 100"; do set -- $c
  echo "== $1 $2 2^$3 x$4" | tee -a "$OUT/sanitizer.txt"
  timeout 150 $CS --tool $1 ./tfft ntt bench --field $2 --log-n $3 --batch $4 --reps 20 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard|^$2" | head -8 | tee -a "$OUT/sanitizer.txt"
done
