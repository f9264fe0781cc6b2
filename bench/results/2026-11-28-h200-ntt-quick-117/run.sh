#!/bin/bash
# The NTT quick bench after step 117 (its kernels, the baseline on block barriers again), for the README's NTT table.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft-head && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
timeout 540 .gpu/tfft-head ntt bench --quick --json $OUT/ntt-quick.json --plot $OUT/ntt-quick.png > $OUT/ntt-quick.txt 2>&1; echo "rc=$?" >> $OUT/ntt-quick.txt
