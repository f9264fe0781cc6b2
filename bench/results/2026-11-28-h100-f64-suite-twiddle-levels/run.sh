#!/usr/bin/env bash
# Called for the H200, ran on an H100 (none lent): (1) the f64 suite with three-level twiddle tables (.gpu/tfft); (2) f64 2^26 x 1
# and 2^18 x 256 (the suite's batches), db7c9e7 (.gpu/tfft-base) against the new binary,
# alternating, twice; (3) f64 2^18 under multipass_probe (new binary) with 4 items per tile
# (TFFT_ITEMS=4) against the default 8, alternating, twice.
# Tool `device`, kind nvidia-h200, carry [".gpu"]. Results in $OUT/results.tgz.
set -u
gunzip -f .gpu/tfft.gz .gpu/tfft-base.gz .gpu/multipass_probe.gz; chmod +x .gpu/tfft .gpu/tfft-base .gpu/multipass_probe
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
timeout 185 .gpu/tfft bench --suite full --only f64 --json $D/bench-f64.json --plot $D/bench-f64.png > $D/bench-f64.txt 2>&1
echo "f64 suite rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
for rep in 1 2; do
  for b in tfft-base tfft; do
    for c in "67108864 1" "262144 256"; do
      set -- $c
      timeout 40 .gpu/$b bench --n $1 --batch $2 --precision f64 --json $D/ab-$b-$1-$rep.json > $D/ab-$b-$1-$rep.txt 2>&1
      echo "ab $b $1 $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
    done
  done
  for items in 4 8; do
    TFFT_ITEMS=$items timeout 40 .gpu/multipass_probe f64 262144 > $D/probe-items$items-$rep.txt 2>&1
    echo "probe items $items $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  done
done
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; grep -h "^f64 " $D/bench-f64.txt | head -22; grep -h "^f64 " $D/ab-*.txt | sort -u; grep -h "of copy" $D/probe-*.txt
