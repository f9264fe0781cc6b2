#!/usr/bin/env bash
# Why one RN transform of 2^20 takes 1.28x NR's time (NOTES step 96): RN and NR around 2^20,
# and RN 2^20 with other tile choices (--row-tiles-per-sm, --tiles-per-sm, --max-column), same
# binary, alternating, two runs. Tool `device`, carry [".gpu"]. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); T=.gpu/tfft; start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
bench() { local name=$1; shift
  timeout 60 $T ntt bench "$@" --json $D/$name.json > $D/$name.txt 2>&1
  echo "$name $* rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
for rep in 1 2; do
  for f in babybear goldilocks; do
    for l in 19 20 21; do for o in NR RN; do bench $f-$l-$o-$rep --field $f --log-n $l --orders $o; done; done
    bench $f-20-RN-rt2-$rep --field $f --log-n 20 --orders RN --row-tiles-per-sm 2
    bench $f-20-RN-rt4-$rep --field $f --log-n 20 --orders RN --row-tiles-per-sm 4
    bench $f-20-RN-rt16-$rep --field $f --log-n 20 --orders RN --row-tiles-per-sm 16
    bench $f-20-RN-t4-$rep --field $f --log-n 20 --orders RN --tiles-per-sm 4
    bench $f-20-RN-plain-$rep --field $f --log-n 20 --orders RN --plain-launches
    bench $f-20-NR-plain-$rep --field $f --log-n 20 --orders NR --plain-launches
  done
done
tar czf $OUT/results.tgz -C $D .
for f in $D/*.txt; do [ "$(basename $f)" = rc.txt ] || [ "$(basename $f)" = gpu.txt ] || echo "$(basename $f .txt) $(grep -E '^[a-z0-9]+ +[0-9]+ +[0-9]+' $f | head -1 | cut -c40-95)"; done
