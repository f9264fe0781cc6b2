#!/usr/bin/env bash
# Programmatic dependent launch: correctness with it on (the default), then A/B against plain launches.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
# A/B first (NTT quick table both ways, alternating), then FFT single transforms both ways.
$T ntt bench --quick --json $D/ntt-quick-pdl.json > $D/ntt-quick-pdl.txt 2>&1; echo "ntt bench pdl rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
$T ntt bench --quick --plain-launches --json $D/ntt-quick-plain.json > $D/ntt-quick-plain.txt 2>&1; echo "ntt bench plain rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
for c in "--n 65536 --batch 1" "--n 262144 --batch 1" "--n 1048576 --batch 1" "--n 4194304 --batch 1" "--shape 1024x1024 --batch 1" "--shape 64x64x64 --batch 1" "--n 1048576 --batch 8" "--n 1048576"; do
  for mode in pdl plain; do
    flag=""; [ $mode = plain ] && flag="--plain-launches"
    name=$(echo "$c" | tr -d ' -' )
    $T bench $c --precision f32 $flag --json $D/fft-$name-$mode.json > $D/fft-$name-$mode.txt 2>&1; echo "fft $c $mode rc=$?" >> $D/rc.txt
  done
done
echo "A/B done t=$(( $(date +%s)-start ))" >> $D/rc.txt
for s in "1048576 f32" "1024x1024 f32" "131072 f16" "4194304 f32" "64x64x64 f64" "262144 bf16"; do
  set -- $s; $T check --shape $1 --precision $2 >> $D/fft-check.txt 2>&1; echo "check $s rc=$?" >> $D/rc.txt
done
$T ntt check --quick --json $D/ntt-check-quick.json > $D/ntt-check-quick.txt 2>&1; echo "ntt check rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt
