#!/bin/bash
# The NTT quick bench at the commit after step 115 (kernels as in 186354a, after steps 113-114), for the README's NTT table.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
timeout 540 .gpu/tfft ntt bench --quick --json $OUT/ntt-quick.json --plot $OUT/ntt-quick.png > $OUT/ntt-quick.txt 2>&1; echo "rc=$?" >> $OUT/ntt-quick.txt
