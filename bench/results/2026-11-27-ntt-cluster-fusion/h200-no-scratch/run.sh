#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader
D=$(mktemp -d)
T=.gpu/tfft
for L in 12 13; do $T ntt check --log-n $L --json $D/check-$L.json > $D/check-$L.txt 2>&1; echo "check $L rc=$?"; grep "bit-exact" $D/check-$L.txt; done
$T ntt bench --field goldilocks --log-n 12 --batch 1 --orders NN 2>&1 | grep -E "^goldilocks" | head -1
tar czf $OUT/results.tgz -C $D .
