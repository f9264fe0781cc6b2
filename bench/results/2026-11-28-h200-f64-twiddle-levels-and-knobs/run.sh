#!/usr/bin/env bash
# H200 session run 1 (233774f = .gpu/tfft, db7c9e7 = .gpu/tfft-base):
# (1) tfft bench f64 2^26 x1, 2^24 x4 of both binaries, alternating, twice (step 101's owed H200 A/B);
# (2) multipass_probe f64 2^18 x256 with TFFT_ITEMS=4 against 8, alternating, twice;
# (3) ncu per pass of multipass_probe f64 2^26 under tuning knobs (default, IO direct, items 4,
#     min blocks 1/3, prefetch): which knob moves the first pass (DRAM 66% against 80%);
# (4) ncu --set full of the first two passes of f64 2^26 (default);
# (5) the F16 tensor-core variants of 1024.
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/tfft-base .gpu/multipass_probe
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
for rep in 1 2; do
  for b in tfft-base tfft; do
    for c in "67108864 1" "16777216 4"; do
      set -- $c
      timeout 40 .gpu/$b bench --n $1 --batch $2 --precision f64 --json $D/ab-$b-$1-$rep.json > $D/ab-$b-$1-$rep.txt 2>&1; lap "ab $b $1 $rep" $?
    done
  done
  for items in 4 8; do
    TFFT_ITEMS=$items timeout 40 .gpu/multipass_probe f64 262144 > $D/probe-items$items-$rep.txt 2>&1; lap "probe items $items $rep" $?
  done
done
NCU="/usr/local/cuda/bin/ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv --launch-count 3"
for k in "default" "TFFT_IO=direct" "TFFT_ITEMS=4" "TFFT_MIN_BLOCKS=1" "TFFT_MIN_BLOCKS=3" "TFFT_PREFETCH=1" "TFFT_E=16"; do
  [ $(( $(date +%s)-start )) -gt 380 ] && break
  env $([ $k = default ] || echo $k) TFFT_SHOW=1 timeout 50 $NCU .gpu/multipass_probe f64 67108864 > $D/knob-$k.txt 2> $D/knob-$k.err; lap "knob $k" $?
done
timeout $(( 520-($(date +%s)-start) )) .gpu/tfft bench --n 1024 --precision f16 --tensor-cores --variants --json $D/tc1024.json > $D/tc1024.txt 2>&1; lap "tc1024" $?
L=$(( 575-($(date +%s)-start) )); [ $L -gt 20 ] && { timeout $L /usr/local/cuda/bin/ncu --clock-control none --set full --launch-count 2 --csv --page details .gpu/multipass_probe f64 67108864 > $D/ncu-full-2p26.csv 2> $D/ncu-full.err; lap "ncu full" $?; }
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; for f in $D/ab-*.txt; do echo "$(basename $f) $(grep -m1 '^f64 ' $f)"; done; grep -h "of copy" $D/probe-*.txt; for f in $D/knob-*.txt; do echo "$(basename $f): $(grep 'of copy' $f)"; done; grep -h "pass 0" $D/knob-*.txt; tail -15 $D/tc1024.txt
