#!/usr/bin/env bash
# Values per thread of staged NTT passes (bit-reversed input, or natural output): 8 (the
# planner's), 16 and 32, through the experiment's TFFT_NTT_STAGED_VALUES, alternating by
# process, two runs; then the full `tfft ntt check` at 16 and 32. Tool `device`, carry
# [".gpu"]; copy `tfft` and the scripts to .gpu/. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); T=.gpu/tfft; start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for rep in 1 2; do
  for row in "babybear 24 1 RN" "babybear 22 1 RN" "babybear 20 64 RN" "babybear 22 1 NN" "goldilocks 22 1 RN" "babybear 16 40 RN"; do
    set -- $row
    for v in 8 16 32; do
      name=ntt-$1-$2-$3-$4-v$v-$rep
      TFFT_NTT_STAGED_VALUES=$v timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 --json $D/$name.json > $D/$name.txt 2>&1
      echo "$name rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
    done
  done
done
for v in 16 32; do
  mkdir -p $D/check-v$v; TFFT_NTT_STAGED_VALUES=$v OUT=$D/check-v$v bash .gpu/device-ntt-check-shards.sh 8 170 > /dev/null 2>&1
  echo "check v$v t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt | tail -4; cat $D/check-v*/summary.txt
