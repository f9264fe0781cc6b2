#!/bin/bash
# Column passes gathered through shared memory (`Tuning::gathered_passes`, TFFT_GATHER=1:
# cp.async, two tiles in flight, persistent grid) against the default direct loads, f32
# 1024², 512², 128³ and 2^20 (its first pass has neighbouring items too), `multipass_probe`
# (2^27 elements, forward, checked against the oracle), variants alternating, two rounds.
# Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run3
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run3/gpu.txt
for round in 1 2; do
  for shape in 1024x1024 512x512 128x128x128 1048576; do
    for v in "A=default" "TFFT_GATHER=1" "TFFT_GATHER=1 TFFT_ITEMS=8" "TFFT_GATHER=1 TFFT_E=16" "TFFT_GATHER=1 TFFT_ITEMS=8 TFFT_E=16"; do
      echo "== round $round $shape $v"
      env $v TFFT_SHOW=1 timeout 60 .gpu/multipass_probe f32 $shape 2>&1 | grep -E "pass 1|ms,|rror" | tail -2
    done
  done
done > $OUT/run3/probe.txt 2>&1
grep -E "^==|ms," $OUT/run3/probe.txt | paste - - | sed -E 's/passes=.*\| //' 
cd $OUT && tar czf run3.tgz run3
