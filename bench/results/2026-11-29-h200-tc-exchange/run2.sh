#!/bin/bash
# Run 2: launch shapes of the one-warp tensor-core kernels (F16 256 / 512, BF16 256) now that they
# fit 80 registers without spills (three blocks per SM), against their defaults and the packed
# half / bf16x2 defaults, three alternations (multipass_probe, 2^27 elements, forward).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log2.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
P() { echo -n "$1 | " >> $L; shift; env "$@" timeout 30 .gpu/probe-x $PR $N 2>&1 | grep "% of copy\|rror" | sed 's/passes=.*err=/err=/' >> $L; }
for rep in 1 2 3; do
  echo "== rep $rep" >> $L
  PR=f16; N=256
  P "f16 256 packed half       " X=1
  P "f16 256 tc default        " TFFT_TC=1
  P "f16 256 tc e16 mb3 pf1    " TFFT_TC=1 TFFT_MIN_BLOCKS=3 TFFT_PREFETCH=1
  P "f16 256 tc e16 mb3 np     " TFFT_TC=1 TFFT_MIN_BLOCKS=3 TFFT_PREFETCH=0 TFFT_PERSISTENT=0
  P "f16 256 tc e8 mb4 np      " TFFT_TC=1 TFFT_E=8 TFFT_MIN_BLOCKS=4 TFFT_PREFETCH=0 TFFT_PERSISTENT=0
  P "f16 256 tc e8 mb3 pf1     " TFFT_TC=1 TFFT_E=8 TFFT_MIN_BLOCKS=3 TFFT_PREFETCH=1
  N=512
  P "f16 512 packed half       " X=1
  P "f16 512 tc default        " TFFT_TC=1
  P "f16 512 tc mb3 pf0        " TFFT_TC=1 TFFT_MIN_BLOCKS=3 TFFT_PREFETCH=0
  P "f16 512 tc mb3 np         " TFFT_TC=1 TFFT_MIN_BLOCKS=3 TFFT_PREFETCH=0 TFFT_PERSISTENT=0
  PR=bf16; N=256
  P "bf16 256 bf16x2           " X=1
  P "bf16 256 tc default       " TFFT_TC=1
  P "bf16 256 tc e16 mb3 pf1   " TFFT_TC=1 TFFT_MIN_BLOCKS=3 TFFT_PREFETCH=1
done
