#!/usr/bin/env bash
# H200 session run 4: f64 axes of three passes whose longest is 512 run shortest first (new =
# .gpu/tfft) against step 102 (.gpu/tfft-base): tfft bench f64 2^26 x1, 2^25 x2, 2^22 x16
# (control: plan unchanged) alternating, twice; tfft check of f64 2^25 and 2^26 (new).
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/tfft-base
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
for rep in 1 2; do
  for b in tfft-base tfft; do
    for c in "67108864 1" "33554432 2" "4194304 16"; do
      set -- $c
      timeout 40 .gpu/$b bench --n $1 --batch $2 --precision f64 --json $D/ab-$b-$1-$rep.json > $D/ab-$b-$1-$rep.txt 2>&1; lap "ab $b $1 $rep" $?
    done
  done
done
for n in 33554432 67108864; do
  L=$(( 420-($(date +%s)-start) )); [ $L -gt 30 ] || break
  timeout $L .gpu/tfft check --n $n --precision f64 --batch 1 > $D/check-$n.txt 2>&1; lap "check $n" $?
done
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; for f in $D/ab-*.txt; do echo "$(basename $f) $(grep -m1 '^f64 ' $f)"; done; tail -4 $D/check-*.txt
