#!/bin/bash
# Run 3: `tfft ntt bench --quick` with the pointwise product timed in every row (the plan's
# pointwise_mul of two batches, out of place, against the row's copy; its first 2^16 words
# against the CPU), and `tfft ntt check --quick --field fhe62` with the fixed summary line.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
timeout 420 .gpu/tfft-pw2 ntt bench --quick --json $OUT/ntt-quick.json --plot $OUT/ntt-quick.png > $OUT/ntt-quick.txt 2>&1; echo "rc=$?" >> $OUT/ntt-quick.txt
timeout 120 .gpu/tfft-pw2 ntt check --quick --field fhe62 > $OUT/ntt-check-fhe62.txt 2>&1; echo "rc=$?" >> $OUT/ntt-check-fhe62.txt
