#!/usr/bin/env bash
# End of the session (NOTES step 96), the landed binary: the full `tfft check` (FFT, 921 cases)
# on 16 processes, then the full `tfft ntt check` on 8. Tool `device`, carry [".gpu"]; copy
# `tfft` and both shard scripts to .gpu/. Results in $OUT/results.tgz.
set -u
D=$(mktemp -d); start=$(date +%s)
mkdir -p $D/fft $D/ntt
OUT=$D/fft bash .gpu/device-check-shards.sh 16 420 > /dev/null 2>&1
echo "fft t=$(( $(date +%s)-start ))" >> $D/rc.txt
OUT=$D/ntt bash .gpu/device-ntt-check-shards.sh 8 150 > /dev/null 2>&1
echo "ntt t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt $D/fft/check-summary.txt $D/ntt/summary.txt
