#!/usr/bin/env bash
# NOTES step 96: passes of bit-reversed input by decimation in time (direct) against the staged
# passes (--staged-reversed) in the same binary, alternating, two runs; the row length of the
# direct passes (--max-row); then the full `tfft ntt check` on 8 processes and memcheck on
# direct in-time plans. Tool `device`, carry [".gpu"]; copy `tfft` and the check script to .gpu/.
# Results in $OUT/results.tgz.
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
  for row in "babybear 22 1" "babybear 24 1" "babybear 24 4" "babybear 20 64" "babybear 16 1024" \
             "babybear 12 8192" "koalabear 22 1" "goldilocks 22 1" "goldilocks 20 16" "babybear 25 1"; do
    set -- $row
    for cfg in time staged; do
      flags=""; [ $cfg = staged ] && flags="--staged-reversed"
      bench ntt-$1-$2-$3-RN-$cfg-$rep --field $1 --log-n $2 --batch $3 --orders RN $flags
    done
  done
  # Row length of the direct passes: 2^14 x 2^10 (planner) against 2^13 x 2^11; 2^25 in
  # three passes (planner) against 2^14 x 2^11.
  bench ntt-babybear-24-1-RN-row8192-$rep --field babybear --log-n 24 --batch 1 --orders RN --max-row 8192
  bench ntt-babybear-25-1-RN-row16384-$rep --field babybear --log-n 25 --batch 1 --orders RN --max-row 16384
  bench ntt-babybear-24-1-NR-$rep --field babybear --log-n 24 --batch 1 --orders NR
  bench ntt-babybear-22-1-NR-$rep --field babybear --log-n 22 --batch 1 --orders NR
done
mkdir -p $D/check; OUT=$D/check bash .gpu/device-ntt-check-shards.sh 8 170 > /dev/null 2>&1
echo "check t=$(( $(date +%s)-start ))" >> $D/rc.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for c in "babybear 24 1 RN" "goldilocks 22 1 RN" "babybear 12 64 RN"; do set -- $c
  echo "== memcheck $1 2^$2 x$3 $4" >> $D/sanitizer.txt
  timeout 100 $CS --tool memcheck $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 --reps 20 2>&1 | grep -E "ERROR SUMMARY|Error|^$1" | head -8 >> $D/sanitizer.txt
done
echo "done t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt $D/check/summary.txt $D/sanitizer.txt
for f in $D/ntt-*-1.txt $D/ntt-*-2.txt; do echo "$(basename $f .txt) $(grep -E '^[a-z]+ +[0-9]+ +[0-9]+' $f | head -1)"; done
