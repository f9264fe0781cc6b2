#!/usr/bin/env bash
# NOTES step 98: the merged run_direct_to (both decimations) on the device: the full
# `tfft ntt check` in 8 shards, then memcheck on BabyBear 2^22 RN and NR and Goldilocks 2^20
# RN, racecheck on BabyBear 2^12 x 16 RN and Goldilocks 2^11 x 16 RN.
# Tool `device`, kind nvidia-h200, carry [".gpu"] (tfft and device-ntt-check-shards.sh).
set -u
D=$(mktemp -d); export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT_SAVE=$OUT; OUT=$D/check bash .gpu/device-ntt-check-shards.sh 8 170
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "memcheck babybear 22 1 RN" "memcheck babybear 22 1 NR" "memcheck goldilocks 20 1 RN" "racecheck babybear 12 16 RN" "racecheck goldilocks 11 16 RN"; do set -- $c
  echo "== $1 $2 2^$3 x$4 $5" >> $D/sanitizer.txt
  timeout 100 $CS --tool $1 .gpu/tfft ntt bench --field $2 --log-n $3 --batch $4 --orders $5 --reps 20 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard|^$2" | head -8 >> $D/sanitizer.txt
done
tar czf $OUT_SAVE/results.tgz -C $D .
cat $D/check/summary.txt $D/sanitizer.txt
