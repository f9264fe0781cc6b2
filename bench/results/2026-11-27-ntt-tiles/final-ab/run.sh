#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
OLD="--max-column 2048 --column-tiles-per-sm 2 --row-tiles-per-sm 2"
for rep in 1 2; do
for row in "babybear 22 1" "babybear 23 1" "babybear 24 1" "babybear 22 16" "babybear 20 4" "babybear 21 4" "babybear 16 40" "babybear 17 40" "goldilocks 20 1" "goldilocks 21 1" "goldilocks 22 1" "goldilocks 19 4" "fhe62 16 40"; do
  set -- $row
  for cfg in new old; do
    flags=""; [ $cfg = old ] && flags="$OLD"
    timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 $flags --json $D/ntt-$1-$2-$3-$cfg-$rep.json > $D/ntt-$1-$2-$3-$cfg-$rep.txt 2>&1; echo "ntt $row $cfg $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  done
done
done
timeout 130 $T ntt check --log-n 22 > $D/check22.txt 2>&1; echo "check22 rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
timeout 150 $T ntt check --log-n 24 > $D/check24.txt 2>&1; echo "check24 rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
tail -3 $D/rc.txt
