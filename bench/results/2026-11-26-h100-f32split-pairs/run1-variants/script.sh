#!/usr/bin/env bash
# F32Split stage pairs: correctness, then every variant per length, F32 and cuFFT beside.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache-split
RES=$OUT/r; mkdir -p $RES
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $RES/gpu.txt
timeout 240 .gpu/tfft-split check --tensor-cores --quick --only f32split --json $RES/check-split.json 2>&1 | tail -6 | tee $RES/check-split.txt
for n in ${NS:-256 512 1024 2048 4096 8192 16384}; do
  timeout 120 .gpu/tfft-split bench --n $n --precision f32split --variants --json $RES/split-$n.json 2>&1 | tail -25 > $RES/split-$n.txt
  timeout 60 .gpu/tfft-split bench --n $n --precision f32 --json $RES/f32-$n.json 2>&1 | tail -6 > $RES/f32-$n.txt
done
tar czf $OUT/results.tgz -C $RES .
