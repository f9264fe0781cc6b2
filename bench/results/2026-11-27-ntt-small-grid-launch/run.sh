#!/usr/bin/env bash
# NOTES step 98: later NTT passes whose grid is smaller than the device launch plainly (the
# planner's rule) against every pass dependent (--every-pass-dependent), same binary,
# alternating, two runs, the one-transform rows whose launches changed; the check of three
# sizes; and bench/tiled_intermediate_microbench.cu (issue 8).
# Tool `device`, kind nvidia-h200, carry [".gpu"]. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); T=.gpu/tfft; start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
( cd $D && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o tiled $OLDPWD/bench/tiled_intermediate_microbench.cu && ./tiled > tiled.txt 2>&1 )
echo "microbench t=$(( $(date +%s)-start ))" >> $D/rc.txt
bench() { local name=$1; shift
  timeout 60 $T ntt bench --reps 20 "$@" --json $D/$name.json > $D/$name.txt 2>&1
  echo "$name $* rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
# The rule changes RN plans only (the small column pass comes second): BabyBear 2^13 ... 2^20,
# Goldilocks 2^12 ... 2^18; 2^22 / 2^20 as controls whose plans do not change.
for rep in 1 2; do
  for l in 13 14 15 16 17 18 19 20 22; do
    bench babybear-$l-RN-rule-$rep --field babybear --log-n $l --orders RN
    bench babybear-$l-RN-all-$rep --field babybear --log-n $l --orders RN --every-pass-dependent
  done
  for l in 12 13 14 15 16 17 18 20; do
    bench goldilocks-$l-RN-rule-$rep --field goldilocks --log-n $l --orders RN
    bench goldilocks-$l-RN-all-$rep --field goldilocks --log-n $l --orders RN --every-pass-dependent
  done
done
for l in 13 16 20; do
  timeout 120 $T ntt check --log-n $l > $D/check-$l.txt 2>&1; echo "check $l rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
tar czf $OUT/results.tgz -C $D .
cat $D/tiled.txt; tail -3 $D/rc.txt
