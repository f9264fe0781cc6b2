#!/usr/bin/env bash
# Which commit slowed f32 2^20 x 128 from 41.8% of the copy (step 85) to 37.8% (today's full
# suite)? Binaries of 4052b1f (step 85's code), 4e4d9fe (the 25 ms warm-up), 37cbd04
# (tensor-core stages in strided passes) and HEAD, alternating, two runs each, on f32 2^20,
# 4096^2, 1024^2 and f64 2^20. Tool `device`, kind nvidia-h200, carry [".gpu"].
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); for f in .gpu/tfft-*.gz; do gunzip -kf $f; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for r in 1 2; do
  for b in 4052b1f 4e4d9fe 37cbd04 head; do
    for s in "--n 1048576" "--shape 4096x4096" "--shape 1024x1024" "--n 1048576 --precision f64"; do
      name=$b-$(echo $s | tr -d ' -')-$r
      timeout 60 .gpu/tfft-$b bench $s > $D/$name.txt 2>&1
    done
  done
done
tar czf $OUT/results.tgz -C $D .
for f in $D/*-1.txt; do b=$(basename $f -1.txt); echo "$b $(grep -E '^f(32|64) ' $f | head -1 | cut -c1-100)"; echo "$b $(grep -E '^f(32|64) ' ${f%-1.txt}-2.txt | head -1 | cut -c1-100)"; done
