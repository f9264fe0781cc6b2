#!/usr/bin/env bash
# H200 session run 5 (step 103, f64 long axes shortest pass first; .gpu/tfft): the quick f64
# check sweep in 8 shards, then tfft bench --suite full --only f64.
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
OUT=$D/checks timeout 75 bash .gpu/device-check-shards.sh 8 70 --quick --only f64 > /dev/null 2>&1; lap "checks" $?
timeout 160 .gpu/tfft bench --suite full --only f64 --json $D/bench-f64.json --plot $D/bench-f64.png > $D/bench-f64.txt 2>&1; lap "suite f64" $?
cp $D/checks/gpu.txt $D/gpu.txt 2>/dev/null
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt; cat $D/checks/check-summary.txt; grep "^f64" $D/bench-f64.txt | head -22
