#!/bin/bash
# Run 4 (the binary of run 2): `tfft tune` of the other single passes of one block per SM in
# half data: F16 32768 (one 1024-thread block, packed half) and F16 16384 (512 threads, two
# blocks per SM), then `tfft bench` with and without the wisdom, alternating, twice.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-tune2
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
W=$OUT/wisdom-h200-run4.json
timeout 150 $T tune --precision f16 --shape 32768,16384 --wisdom $W > $OUT/tune-f16.txt 2>&1; echo "rc=$?" >> $OUT/tune-f16.txt
for rep in 1 2; do
  for s in 32768 16384; do
    echo "== rep $rep default f16 $s" >> $OUT/bench-ab.txt; timeout 40 $T bench --shape $s --precision f16 >> $OUT/bench-ab.txt 2>&1
    echo "== rep $rep wisdom f16 $s" >> $OUT/bench-ab.txt; timeout 40 $T bench --shape $s --precision f16 --wisdom $W >> $OUT/bench-ab.txt 2>&1
  done
done
