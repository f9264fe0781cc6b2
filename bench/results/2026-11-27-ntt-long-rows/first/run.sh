#!/usr/bin/env bash
# NTT rows of 2^14 32-bit words (NOTES step 94): the landed planner (2^24 as 2^10 x 2^14,
# 2^25 in two passes) against rows bounded at 2^13 (`--max-row 8192`, the plans before), in
# the same process order, alternating; then the full `tfft ntt check` on 8 processes and
# compute-sanitizer on the new 2^24 plans. Tool `device`, carry [".gpu"]; copy `tfft` and the
# scripts to .gpu/. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); T=.gpu/tfft; start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for rep in 1 2; do
  for row in "babybear 24 1 NR" "babybear 24 4 NR" "babybear 25 1 NR" "koalabear 24 1 NR" "babybear 24 1 RN"; do
    set -- $row
    [ "$4" = RN ] && [ $rep = 2 ] && continue
    for cfg in new old; do
      flags=""; [ $cfg = old ] && flags="--max-row 8192"
      name=ntt-$1-$2-$3-$4-$cfg-$rep
      timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 $flags --json $D/$name.json > $D/$name.txt 2>&1
      echo "$name rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
    done
  done
done
mkdir -p $D/check; OUT=$D/check bash .gpu/device-ntt-check-shards.sh 8 150 > /dev/null 2>&1
echo "check t=$(( $(date +%s)-start ))" >> $D/rc.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "memcheck babybear 24 1 NR" "racecheck babybear 24 1 RN" "memcheck babybear 24 2 NN"; do set -- $c
  echo "== $1 $2 2^$3 x$4 $5" >> $D/sanitizer.txt
  timeout 100 $CS --tool $1 $T ntt bench --field $2 --log-n $3 --batch $4 --orders $5 --reps 20 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard|^$2" | head -8 >> $D/sanitizer.txt
done
echo "done t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt $D/check/summary.txt $D/sanitizer.txt
