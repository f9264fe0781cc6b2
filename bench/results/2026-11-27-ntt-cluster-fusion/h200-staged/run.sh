#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader
D=$(mktemp -d)
T=.gpu/tfft
R='^(babybear|goldilocks|koalabear|fhe)'
nvidia-smi > $D/gpu.txt
for L in 12 13 16; do $T ntt check --log-n $L --json $D/check-$L.json > $D/check-$L.txt 2>&1; echo "check $L rc=$?"; grep "bit-exact" $D/check-$L.txt; done
for O in NN RR; do
for spec in "babybear 13 1 4" "babybear 13 8192 4" "babybear 14 1 8" "babybear 14 4096 8" "babybear 15 1 8" "babybear 15 2048 8" "goldilocks 12 1 4" "goldilocks 12 8192 4" "goldilocks 13 1 8" "goldilocks 13 4096 8"; do
  set -- $spec
  $T ntt bench --field $1 --log-n $2 --batch $3 --cluster $4 --orders $O --json $D/$O-$1-$2-$3.json 2>&1 | tee $D/$O-$1-$2-$3.txt | grep -E "$R" | head -1
done
done
/usr/local/cuda/bin/compute-sanitizer --tool racecheck $T ntt bench --log-n 13 --batch 4 --reps 20 --cluster 4 --orders NN > $D/racecheck-nn.txt 2>&1; echo race $?; tail -1 $D/racecheck-nn.txt
/usr/local/cuda/bin/compute-sanitizer --tool memcheck $T ntt bench --field goldilocks --log-n 13 --batch 3 --reps 20 --cluster 8 --orders RR > $D/memcheck-rr.txt 2>&1; echo mem $?; tail -1 $D/memcheck-rr.txt
tar czf $OUT/results.tgz -C $D .
