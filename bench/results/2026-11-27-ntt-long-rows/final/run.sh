#!/usr/bin/env bash
# The landed rule of NOTES step 94 (32-bit rows of 2^14 where the row pass comes first, or
# where they save a pass) against its alternatives in the same binary, then the full
# `tfft ntt check` on 8 processes and memcheck on the staged 2^14 row. Tool `device`, carry
# [".gpu"]; copy `tfft` and the scripts to .gpu/. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); T=.gpu/tfft; start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for rep in 1 2; do
  for row in "babybear 24 1 RN 8192" "babybear 24 4 RN 8192" "babybear 24 1 NR 16384" "babybear 25 1 NR 8192" "babybear 25 1 RN 8192"; do
    set -- $row
    for cfg in default alt; do
      flags=""; [ $cfg = alt ] && flags="--max-row $5"
      name=ntt-$1-$2-$3-$4-$cfg-$rep
      timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 $flags --json $D/$name.json > $D/$name.txt 2>&1
      echo "$name $flags rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
    done
  done
done
mkdir -p $D/check; OUT=$D/check bash .gpu/device-ntt-check-shards.sh 8 170 > /dev/null 2>&1
echo "check t=$(( $(date +%s)-start ))" >> $D/rc.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "memcheck babybear 24 1 RN" "memcheck babybear 25 1 NR"; do set -- $c
  echo "== $1 $2 2^$3 x$4 $5" >> $D/sanitizer.txt
  timeout 100 $CS --tool $1 $T ntt bench --field $2 --log-n $3 --batch $4 --orders $5 --reps 20 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard|^$2" | head -8 >> $D/sanitizer.txt
done
echo "done t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt $D/check/summary.txt $D/sanitizer.txt
