#!/usr/bin/env bash
# F32Split with two radix-16 stages on the tensor cores and the rest on CUDA-core stages of radix
# <= 8 (Tuning::tensor_stages), against the defaults, multipass_probe, twice.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc-probe
RES=$(mktemp -d)
trap 'tar czf "$OUT/results.tgz" -C "$RES" .' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $RES/gpu.txt
p() { echo "== N=$N $*" >> $RES/probe.txt; env "$@" TFFT_SHOW=1 timeout 60 .gpu/probe f32split $N 2>&1 | grep -v "^c2c\|error bound" >> $RES/probe.txt; }
for rep in 1 2; do
for N in 4096 8192; do
  p X=0; p TFFT_TENSOR_STAGES=2; p TFFT_TENSOR_STAGES=2 TFFT_PERSISTENT=1; p TFFT_TENSOR_STAGES=2 TFFT_PERSISTENT=0
  p TFFT_TENSOR_STAGES=2 TFFT_PAIRS=1; p TFFT_TENSOR_STAGES=2 TFFT_PAIRS=1 TFFT_PERSISTENT=1; p TFFT_TENSOR_STAGES=2 TFFT_MIN_BLOCKS=3
done
N=16384; p X=0; p TFFT_TENSOR_STAGES=2; p TFFT_TENSOR_STAGES=2 TFFT_PAIRS=1; p TFFT_TENSOR_STAGES=3
N=2048; p X=0
done
