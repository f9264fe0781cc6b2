#!/usr/bin/env bash
# Correctness sweeps with dependent launches on (the default): $1 = ntt (full NTT check) or fft (tfft check --quick).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
if [ "$1" = ntt ]; then
  timeout 570 $T ntt check --json $D/ntt-check-full.json > $D/ntt-check-full.txt 2>&1; echo "ntt check rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  tail -2 $D/ntt-check-full.txt
else
  timeout 570 $T check --quick --json $D/fft-check-quick.json > $D/fft-check-quick.txt 2>&1; echo "fft check rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  tail -3 $D/fft-check-quick.txt
fi
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt
