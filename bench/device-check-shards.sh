#!/usr/bin/env bash
# `tfft check` as M concurrent processes (`--shard K/M`), each under a time limit (tool
# `device`, carry [".gpu"]; copy `tfft` and this script to .gpu/). Usage:
#   bash .gpu/device-check-shards.sh M SECONDS [extra tfft check flags, e.g. --quick]
# Results: $OUT/check-K-of-M.{txt,json}, $OUT/check-summary.txt.
set -u
M=${1:-4}; LIMIT=${2:-540}; shift $(( $# < 2 ? $# : 2 ))
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
for K in $(seq 0 $((M - 1))); do
  timeout "$LIMIT" ./tfft check --shard "$K/$M" --json "$OUT/check-$K-of-$M.json" "$@" \
    > "$OUT/check-$K-of-$M.txt" 2>&1 &
done
wait
for K in $(seq 0 $((M - 1))); do
  f="$OUT/check-$K-of-$M.txt"
  echo "part $K/$M: $(grep -c '^\[.*\] .* ok ' "$f") cases ok, $(grep -c '^\[.*FAILED' "$f") failed; $(grep -E '^PASSED|^FAILED|^skipped|ERROR' "$f" | head -8)"
done | tee "$OUT/check-summary.txt"
