#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
B=.gpu/tfft
P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
{
for items in 4 8 16; do
  echo "== f16 tc items=$items"; TFFT_TC=1 TFFT_ITEMS=$items $P f16 1048576 1024x1024 4096x4096
done
} > $D/probe.txt 2>&1
cat $D/probe.txt
for s in 65536 1048576 4194304 1024x1024 4096x4096 512x512x512; do
  $B bench --shape $s --precision f16 --tensor-cores --json $D/f16tc-$s.json > $D/f16tc-$s.txt 2>&1
done
tar czf $OUT/results.tgz -C $D .
grep -h "^f" $D/f*.txt | sort -u
timeout 150 $B check --quick --tensor-cores --precision f16 --json $D/check-tc.json > $D/check-tc.txt 2>&1
echo "check rc=$?" >> $D/check-tc.txt
TFFT_TC=1 TFFT_TOTAL=16777216 timeout 150 /usr/local/cuda/bin/ncu --clock-control none -k regex:strided --launch-skip 4 --launch-count 2 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis_Tables $P f16 1048576 > $D/ncu.txt 2>&1
tar czf $OUT/results.tgz -C $D .
grep -c "ok (" $D/check-tc.txt; grep -i "fail" $D/check-tc.txt | head -5
grep -E "Duration|L1/TEX Cache|way bank" $D/ncu.txt
