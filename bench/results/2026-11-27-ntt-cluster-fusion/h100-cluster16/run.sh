#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader
D=$(mktemp -d)
T=.gpu/tfft
R='^(babybear|goldilocks|koalabear|fhe)'
nvidia-smi > $D/gpu.txt
for L in 14 16; do $T ntt check --log-n $L --json $D/check-$L.json > $D/check-$L.txt 2>&1; echo "check $L rc=$?"; tail -1 $D/check-$L.txt; grep -c "cluster=16" $D/check-$L.txt; done
for spec in "babybear 15 1" "babybear 15 2048" "babybear 16 1" "babybear 16 1024" "babybear 17 1" "babybear 17 512" "goldilocks 14 1" "goldilocks 14 2048" "goldilocks 15 1" "goldilocks 15 1024" "goldilocks 16 1" "goldilocks 16 512" "fhe62 14 40" "fhe62 15 40" "fhe62 16 40"; do
  set -- $spec
  for C in 8 16; do
    $T ntt bench --field $1 --log-n $2 --batch $3 --cluster $C --json $D/$1-$2-$3-c$C.json 2>&1 | tee $D/$1-$2-$3-c$C.txt | grep -E "$R" | head -1
  done
done
tar czf $OUT/results.tgz -C $D .
