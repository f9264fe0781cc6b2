#!/usr/bin/env bash
# Follow-up of run.sh: RN with programmatic dependent launches (the default) against plain
# launches over sizes, same binary, alternating, two runs. Tool `device`, carry [".gpu"].
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); T=.gpu/tfft; start=$(date +%s)
bench() { local name=$1; shift
  timeout 60 $T ntt bench "$@" --json $D/$name.json > $D/$name.txt 2>&1
  echo "$name $* rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
for rep in 1 2; do
  for row in "babybear 16 1" "babybear 18 1" "babybear 19 1" "babybear 20 1" "babybear 21 1" "babybear 22 1" \
             "babybear 23 1" "babybear 24 1" "babybear 20 64" "babybear 16 1024" "goldilocks 20 1" "goldilocks 22 1" \
             "fhe62 16 40"; do
    set -- $row
    bench pdl-$1-$2-$3-RN-$rep --field $1 --log-n $2 --batch $3 --orders RN
    bench plain-$1-$2-$3-RN-$rep --field $1 --log-n $2 --batch $3 --orders RN --plain-launches
  done
done
tar czf $OUT/results.tgz -C $D .
for f in $D/*-1.txt $D/*-2.txt; do echo "$(basename $f .txt) $(grep -E '^[a-z0-9]+ +[0-9]+ +[0-9]+' $f | head -1 | cut -c40-70)"; done
