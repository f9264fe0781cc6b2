#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi -L; exit 3; }
D=$(mktemp -d); cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
TFFT_NTT_R1024=1 timeout 60 ./tfft ntt check --log-n 10 > $D/check10.txt 2>&1
TFFT_NTT_R1024=1 timeout 60 ./tfft ntt check --log-n 20 > $D/check20.txt 2>&1
for r in 1 2; do for e in 0 1; do
  for row in "10 65536" "20 64" "19 128" "21 32" "20 1" "10 1"; do set -- $row
    echo "r1024=$e $(TFFT_NTT_R1024=$e timeout 30 ./tfft ntt bench --log-n $1 --batch $2 --reps 30 2>&1 | grep -E '^babybear' | head -1 | cut -c1-125)" >> $D/r1024.txt
  done
done; done
tail -1 $D/check10.txt $D/check20.txt; sort -k4,4n -k5,5n -k1,1 $D/r1024.txt
tar czf $OUT/results.tgz -C $D .
