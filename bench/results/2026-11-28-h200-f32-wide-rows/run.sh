#!/usr/bin/env bash
# H200: f32 strided passes of 256 on 32 items (256-byte rows, step 104; new = .gpu/tfft)
# against 16 (.gpu/tfft-base = 7c1cd84): tfft bench of every suite row whose plan changed,
# alternating, twice; then tfft check of the changed shapes (new).
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/tfft-base
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
ROWS="65536 4194304 16777216 67108864 256x256 256x256x256 131072 33554432"
for rep in 1 2; do
  for b in tfft-base tfft; do
    for s in $ROWS; do
      [ $(( $(date +%s)-start )) -gt 440 ] && break
      timeout 40 .gpu/$b bench --shape $s --precision f32 --json $D/ab-$b-$s-$rep.json > $D/ab-$b-$s-$rep.txt 2>&1; lap "ab $b $s $rep" $?
    done
  done
done
for s in $ROWS 8388608 2x256x65536 256x256x64; do
  L=$(( 570-($(date +%s)-start) )); [ $L -gt 15 ] || break
  timeout $L .gpu/tfft check --shape $s --precision f32 > $D/check-$s.txt 2>&1; lap "check $s" $?
done
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; for f in $D/ab-*.txt; do echo "$(basename $f) $(grep -m1 '^f32 ' $f)"; done; tail -n 3 $D/check-*.txt
