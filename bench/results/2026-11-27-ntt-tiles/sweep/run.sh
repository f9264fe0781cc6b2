#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
for rep in 1 2; do
for row in "babybear 22 1" "babybear 24 1" "babybear 22 16" "goldilocks 22 1"; do
  set -- $row
  for cfg in "default" "--max-column 1024" "--tiles-per-sm 1" "--tiles-per-sm 4" "--tiles-per-sm 8" "--max-column 1024 --tiles-per-sm 1"; do
    flags=""; [ "$cfg" != default ] && flags="$cfg"
    name=$(echo "$1-$2-$3-$cfg-$rep" | tr -d ' -' )
    timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 $flags --json $D/ntt-$name.json > $D/ntt-$name.txt 2>&1; echo "ntt $row $cfg $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  done
done
done
for env in "X=0" "TFFT_IO=staged" "TFFT_MAX_RADIX=16" "TFFT_TW_AHEAD=0" "TFFT_DERIVED=1" "TFFT_DERIVED=0" "TFFT_MAX_RADIX=8" "X=1"; do
  echo "== $env" >> $D/probe-1024x1024.txt
  env $env timeout 60 $P f32 1024x1024 >> $D/probe-1024x1024.txt 2>&1; echo "probe $env rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
tar czf $OUT/results.tgz -C $D .
tail -3 $D/rc.txt
