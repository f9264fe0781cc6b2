#!/usr/bin/env bash
# F32Split final defaults: check, sanitizers on the pair kernels, A/B against the old defaults
# (three alternations, default rows with cuFFT fp32 and the F32 path in the same processes), the
# Python F32Split test.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
RES=$(mktemp -d)
trap 'tar czf "$OUT/results.tgz" -C "$RES" .' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $RES/gpu.txt
TFFT_CACHE_DIR=/tmp/tc-new timeout 200 .gpu/tfft-new check --tensor-cores --quick --only f32split --json $RES/check-split.json 2>&1 | tail -4 > $RES/check-split.txt
SAN=/usr/local/cuda/bin/compute-sanitizer
for n in 256 512 2048; do
  for tool in memcheck racecheck; do
    echo "== $tool N=$n" >> $RES/sanitize.txt
    TFFT_CACHE_DIR=/tmp/tc-new timeout 100 $SAN --tool $tool .gpu/tfft-new check --n $n --precision f32split --batch 67 2>&1 | tail -4 >> $RES/sanitize.txt
  done
done
for r in 1 2 3; do
  for b in old new; do
    for n in 256 512 1024 2048 4096 8192 16384; do
      TFFT_CACHE_DIR=/tmp/tc-$b timeout 60 .gpu/tfft-$b bench --n $n --precision f32split --json $RES/ab-$b-$n-r$r.json > /dev/null 2>&1
    done
  done
done
for n in 256 512 1024 2048 4096 8192 16384; do
  TFFT_CACHE_DIR=/tmp/tc-new timeout 60 .gpu/tfft-new bench --n $n --precision f32 --json $RES/f32-$n.json > /dev/null 2>&1
done
PYTHONPATH=python timeout 150 /opt/torch/.venv/bin/python -m pytest -q -p no:cacheprovider python/tests/test_gpu.py -k "f32split" > $RES/py-f32split.txt 2>&1
