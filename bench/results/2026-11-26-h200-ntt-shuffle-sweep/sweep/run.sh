#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi -L; exit 3; }
D=$(mktemp -d); cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for r in 1 2; do
  for l in 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21; do
    b=$(( (1<<26) >> l ))
    timeout 60 ./tfft ntt bench --log-n $l --batch $b --reps 30 --json $D/bb-$l-r$r.json 2>&1 | grep -E '^babybear' | cut -c1-140 >> $D/sweep-bb.txt
    b=$(( (1<<25) >> l ))
    timeout 60 ./tfft ntt bench --field goldilocks --log-n $l --batch $b --reps 30 --json $D/gl-$l-r$r.json 2>&1 | grep -E '^goldilocks' | cut -c1-140 >> $D/sweep-gl.txt
  done
  for l in 22 23 24; do
    timeout 60 ./tfft ntt bench --log-n $l --batch 1 --reps 40 --json $D/bb1-$l-r$r.json 2>&1 | grep -E '^babybear' | cut -c1-140 >> $D/single-bb.txt
  done
done
cat $D/sweep-bb.txt $D/sweep-gl.txt $D/single-bb.txt
tar czf $OUT/results.tgz -C $D .
