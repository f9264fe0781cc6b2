#!/usr/bin/env bash
# 25 ms warm-up before every measurement: spread of one-transform rows between two runs.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
for rep in 1 2; do
  $T ntt bench --quick --json $D/ntt-quick-$rep.json > $D/ntt-quick-$rep.txt 2>&1; echo "ntt quick $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  for c in "--n 65536 --batch 1" "--n 1048576 --batch 1"; do
    name=$(echo "$c" | tr -d ' -' )
    $T bench $c --precision f32 --json $D/fft-$name-$rep.json > $D/fft-$name-$rep.txt 2>&1; echo "fft $c $rep rc=$?" >> $D/rc.txt
  done
done
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt
