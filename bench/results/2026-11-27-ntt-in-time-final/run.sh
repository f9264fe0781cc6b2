#!/usr/bin/env bash
# NOTES step 96, the landed binary: decimation-in-time passes with the planner's rows (2^13,
# 2^14 where that saves a pass) and warp-shuffle stages in RN rows of 128 … 512, against the
# staged passes (--staged-reversed), alternating, two runs; RN against NR over sizes (the
# bench's shuffles column times each row with the other shuffle setting); the full
# `tfft ntt check` on 8 processes; memcheck. Tool `device`, carry [".gpu"]; copy `tfft` and
# the check script to .gpu/. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); T=.gpu/tfft; start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
bench() { # name, flags...
  local name=$1; shift
  timeout 60 $T ntt bench "$@" --json $D/$name.json > $D/$name.txt 2>&1
  echo "$name $* rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
}
for rep in 1 2; do
  for row in "babybear 24 1" "babybear 25 1" "babybear 8 262144"; do
    set -- $row
    bench ab-$1-$2-$3-RN-time-$rep --field $1 --log-n $2 --batch $3 --orders RN
    bench ab-$1-$2-$3-RN-staged-$rep --field $1 --log-n $2 --batch $3 --orders RN --staged-reversed
  done
done
for row in "babybear 7 524288" "babybear 8 262144" "babybear 9 131072" "babybear 10 65536" \
           "babybear 12 16384" "babybear 14 4096" "babybear 16 1024" "babybear 18 256" "babybear 20 64" \
           "babybear 10 1" "babybear 12 1" "babybear 14 1" "babybear 16 1" "babybear 18 1" "babybear 20 1" \
           "babybear 22 1" "babybear 23 1" "babybear 24 1" "goldilocks 16 64" "goldilocks 20 1" "goldilocks 22 1" \
           "fhe62 12 40" "fhe62 16 40" "fhe62 17 40"; do
  set -- $row
  for o in NR RN; do bench survey-$1-$2-$3-$o --field $1 --log-n $2 --batch $3 --orders $o; done
done
mkdir -p $D/check; OUT=$D/check bash .gpu/device-ntt-check-shards.sh 8 170 > /dev/null 2>&1
echo "check t=$(( $(date +%s)-start ))" >> $D/rc.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "babybear 8 4096 RN" "babybear 24 1 RN" "babybear 25 1 RN"; do set -- $c
  echo "== memcheck $1 2^$2 x$3 $4" >> $D/sanitizer.txt
  timeout 100 $CS --tool memcheck $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 --reps 20 2>&1 | grep -E "ERROR SUMMARY|Error|^$1" | head -4 >> $D/sanitizer.txt
done
echo "done t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/check/summary.txt $D/sanitizer.txt
for f in $D/ab-*.txt $D/survey-*.txt; do echo "$(basename $f .txt) $(grep -E '^[a-z0-9]+ +[0-9]+ +[0-9]+' $f | head -1 | cut -c40-)"; done
