#!/usr/bin/env bash
# H200 session run 3: an axis's Stockham passes shortest first (TFFT_SHORT_FIRST=1: f64 2^26 as
# 256 x 512 x 512) against the default longest first (512 x 512 x 256), multipass_probe
# (2^27 elements per shape, f64 2^26), alternating, twice; then ncu per pass of f64 2^26 both ways.
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/multipass_probe
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
for rep in 1 2; do
  for c in "f64 67108864" "f64 33554432" "f64 4194304" "f32 67108864" "f32 4194304" "f16 67108864" "f32 2097152"; do
    for sf in 0 1; do
      [ $(( $(date +%s)-start )) -gt 470 ] && break
      TFFT_SHORT_FIRST=$sf TFFT_SHOW=1 timeout 40 .gpu/multipass_probe $c > "$D/probe-sf$sf-${c/ /-}-$rep.txt" 2>&1; lap "probe sf$sf $c $rep" $?
    done
  done
done
NCU="/usr/local/cuda/bin/ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv --launch-count 3"
for sf in 0 1; do
  L=$(( 580-($(date +%s)-start) )); [ $L -gt 25 ] || break
  TFFT_SHORT_FIRST=$sf timeout $L $NCU .gpu/multipass_probe f64 67108864 > $D/ncu-sf$sf-f64-67108864.txt 2> $D/ncu-sf$sf.err; lap "ncu sf$sf" $?
done
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; for f in $D/probe-*.txt; do echo "$(basename $f .txt): $(grep -h 'of copy' $f | sed 's/passes=.*err=/err=/')"; done
