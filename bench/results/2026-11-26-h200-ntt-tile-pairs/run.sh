#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi -L; exit 3; }
D=$(mktemp -d); cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for r in 1 2; do
  timeout 220 ./tfft ntt bench --quick --json $D/ntt-r$r.json > $D/bench-r$r.txt 2>&1
done
timeout 100 ./tfft ntt check --log-n 22 --tile-pairs on > $D/check22.txt 2>&1
tail -3 $D/check22.txt
grep -E '^(babybear|koalabear|goldilocks|fhe62)' $D/bench-r1.txt | cut -c1-200
tar czf $OUT/results.tgz -C $D .
