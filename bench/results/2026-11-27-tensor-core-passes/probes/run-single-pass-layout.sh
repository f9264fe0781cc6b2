#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
P=.gpu/multipass_probe
{
for items in 4 8 16; do
  echo "== f16 tc items=$items"; TFFT_TC=1 TFFT_ITEMS=$items $P f16 1048576 1024x1024
done
for items in 2 4 8; do
  echo "== f32split items=$items"; TFFT_ITEMS=$items $P f32split 1048576 1024x1024
done
echo "== f16 pairs (default)"; $P f16 1048576
echo "== f32 (default)"; $P f32 1048576
} > $D/probe.txt 2>&1
cat $D/probe.txt
TFFT_TC=1 TFFT_TOTAL=16777216 timeout 200 /usr/local/cuda/bin/ncu --clock-control none -k regex:strided --launch-skip 4 --launch-count 2 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section SchedulerStats $P f16 1048576 > $D/ncu.txt 2>&1
grep -E "Duration|L1/TEX Cache|Registers Per|Warp Cycles Per Issued|way bank|Issue Slots|Eligible" $D/ncu.txt | head -30
tar czf $OUT/results.tgz -C $D .
