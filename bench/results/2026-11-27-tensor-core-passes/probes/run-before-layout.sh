#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
P=.gpu/multipass_probe
{
for items in 2 4 8 16; do
  echo "== f16 tc items=$items"; TFFT_TC=1 TFFT_ITEMS=$items TFFT_SHOW=1 $P f16 1048576 1024x1024
  echo "== f32split items=$items"; TFFT_ITEMS=$items $P f32split 1048576
done
echo "== f16 pairs (default)"; $P f16 1048576
} > $D/probe.txt 2>&1
cat $D/probe.txt | grep -v "^  pass\|^c2c"
TFFT_TC=1 TFFT_TOTAL=16777216 timeout 200 /usr/local/cuda/bin/ncu --clock-control none -k regex:strided --launch-skip 4 --launch-count 2 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section LaunchStats $P f16 1048576 > $D/ncu.txt 2>&1
grep -E "Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Block Limit|Stall|Bank|Warp Cycles|Issued|Shared" $D/ncu.txt | head -60
tar czf $OUT/results.tgz -C $D .
