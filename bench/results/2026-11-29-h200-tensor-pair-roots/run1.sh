#!/bin/bash
# Run 1: the one-warp tensor-core kernels' last stage with w_N^(a base) read once per transform
# and the slot's w_N^(a o) as compile-time constants (3 table reads per lane and transform at
# 1024 instead of 24). multipass_probe, old (f893359) and new binaries alternating, three
# times; then tfft check of the tensor-core F16 / BF16 / F32Split cases, memcheck, and
# tfft bench --tensor-cores of 512 / 1024 (F16, BF16).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-cr
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for rep in 1 2 3; do
  for b in old cr; do
    echo "== rep $rep $b" >> $OUT/probe.txt
    TFFT_TC=1 timeout 60 .gpu/probe-$b f16 1024 512 bf16 1024 512 >> $OUT/probe.txt 2>&1
  done
done
(timeout 240 $T check --tensor-cores --quick --only f16,bf16 --json $OUT/check-tc.json > $OUT/check-tc.txt 2>&1; echo "rc=$?" >> $OUT/check-tc.txt)
(timeout 120 $T check --tensor-cores --quick --only f32split --json $OUT/check-split.json > $OUT/check-split.txt 2>&1; echo "rc=$?" >> $OUT/check-split.txt)
TFFT_TOTAL=262144 TFFT_TC=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck .gpu/probe-cr f16 1024 512 > $OUT/memcheck.txt 2>&1; echo "rc=$?" >> $OUT/memcheck.txt
for p in f16 bf16; do for n in 512 1024; do
  timeout 60 $T bench --n $n --precision $p --tensor-cores --json $OUT/bench-$p-$n.json > $OUT/bench-$p-$n.txt 2>&1
done; done
