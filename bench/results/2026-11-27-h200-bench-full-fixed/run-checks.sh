#!/usr/bin/env bash
# The quick FFT sweep on the fixed binary (1085ca5), 8 processes, then the quick sweep of
# the tensor-core plans (F16 --tensor-cores, F32Split), 8 processes.
# Tool `device`, kind nvidia-h200, carry [".gpu"] (tfft and device-check-shards.sh).
set -u
D=$(mktemp -d)
OUT=$D/quick bash .gpu/device-check-shards.sh 8 250 --quick > /dev/null
OUT=$D/quick-tensor-cores bash .gpu/device-check-shards.sh 8 200 --quick --tensor-cores > /dev/null
tar czf $OUT/results.tgz -C $D .
cat $D/quick/check-summary.txt $D/quick-tensor-cores/check-summary.txt
