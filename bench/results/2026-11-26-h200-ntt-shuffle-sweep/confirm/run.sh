#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi -L; exit 3; }
D=$(mktemp -d); cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for l in 6 7 8 9 10 13 14 17 18 19; do
  b=$(( (1<<26) >> l ))
  timeout 60 ./tfft ntt bench --log-n $l --batch $b --reps 30 --json $D/bb-$l.json 2>&1 | grep -E '^babybear' | head -1 | cut -c1-140 >> $D/confirm-bb.txt
  timeout 60 ./tfft ntt bench --field koalabear --log-n $l --batch $b --reps 30 --json $D/kb-$l.json 2>&1 | grep -E '^koalabear' | head -1 | cut -c1-140 >> $D/confirm-bb.txt
done
for l in 7 9 13; do timeout 60 ./tfft ntt bench --log-n $l --batch 1 --reps 30 2>&1 | grep -E '^babybear' | head -1 | cut -c1-140 >> $D/confirm-bb.txt; done
timeout 200 ./tfft ntt bench --quick --json $D/ntt-quick.json --plot $D/ntt-quick.png > $D/bench-quick.txt 2>&1
( time timeout 280 ./tfft ntt check --quick --json $D/check-quick.json ) > $D/check-quick.txt 2>&1
cat $D/confirm-bb.txt; tail -5 $D/check-quick.txt
tar czf $OUT/results.tgz -C $D .
