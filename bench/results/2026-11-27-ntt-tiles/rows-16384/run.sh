#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
for rep in 1 2; do
for row in "babybear 24 1" "babybear 24 4" "goldilocks 24 1"; do
  set -- $row
  for cfg in new row16k; do
    flags=""; [ $cfg = row16k ] && flags="--max-row 16384"
    timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 $flags --json $D/ntt-$1-$2-$3-$cfg-$rep.json > $D/ntt-$1-$2-$3-$cfg-$rep.txt 2>&1; echo "ntt $row $cfg $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  done
done
done
tar czf $OUT/results.tgz -C $D .
tail -2 $D/rc.txt
