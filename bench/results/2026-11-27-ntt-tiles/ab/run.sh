#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
OLD="--max-column 2048 --column-tiles-per-sm 2 --row-tiles-per-sm 2"
timeout 240 $T ntt bench --quick --json $D/quick-new.json > $D/quick-new.txt 2>&1; echo "quick new rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
timeout 240 $T ntt bench --quick $OLD --json $D/quick-old.json > $D/quick-old.txt 2>&1; echo "quick old rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
for rep in 1 2; do
for row in "babybear 18 1" "babybear 21 1" "babybear 23 1" "babybear 22 1" "goldilocks 20 1" "koalabear 22 1"; do
  set -- $row
  for cfg in new old coltiles1; do
    case $cfg in new) flags="";; old) flags="$OLD";; coltiles1) flags="--column-tiles-per-sm 1";; esac
    timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 $flags --json $D/ntt-$1-$2-$3-$cfg-$rep.json > $D/ntt-$1-$2-$3-$cfg-$rep.txt 2>&1; echo "ntt $row $cfg $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  done
done
done
timeout 150 $T ntt check --log-n 22 > $D/check22.txt 2>&1; echo "check22 rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
timeout 100 $T ntt check --log-n 23 > $D/check23.txt 2>&1; echo "check23 rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
tail -4 $D/rc.txt
