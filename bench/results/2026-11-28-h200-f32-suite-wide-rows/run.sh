#!/usr/bin/env bash
# H200 after step 104: the f32 suite (README rows), and a probe of f64 2^24 x 4 with 16 values
# per thread and 16 items per tile (256-byte rows on 256 threads) against the default,
# multipass_probe alternating twice, then ncu per pass of that variant.
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/multipass_probe
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
timeout 240 .gpu/tfft bench --suite full --only f32 --json $D/bench-f32.json --plot $D/bench-f32.png > $D/bench-f32.txt 2>&1; lap suite $?
for rep in 1 2; do
  for v in default e16i16 e16i8; do
    case $v in default) E=;; e16i16) E="TFFT_E=16 TFFT_ITEMS=16";; e16i8) E="TFFT_E=16 TFFT_ITEMS=8";; esac
    env $E TFFT_TOTAL=67108864 TFFT_SHOW=1 timeout 40 .gpu/multipass_probe f64 16777216 > $D/probe-$v-$rep.txt 2>&1; lap "probe $v $rep" $?
  done
done
NCU="/usr/local/cuda/bin/ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv --launch-count 3"
L=$(( 560-($(date +%s)-start) )); [ $L -gt 25 ] && { TFFT_E=16 TFFT_ITEMS=16 TFFT_TOTAL=67108864 timeout $L $NCU .gpu/multipass_probe f64 16777216 > $D/ncu-e16i16.txt 2>&1; lap ncu $?; }
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; grep -h "of copy" $D/probe-*.txt; grep -E "^f32 " $D/bench-f32.txt
