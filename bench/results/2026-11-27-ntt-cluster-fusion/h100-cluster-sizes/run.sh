#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | tee /dev/stderr | grep -q H200 || exit 3
D=$(mktemp -d)
T=.gpu/tfft
R='^(babybear|goldilocks|koalabear|fhe)'
nvidia-smi > $D/gpu.txt
for spec in "babybear 13 8192" "babybear 14 4096" "babybear 15 2048" "babybear 13 1" "babybear 14 1" "goldilocks 12 8192" "goldilocks 13 4096" "goldilocks 12 1" "goldilocks 13 1" "fhe62 12 40" "fhe62 13 40"; do
  set -- $spec
  for C in 2 4 8; do
    $T ntt bench --field $1 --log-n $2 --batch $3 --cluster $C --json $D/$1-$2-$3-c$C.json 2>&1 | tee $D/$1-$2-$3-c$C.txt | grep -E "$R" | head -1
  done
done
tar czf $OUT/results.tgz -C $D .
