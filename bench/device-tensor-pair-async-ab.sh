#!/usr/bin/env bash
# A/B of the stage pair's staged input on one machine: PREV (register prefetch of the next
# group's 16-byte chunks) against BIN (cp.async copies a group ahead into a second staging
# buffer), alternating binaries, every stage-pair variant with the default row and cuFFT in each
# process; then `tfft check --tensor-cores --quick --only f16` on BIN. Writes under $OUT.
set -euo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
BIN=${BIN:-.gpu/tfft}
PREV=${PREV:-.gpu/tfft-prev}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt" || true
$BIN check --tensor-cores --quick --only f16 --json "$OUT/check-tc.json" 2>&1 | tail -4 | tee "$OUT/check-tc.txt"
for n in ${NS:-2048 4096 8192}; do
  for r in $(seq 1 ${REPS:-2}); do
    for b in prev new; do
      exe=$BIN; [[ $b == prev ]] && exe=$PREV
      TFFT_CACHE_DIR=/tmp/tfftcache-$b $exe bench --n $n --precision f16 --variants-matching tensor_pair=true \
        --json "$OUT/bench-$n-$b-r$r.json" 2>&1 | tail -30 > "$OUT/bench-$n-$b-r$r.txt"
    done
  done
done
