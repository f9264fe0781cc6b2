#!/usr/bin/env bash
# F16 on the tensor-core pair kernel (tensor_pair_fft.cuh; N = 256, 512, 1024 in one warp, 2048 …
# 16384 with Stockham stages after the pair): correctness of the tensor-core cases (random data
# and basis vectors), then the bench row with every tensor-core variant next to the default
# (packed half) and cuFFT, in one process. Usage on the device:
#   NS="256 512" REPS=2 INV=1 bash bench/device-tensor-pairs.sh [check|bench|all|sanitize]
# (writes under $OUT; REPS forward runs and, with INV=1, one inverse run per length)
set -euo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
BIN=${BIN:-.gpu/tfft}
what=${1:-all}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt" || true
if [[ $what == check || $what == all ]]; then
  $BIN check --tensor-cores --quick --only f16 --json "$OUT/check-tc.json" 2>&1 | tail -25 | tee "$OUT/check-tc.txt"
fi
if [[ $what == bench || $what == all ]]; then
  for n in ${NS:-256 512 1024}; do
    for r in $(seq 1 ${REPS:-2}); do
      $BIN bench --n $n --precision f16 --variants-matching tensor_cores=true --json "$OUT/bench-$n-r$r.json" 2>&1 | tail -40 > "$OUT/bench-$n-r$r.txt"
    done
    [[ ${INV:-1} == 1 ]] && $BIN bench --n $n --precision f16 --direction inverse --variants-matching tensor_cores=true --json "$OUT/bench-$n-inv.json" 2>&1 | tail -40 > "$OUT/bench-$n-inv.txt"
  done
fi
if [[ $what == sanitize ]]; then
  SAN=/usr/local/cuda/bin/compute-sanitizer
  for tool in memcheck racecheck; do
    timeout 300 $SAN --tool $tool --error-exitcode 9 $BIN check --tensor-cores --quick --only f16 > "$OUT/$tool.txt" 2>&1
    echo "$tool rc=$?" >> "$OUT/$tool.txt"; tail -3 "$OUT/$tool.txt"
  done
fi
