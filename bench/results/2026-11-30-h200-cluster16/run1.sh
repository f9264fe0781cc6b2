#!/bin/bash
# Cluster passes on 16 blocks (sm_90's non-portable size, TFFT_CLUSTER=16) against the defaults
# (two passes, or 8 / 4 blocks) and 8 blocks, `multipass_probe` (2^27 elements, f64 2^26;
# forward, checked against the oracle), alternating, two rounds. Tool `device`, kind
# nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run1
gunzip -f .gpu/*.gz 2>/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run1/gpu.txt
for round in 1 2; do
  for row in "f32 65536" "f32 32768" "f32 131072" "f16 65536" "f16 131072" "f64 32768" "f64 16384"; do
    for v in "A=default" "TFFT_CLUSTER=8" "TFFT_CLUSTER=16" "TFFT_CLUSTER=16 TFFT_MIN_BLOCKS=2"; do
      echo "== round $round $row $v"
      env $v timeout 60 .gpu/multipass_probe $row 2>&1 | tail -1
    done
  done
done > $OUT/run1/probe.txt 2>&1
grep -E "^==|ms," $OUT/run1/probe.txt | paste - - | sed -E 's/ x[0-9]+: passes=/ p=/; s/ err=.*\| / | /; s/ GB.s, / /; s/\(.*//'
cd $OUT && tar czf run1.tgz run1
