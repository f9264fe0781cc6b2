#!/usr/bin/env bash
# The full FFT suite (`tfft bench --suite full`: every power-of-two 1D length of the cuFFT
# anchors up to 2^26 and their 2D / 3D shapes) on today's code, one precision per process,
# each row beside cuFFT and a device copy in the same process.
# Tool `device`, kind nvidia-h200, carry [".gpu"]. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for p in f32 f16 f64; do
  timeout 185 .gpu/tfft bench --suite full --only $p --json $D/bench-$p.json --plot $D/bench-$p.png > $D/bench-$p.txt 2>&1
  echo "$p rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt; grep -hE "^(f32|f16|f64) " $D/bench-*.txt | head -80
