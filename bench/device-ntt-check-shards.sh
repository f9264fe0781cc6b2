#!/usr/bin/env bash
# The full `tfft ntt check` as M concurrent processes (`--shard K/M`), each under a time limit
# (tool `device`, carry [".gpu"]; copy `tfft` and this script to .gpu/). Usage:
#   bash .gpu/device-ntt-check-shards.sh M SECONDS [extra tfft ntt check flags]
# Results: $OUT/ntt-check-K-of-M.{txt,json}, $OUT/summary.txt.
set -u
M=${1:-8}; LIMIT=${2:-540}; shift $(( $# < 2 ? $# : 2 ))
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
for K in $(seq 0 $((M - 1))); do
  timeout "$LIMIT" ./tfft ntt check --shard "$K/$M" --json "$OUT/ntt-check-$K-of-$M.json" "$@" \
    > "$OUT/ntt-check-$K-of-$M.txt" 2>&1 &
done
wait
for K in $(seq 0 $((M - 1))); do
  f="$OUT/ntt-check-$K-of-$M.txt"
  echo "part $K/$M: $(grep -c '^ok ' "$f") cases ok; $(grep -E '^ntt check:|^FAIL|^ERROR' "$f" | head -5)"
done | tee "$OUT/summary.txt"
