#!/usr/bin/env bash
# NOTES step 96, last part: the thread twiddle table of row passes laid out [m][t] and no warp
# shuffles by decimation in time (`tfft`, the landed binary) against the binary of
# `2026-11-27-ntt-in-time-final/` (`tfft-prev`: [t][m], shuffles in RN rows of 128 … 512),
# alternating, two runs; then the full `tfft ntt check` on 8 processes and memcheck with the
# landed binary. Tool `device`, carry [".gpu"]. Results in $OUT/results.tgz.
set -u
[ -f .gpu/tfft-prev.gz ] && gunzip -f .gpu/tfft-prev.gz && chmod +x .gpu/tfft-prev
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for rep in 1 2; do
  for row in "babybear 20 1" "babybear 22 1" "babybear 24 1" "goldilocks 20 1" "goldilocks 22 1" \
             "babybear 20 64" "fhe62 16 40" "babybear 8 262144" "babybear 14 1"; do
    set -- $row
    for bin in tfft tfft-prev; do
      name=ntt-$1-$2-$3-RN-$bin-$rep
      timeout 60 .gpu/$bin ntt bench --field $1 --log-n $2 --batch $3 --orders RN --json $D/$name.json > $D/$name.txt 2>&1
      echo "$name rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
    done
  done
done
mkdir -p $D/check; OUT=$D/check bash .gpu/device-ntt-check-shards.sh 8 170 > /dev/null 2>&1
echo "check t=$(( $(date +%s)-start ))" >> $D/rc.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "babybear 22 1 RN" "goldilocks 20 4 RN"; do set -- $c
  echo "== memcheck $1 2^$2 x$3 $4" >> $D/sanitizer.txt
  timeout 100 $CS --tool memcheck .gpu/tfft ntt bench --field $1 --log-n $2 --batch $3 --orders $4 --reps 20 2>&1 | grep -E "ERROR SUMMARY|Error|^$1" | head -4 >> $D/sanitizer.txt
done
echo "done t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/check/summary.txt $D/sanitizer.txt
for f in $D/ntt-*.txt; do echo "$(basename $f .txt) $(grep -E '^[a-z0-9]+ +[0-9]+ +[0-9]+' $f | head -1 | cut -c40-)"; done
