#!/usr/bin/env bash
# H200: f64 passes of 256 without a twiddle on 16 values per thread and 16 items (step 105;
# new = .gpu/tfft) against step 104 (.gpu/tfft-base): tfft bench of the f64 rows whose plan
# changed (32768 becomes one cluster pass), alternating, twice; then tfft check of them (new).
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/tfft-base
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
ROWS="65536 4194304 16777216 33554432 67108864 256x256 256x256x256 32768"
for rep in 1 2; do
  for b in tfft-base tfft; do
    for s in $ROWS; do
      [ $(( $(date +%s)-start )) -gt 430 ] && break
      timeout 40 .gpu/$b bench --shape $s --precision f64 --json $D/ab-$b-$s-$rep.json > $D/ab-$b-$s-$rep.txt 2>&1; lap "ab $b $s $rep" $?
    done
  done
done
for s in $ROWS; do
  L=$(( 570-($(date +%s)-start) )); [ $L -gt 15 ] || break
  timeout $L .gpu/tfft check --shape $s --precision f64 > $D/check-$s.txt 2>&1; lap "check $s" $?
done
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; for f in $D/ab-*.txt; do echo "$(basename $f) $(grep -m1 '^f64 ' $f)"; done; tail -n 2 $D/check-*.txt
