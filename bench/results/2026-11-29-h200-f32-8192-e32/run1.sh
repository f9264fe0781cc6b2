#!/bin/bash
# Run 1: f32 8192 with 32 values per thread on three 256-thread blocks per SM (cuFFT's shape),
# now spill-free at 80 registers: the radix-32 stage applies its power-of-two twiddles bit by bit
# (v[r] *= w^h for each bit h of r) instead of deriving all 31 first. A/B in one process each,
# alternating: the default (E = 16, 512 threads, two blocks per SM) and E = 32 / radix 32 /
# three blocks per SM, three times; then `tfft bench --n 8192` with cuFFT, twice.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-h32
P=.gpu/probe-h32
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for rep in 1 2 3; do
  echo "== rep $rep default" >> $OUT/probe.txt
  TFFT_SHOW=1 timeout 60 $P f32 8192 >> $OUT/probe.txt 2>&1
  echo "== rep $rep e32 r32 3/SM" >> $OUT/probe.txt
  TFFT_SHOW=1 TFFT_E=32 TFFT_MAX_RADIX=32 TFFT_MIN_BLOCKS=3 timeout 60 $P f32 8192 >> $OUT/probe.txt 2>&1
  echo "== rep $rep e32 r32 3/SM no tw ahead" >> $OUT/probe.txt
  TFFT_TW_AHEAD=0 TFFT_E=32 TFFT_MAX_RADIX=32 TFFT_MIN_BLOCKS=3 timeout 60 $P f32 8192 >> $OUT/probe.txt 2>&1
done
for rep in 1 2; do
  timeout 100 $T bench --n 8192 --precision f32 --json $OUT/bench-$rep.json > $OUT/bench-$rep.txt 2>&1
done
