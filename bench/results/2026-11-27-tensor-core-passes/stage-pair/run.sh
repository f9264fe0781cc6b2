#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
B=.gpu/tfft
P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
TFFT_TC=1 $P f16 4096x4096 2048x2048 4096x64 1048576 > $D/probe.txt 2>&1
cat $D/probe.txt
for s in 65536 1048576 4194304 1024x1024 4096x4096 512x512x512; do
  $B bench --shape $s --precision f16 --tensor-cores --json $D/f16tc-$s.json > $D/f16tc-$s.txt 2>&1
done
for s in 131072 1048576 4194304 1024x1024; do
  $B bench --shape $s --precision f32split --json $D/f32split-$s.json > $D/f32split-$s.txt 2>&1
done
tar czf $OUT/results.tgz -C $D .
grep -h "^f" $D/f*.txt | sort -u
timeout 240 $B check --quick --tensor-cores --json $D/check-tc.json > $D/check-tc.txt 2>&1
echo "check rc=$?" >> $D/check-tc.txt
tar czf $OUT/results.tgz -C $D .
grep -c "ok (" $D/check-tc.txt; grep -i "fail" $D/check-tc.txt | head -5
