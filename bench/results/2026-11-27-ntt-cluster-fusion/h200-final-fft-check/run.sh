#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader
D=$(mktemp -d)
T=.gpu/tfft
for s in 4096 65536 1048576 1024x1024; do for p in f32 f16; do $T check --shape $s --precision $p 2>&1 | tail -1; done; done > $D/fft-check.txt
cat $D/fft-check.txt
$T ntt check --log-n 14 > $D/ntt-check-14.txt 2>&1; grep bit-exact $D/ntt-check-14.txt
tar czf $OUT/results.tgz -C $D .
