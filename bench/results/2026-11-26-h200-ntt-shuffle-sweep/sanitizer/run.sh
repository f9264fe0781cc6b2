#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi -L; exit 3; }
D=$(mktemp -d); cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "racecheck babybear 7 64" "racecheck koalabear 9 16" "racecheck babybear 13 4" "memcheck babybear 13 64" "memcheck babybear 18 2"; do set -- $c
  echo "== $1 $2 2^$3 x$4" >> $D/sanitizer.txt
  timeout 100 $CS --tool $1 ./tfft ntt bench --field $2 --log-n $3 --batch $4 --reps 20 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard|^$2" | head -8 >> $D/sanitizer.txt
done
cat $D/sanitizer.txt
tar czf $OUT/results.tgz -C $D .
