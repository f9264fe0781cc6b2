#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
B=.gpu/tfft
P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
{
for items in 8 16; do for mb in 1 2; do
  echo "== f16 tc items=$items min_blocks=$mb"; TFFT_TC=1 TFFT_ITEMS=$items TFFT_MIN_BLOCKS=$mb $P f16 1048576 1024x1024
  echo "== f32split items=$items min_blocks=$mb"; TFFT_ITEMS=$items TFFT_MIN_BLOCKS=$mb $P f32split 1048576 1024x1024
done; done
} > $D/probe.txt 2>&1
cat $D/probe.txt
for s in 65536 1048576 4194304 1024x1024 4096x4096 512x512x512; do
  $B bench --shape $s --precision f16 --tensor-cores --json $D/f16tc-$s.json > $D/f16tc-$s.txt 2>&1
done
for s in 131072 1048576 4194304 1024x1024; do
  $B bench --shape $s --precision f32split --json $D/f32split-$s.json > $D/f32split-$s.txt 2>&1
done
tar czf $OUT/results.tgz -C $D .
grep -h "^f" $D/f*.txt | sort -u
timeout 200 $B check --quick --tensor-cores --json $D/check-tc.json > $D/check-tc.txt 2>&1
echo "check rc=$?" >> $D/check-tc.txt
tar czf $OUT/results.tgz -C $D .
grep -c " ok " $D/check-tc.txt; grep "^\[" $D/check-tc.txt | grep -v " ok " | head -5
