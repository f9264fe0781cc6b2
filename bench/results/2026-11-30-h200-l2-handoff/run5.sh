#!/bin/bash
# bench/column_width_microbench.cu: the 1024² column pattern as pure copies with 8-byte and
# 16-byte accesses per thread, two residencies. Tool `device`, kind nvidia-h200, carry [".gpu"].
mkdir -p $OUT/run5
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run5/gpu.txt
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o /tmp/column_width bench/column_width_microbench.cu && timeout 120 /tmp/column_width | tee $OUT/run5/column-width.txt
cd $OUT && tar czf run5.tgz run5
