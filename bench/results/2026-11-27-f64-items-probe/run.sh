#!/usr/bin/env bash
# f64 rows below cuFFT in the suite of step 99 (512^3 0.90x, 2^26 0.91x, 512^2 0.95x, 2^24
# 0.99x): their strided passes of 256 / 512 run 4 or 8 items per tile at 3 blocks per SM.
# multipass_probe (1085ca5) with the planner's tiles, then TFFT_ITEMS=8 / 16 / 2 and
# TFFT_MIN_BLOCKS=2, alternating, two runs. Tool `device`, kind nvidia-h200, carry [".gpu"].
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); gunzip -kf .gpu/multipass_probe.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
S="f64 512x512x512 67108864 512x512 16777216"
for r in 1 2; do
  timeout 100 $P $S > $D/default-$r.txt 2>&1
  for it in 8 16 2; do TFFT_ITEMS=$it timeout 100 $P $S > $D/items$it-$r.txt 2>&1; done
  TFFT_MIN_BLOCKS=2 timeout 100 $P $S > $D/minblocks2-$r.txt 2>&1
done
tar czf $OUT/results.tgz -C $D .
for f in $D/*-1.txt; do echo "== $(basename $f)"; grep -E "copy|%" $f | head -8; done
