#!/usr/bin/env bash
# compute-sanitizer racecheck and synccheck on the landed in-time passes (main after the review
# mends of NOTES step 96). Each `tfft ntt bench` row also runs its plan with the other
# warp-shuffle setting (the forced shuffles by decimation in time) and the block-synchronous
# baseline. Tool `device`, carry [".gpu"]. Results in $OUT/sanitizer.txt.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
CS=/usr/local/cuda/bin/compute-sanitizer; T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
for c in "racecheck babybear 8 64" "racecheck babybear 12 16" "racecheck babybear 16 2" "racecheck goldilocks 11 16" \
         "synccheck babybear 8 64" "synccheck babybear 12 16" "synccheck babybear 16 2" "synccheck goldilocks 11 16"; do
  set -- $c
  echo "== $1 $2 2^$3 x$4 RN" >> $OUT/sanitizer.txt
  timeout 60 $CS --tool $1 $T ntt bench --field $2 --log-n $3 --batch $4 --orders RN --reps 20 2>&1 \
    | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard|Error|^$2" | head -6 >> $OUT/sanitizer.txt
  echo "rc=$?" >> $OUT/sanitizer.txt
done
cat $OUT/sanitizer.txt
