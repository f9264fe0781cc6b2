#!/usr/bin/env bash
# NTT prefetching blocks: correctness, in-process A/B bench, sanitizers (H200).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
# Correctness first on the new cases only (prefetch forced), then the bench.
timeout 200 ./tfft ntt check --quick --prefetch always --log-n 10 2>&1 | tail -4 | tee "$OUT/check-l10-always.txt"
timeout 300 ./tfft ntt bench --quick --json "$OUT/ntt-bench.json" 2>&1 | grep -v '^\s*$' | tee "$OUT/ntt-bench.txt" | tail -45
