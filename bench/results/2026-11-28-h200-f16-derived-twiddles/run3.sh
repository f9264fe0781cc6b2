#!/bin/bash
# Checks (NOTES step 108) of the final binary (e262cf7: the shared derivation loop): f16 shapes
# whose passes now take derived twiddles in packed half arithmetic, 1D and the rows of 2D.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in 8192 16384 32768 8192x8192 64x16384 16x32768 2x16384; do
  timeout 60 .gpu/tfft check --shape $s --precision f16 2>&1 | tail -2
done
