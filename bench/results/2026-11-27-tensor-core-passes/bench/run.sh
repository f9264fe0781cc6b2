#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
B=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
# Benches first (the numbers), then as much of the tensor-core check as fits.
for s in 65536 262144 1048576 4194304 1024x1024 4096x4096 64x64x64 512x512x512; do
  $B bench --shape $s --precision f16 --json $D/f16-$s.json > $D/f16-$s.txt 2>&1
  $B bench --shape $s --precision f16 --tensor-cores --json $D/f16tc-$s.json > $D/f16tc-$s.txt 2>&1
done
for s in 131072 1048576 4194304 1024x1024; do
  $B bench --shape $s --precision f32 --json $D/f32-$s.json > $D/f32-$s.txt 2>&1
  $B bench --shape $s --precision f32split --json $D/f32split-$s.json > $D/f32split-$s.txt 2>&1
done
tar czf $OUT/results.tgz -C $D .
timeout 300 $B check --quick --tensor-cores --json $D/check-tc.json > $D/check-tc.txt 2>&1
echo "check rc=$?" >> $D/check-tc.txt
tar czf $OUT/results.tgz -C $D .
tail -5 $D/check-tc.txt
grep -h "^f" $D/*.txt | head -40
