#!/bin/bash
# A/B (NOTES step 109): the packed-half F16 single pass computes the inverse as the forward
# arithmetic on values with real and imaginary parts swapped in and out (tfft) against the
# inverse with conjugated twiddles and inverse rotations (tfft-old = HEAD 83a5660).
# Alternating, twice, 2^27 elements per shape; then checks of the new binary; f32/f64
# forward and inverse of the old binary for reference.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for n in 4096 8192 16384 32768; do
    for b in tfft-old tfft; do
      for d in inverse forward; do
        echo "== rep $rep $b f16 $n $d"; .gpu/$b bench --shape $n --precision f16 --direction $d 2>&1 | tail -4
      done
    done
  done
done
for s in 16384 8192; do for p in f32 f64; do for d in forward inverse; do
  echo "== old $p $s $d"; .gpu/tfft-old bench --shape $s --precision $p --direction $d 2>&1 | tail -4
done; done; done
for s in 256 1024 4096 8192 16384 32768 8192x8192 64x16384 16x32768 2x16384 1024x1024; do
  for d in inverse forward; do echo "== check f16 $s $d"; .gpu/tfft check --shape $s --precision f16 --direction $d 2>&1 | tail -4; done
done
