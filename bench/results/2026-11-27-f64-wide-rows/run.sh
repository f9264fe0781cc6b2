#!/usr/bin/env bash
# bench/NOTES.md step 100: f64 strided passes of 512 take 8 items per tile (128-byte rows).
# The f64 suite on the new planner, then the quick f64 sweep in 8 processes.
# Tool `device`, kind nvidia-h200, carry [".gpu"] (tfft, device-check-shards.sh).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
timeout 200 .gpu/tfft bench --suite full --only f64 --json $D/bench-f64.json > $D/bench-f64.txt 2>&1
echo "bench rc=$?" >> $D/rc.txt
OUT=$D/check bash .gpu/device-check-shards.sh 8 150 --quick --only f64 > /dev/null
tar czf $OUT/results.tgz -C $D .
grep -E "^f64 " $D/bench-f64.txt | awk '!seen[$2]++'; cat $D/check/check-summary.txt
