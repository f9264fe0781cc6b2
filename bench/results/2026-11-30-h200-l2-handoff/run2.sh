#!/bin/bash
# (1) bench/l2_handoff_microbench.cu again, now with the column pass alone at 1 GiB in four tile
# orders and four residencies. Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run2/gpu.txt
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o /tmp/l2_handoff bench/l2_handoff_microbench.cu && timeout 240 /tmp/l2_handoff > $OUT/run2/l2-handoff.txt 2>&1
echo "microbench rc=$?" | tee -a $OUT/run2/rc.txt
cat $OUT/run2/l2-handoff.txt
cd $OUT && tar czf run2.tgz run2
