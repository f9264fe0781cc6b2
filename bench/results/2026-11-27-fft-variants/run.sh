#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
$T bench --n 8192 --precision f32 --variants --json $D/variants-f32-8192.json > $D/variants-f32-8192.txt 2>&1; echo "v8192 rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
$T bench --n 4096 --precision f64 --variants --json $D/variants-f64-4096.json > $D/variants-f64-4096.txt 2>&1; echo "v4096 rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
for rep in 1 2; do
$T bench --shape 1024x1024 --precision f32 --json $D/f32-1024x1024-$rep.json > $D/f32-1024x1024-$rep.txt 2>&1; echo "2d rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
for env in "X=0" "TFFT_ITEMS=4" "TFFT_ITEMS=16" "TFFT_E=16" "TFFT_ITEMS=16 TFFT_E=16" "TFFT_MIN_BLOCKS=2" "TFFT_MIN_BLOCKS=4" "TFFT_ITEMS=4 TFFT_MIN_BLOCKS=6" "TFFT_PERSISTENT=1" "TFFT_PREFETCH=1" "TFFT_PAIRED=1"; do
  echo "== $env" >> $D/probe-1024x1024.txt
  env $env timeout 60 $P f32 1024x1024 >> $D/probe-1024x1024.txt 2>&1; echo "probe $env rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt
