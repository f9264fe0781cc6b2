#!/bin/bash
# Probe (NOTES step 108): the packed-half single-pass kernel with derived twiddles (only the
# power-of-two rows of each stage's table loaded, the others f16x2 products) against the full
# table. TFFT_DERIVED=1 / 0, alternating, twice; 2^27 elements per shape; relative L2 error of
# the first and last transform against the f64 oracle.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for n in 1024 2048 4096 8192 16384; do
    for d in 0 1; do echo "== rep $rep f16 $n derived=$d"; TFFT_DERIVED=$d $P f16 $n; done
  done
done
