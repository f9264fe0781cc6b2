#!/bin/bash
# Run 2: why landed input lost (1024: 84% -> 60% of the copy, with or without prefetch):
# Nsight Compute of one forward launch of the tensor-core 1024 kernel, direct and landed.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
P=.gpu/probe-land
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
NCU="/usr/local/cuda/bin/ncu --clock-control none -k regex:tfft_c2c -c 1 --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
TFFT_TC=1 timeout 200 $NCU $P f16 1024 > $OUT/ncu-direct.txt 2>&1
TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 timeout 200 $NCU $P f16 1024 > $OUT/ncu-landed.txt 2>&1
