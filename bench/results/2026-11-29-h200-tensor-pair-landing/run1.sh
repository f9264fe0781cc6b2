#!/bin/bash
# Run 1: the one-warp tensor-core kernels of 512 / 1024 with landed input (cp.async into a
# warp-private shared-memory buffer, two buffers with prefetch: the next group's copies fly
# while this group is transformed). multipass_probe in one process per variant, alternating,
# three times: the tensor-core default (1024: direct, no prefetch, 128 registers; 512: register
# prefetch), landed with prefetch, landed with prefetch at three blocks per SM (512: 80
# registers), landed without prefetch; packed half (the F16 default) once per round.
# Then memcheck / racecheck of the landed kernels, and `tfft bench` of F16 TC vs cuFFT.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-land
P=.gpu/probe-land
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for rep in 1 2 3; do
  echo "== rep $rep tc default" >> $OUT/probe.txt
  TFFT_SHOW=1 TFFT_TC=1 timeout 60 $P f16 1024 512 bf16 1024 >> $OUT/probe.txt 2>&1
  echo "== rep $rep tc landed prefetch" >> $OUT/probe.txt
  TFFT_SHOW=1 TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 timeout 60 $P f16 1024 512 bf16 1024 >> $OUT/probe.txt 2>&1
  echo "== rep $rep tc landed prefetch 3/SM" >> $OUT/probe.txt
  TFFT_SHOW=1 TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 TFFT_MIN_BLOCKS=3 timeout 60 $P f16 512 >> $OUT/probe.txt 2>&1
  echo "== rep $rep tc landed no prefetch" >> $OUT/probe.txt
  TFFT_SHOW=1 TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=0 timeout 60 $P f16 1024 512 >> $OUT/probe.txt 2>&1
  echo "== rep $rep packed half" >> $OUT/probe.txt
  timeout 60 $P f16 1024 512 >> $OUT/probe.txt 2>&1
done
for tool in memcheck racecheck; do
  TFFT_TOTAL=262144 TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool $P f16 1024 512 > $OUT/$tool.txt 2>&1; echo "rc=$?" >> $OUT/$tool.txt
done
for n in 512 1024; do timeout 60 $T bench --n $n --precision f16 --tensor-cores --json $OUT/bench-tc-$n.json > $OUT/bench-tc-$n.txt 2>&1; done
