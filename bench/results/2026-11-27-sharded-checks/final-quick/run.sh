#!/usr/bin/env bash
# The session's last binary: the NTT sweep's BabyBear 2^25 cases (the landed row rule), then
# the quick `tfft check` as 8 parts side by side. Tool `device`, carry [".gpu"]; copy `tfft`
# and the scripts to .gpu/. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
mkdir -p $D/ntt25 $D/fft
OUT=$D/ntt25 bash .gpu/device-ntt-check-shards.sh 4 120 --log-n 25 > /dev/null 2>&1
echo "ntt25 t=$(( $(date +%s)-start ))" >> $D/rc.txt
OUT=$D/fft bash .gpu/device-check-shards.sh 8 ${1:-450} --quick > /dev/null 2>&1
echo "fft t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt $D/ntt25/summary.txt $D/fft/check-summary.txt
