#!/bin/bash
# Run 4 (binary of 0f0c129 = the final library code): the full suite's BF16 rows with the
# tensor cores asked for (single passes 256 … 16384 on them, the rest in f32), and the same
# rows by default (bf16x2) in the same call. Repository root, .gpu/ carried.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-final
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
timeout 280 $T bench --suite full --only bf16 --tensor-cores --json $OUT/bench-bf16-suite-tc.json > $OUT/bench-bf16-suite-tc.txt 2>&1
echo "rc=$?" >> $OUT/bench-bf16-suite-tc.txt
timeout 200 $T bench --suite full --only bf16 --json $OUT/bench-bf16-suite-default.json > $OUT/bench-bf16-suite-default.txt 2>&1
echo "rc=$?" >> $OUT/bench-bf16-suite-default.txt
