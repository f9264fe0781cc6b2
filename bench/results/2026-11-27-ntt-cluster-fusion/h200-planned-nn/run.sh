#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader
D=$(mktemp -d)
T=.gpu/tfft
R='^(babybear|goldilocks|koalabear|fhe)'
nvidia-smi > $D/gpu.txt
for spec in "babybear 13 1" "babybear 13 8192" "goldilocks 12 1" "goldilocks 12 8192" "goldilocks 13 1" "goldilocks 13 4096"; do
  set -- $spec
  $T ntt bench --field $1 --log-n $2 --batch $3 --orders NN --json $D/planned-NN-$1-$2-$3.json 2>&1 | tee $D/planned-NN-$1-$2-$3.txt | grep -E "$R" | head -1
done
$T ntt check --quick --json $D/check-quick.json > $D/check-quick.txt 2>&1; echo "check rc=$?"; grep -E "bit-exact" $D/check-quick.txt | tail -1
tar czf $OUT/results.tgz -C $D .
