#!/usr/bin/env bash
# F32Split defaults A/B: old (pairs at 256 only, per-stage one block per tile) against new
# (one-warp pairs at 256 / 512, persistent prefetching per-stage grids at 1024 ... 8192),
# alternating binaries, default rows with cuFFT fp32 in each process; then the check and the
# Python F32Split test on the new binary.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
RES=$(mktemp -d)
trap 'tar czf "$OUT/results.tgz" -C "$RES" .' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $RES/gpu.txt
TFFT_CACHE_DIR=/tmp/tc-new timeout 200 .gpu/tfft-new check --tensor-cores --quick --only f32split --json $RES/check-split.json 2>&1 | tail -4 > $RES/check-split.txt
for r in 1 2 3; do
  for b in old new; do
    for n in 256 512 1024 2048 4096 8192 16384; do
      TFFT_CACHE_DIR=/tmp/tc-$b timeout 60 .gpu/tfft-$b bench --n $n --precision f32split --json $RES/ab-$b-$n-r$r.json > /dev/null 2>&1
    done
  done
done
PYTHONPATH=python timeout 150 /opt/torch/.venv/bin/python -m pytest -q -p no:cacheprovider python/tests/test_gpu.py -k "f32split" > $RES/py-f32split.txt 2>&1
