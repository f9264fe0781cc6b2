#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi -L; exit 3; }
D=$(mktemp -d); cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for r in 1 2; do
for cfg in "0 64" "1 64" "1 40" "1 32"; do set -- $cfg
  for row in "22 1" "24 1" "22 16" "11 32768" "24 4" "12 16384" "13 8192"; do set -- $1 $2 $row
    echo "v16=$1 regs=$2 $(TFFT_NTT_V16=$1 TFFT_NTT_REGS=$2 timeout 60 ./tfft ntt bench --log-n $3 --batch $4 --reps 40 2>&1 | grep -E '^babybear' | cut -c1-120)" >> $D/v16.txt
  done
done; done
sort -k3,3 -k4 $D/v16.txt | awk '{print}' | head -80
tar czf $OUT/results.tgz -C $D .
