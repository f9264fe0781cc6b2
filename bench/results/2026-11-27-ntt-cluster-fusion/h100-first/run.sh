#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | tee /dev/stderr | grep -q H200 || exit 3
D=$(mktemp -d)
T=.gpu/tfft
R='^(babybear|goldilocks|koalabear|fhe)'
nvidia-smi > $D/gpu.txt
for L in 13 16; do $T ntt check --log-n $L --json $D/check-$L.json > $D/check-$L.txt 2>&1; echo "check $L rc=$?"; grep -E "WRONG|wrong|ERROR|error|passed|exact" $D/check-$L.txt | tail -3; done
for L in 13 14 15 16 17 18; do $T ntt bench --log-n $L --batch 1 --json $D/bb1-$L.json 2>&1 | tee $D/bb1-$L.txt | grep -E "$R"; done
for L in 13 14 15 16 17; do $T ntt bench --log-n $L --batch $((1<<(26-L))) --json $D/bbB-$L.json 2>&1 | tee $D/bbB-$L.txt | grep -E "$R"; done
for L in 12 13 14 15 16; do $T ntt bench --field goldilocks --log-n $L --batch 1 --json $D/gl1-$L.json 2>&1 | tee $D/gl1-$L.txt | grep -E "$R"; done
for L in 12 14 16; do $T ntt bench --field goldilocks --log-n $L --batch $((1<<(25-L))) --json $D/glB-$L.json 2>&1 | tee $D/glB-$L.txt | grep -E "$R"; done
for C in 2 4 8; do for B in 1 1024; do $T ntt bench --log-n 16 --batch $B --cluster $C --json $D/c$C-16-$B.json 2>&1 | tee $D/c$C-16-$B.txt | grep -E "$R"; done; done
tar czf $OUT/results.tgz -C $D .
