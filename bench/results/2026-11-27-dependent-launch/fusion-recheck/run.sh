#!/usr/bin/env bash
# With dependent launches (default): fused plans against the same passes unfused, per planner rule.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for rep in 1 2; do
for spec in "babybear 13 1 NR" "babybear 13 8192 NR" "babybear 14 1 NR" "babybear 14 4096 NR" "babybear 15 1 NR" "babybear 15 2048 NR" "goldilocks 12 1 NR" "goldilocks 12 8192 NR" "goldilocks 13 1 NR" "goldilocks 13 4096 NR" "fhe62 12 40 NR" "fhe62 13 40 NR" "babybear 13 1 NN" "babybear 13 8192 NN" "goldilocks 12 1 NN" "goldilocks 12 8192 NN" "goldilocks 13 1 NN" "goldilocks 13 4096 NN"; do
  set -- $spec
  $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 --json $D/fused-$4-$1-$2-$3-$rep.json > $D/fused-$4-$1-$2-$3-$rep.txt 2>&1; echo "$spec $rep rc=$?" >> $D/rc.txt
done
done
tar czf $OUT/results.tgz -C $D .
tail -3 $D/rc.txt
