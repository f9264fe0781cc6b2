#!/bin/bash
# Run 3 (the binary of run 2): `tfft tune` of the rows run 2's time limits cut: f64 8192 (one
# 512-thread block per SM, like f32 16384 before step 124) and f32 1024² (0.97-0.98x cuFFT).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-tune2
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
W=$OUT/wisdom-h200-run3.json
timeout 110 $T tune --precision f64 --shape 8192 --wisdom $W > $OUT/tune-f64.txt 2>&1; echo "rc=$?" >> $OUT/tune-f64.txt
timeout 330 $T tune --precision f32 --shape 1024x1024 --wisdom $W > $OUT/tune-f32-1024x1024.txt 2>&1; echo "rc=$?" >> $OUT/tune-f32-1024x1024.txt
