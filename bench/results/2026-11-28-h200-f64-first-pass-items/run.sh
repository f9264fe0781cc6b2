#!/usr/bin/env bash
# H200 session run 2: f64 passes of 512 whose items' outputs are contiguous take 4 items per
# tile (64-byte rows) instead of 8 (new = .gpu/tfft; 233774f = .gpu/tfft-base):
# (1) tfft bench f64 2^26 x1, 2^18 x256, 2^24 x4 (control: unchanged plan) of both, alternating, twice;
# (2) ncu per pass of multipass_probe (new) on f64 2^26 and 2^18 x256;
# (3) ncu per pass of multipass_probe f64 2^24 x4 with TFFT_ITEMS=4 and 16 against the default;
# (4) tfft check --quick --only f64 in 8 shards (new);  (5) tfft bench --suite full --only f64 (new).
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/tfft-base .gpu/multipass_probe
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
for rep in 1 2; do
  for b in tfft-base tfft; do
    for c in "67108864 1" "262144 256" "16777216 4"; do
      set -- $c
      timeout 40 .gpu/$b bench --n $1 --batch $2 --precision f64 --json $D/ab-$b-$1-$rep.json > $D/ab-$b-$1-$rep.txt 2>&1; lap "ab $b $1 $rep" $?
    done
  done
done
NCU="/usr/local/cuda/bin/ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv --launch-count 3"
for n in 67108864 262144; do
  TFFT_SHOW=1 timeout 50 $NCU .gpu/multipass_probe f64 $n > $D/ncu-new-$n.txt 2> $D/ncu-new-$n.err; lap "ncu new $n" $?
done
for k in default TFFT_ITEMS=4 TFFT_ITEMS=16; do
  env $([ $k = default ] || echo $k) TFFT_SHOW=1 timeout 50 $NCU .gpu/multipass_probe f64 16777216 > $D/knob24-$k.txt 2> $D/knob24-$k.err; lap "knob24 $k" $?
done
OUT=$D/checks timeout 130 bash .gpu/device-check-shards.sh 8 120 --quick --only f64 > /dev/null 2>&1; lap "checks" $?
L=$(( 585-($(date +%s)-start) )); timeout $L .gpu/tfft bench --suite full --only f64 --json $D/bench-f64.json --plot $D/bench-f64.png > $D/bench-f64.txt 2>&1; lap "suite f64" $?
tar czf $OUT/results.tgz -C $D .
cat $D/gpu.txt $D/rc.txt; for f in $D/ab-*.txt; do echo "$(basename $f) $(grep -m1 '^f64 ' $f)"; done; grep -h "of copy" $D/ncu-new-*.txt $D/knob24-*.txt; cat $D/checks/check-summary.txt; grep "^f64" $D/bench-f64.txt
