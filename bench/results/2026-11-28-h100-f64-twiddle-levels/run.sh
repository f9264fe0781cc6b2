#!/usr/bin/env bash
# f64 four-step twiddles from three table levels for roots above 2^20 (new, .gpu/tfft) against
# db7c9e7 (.gpu/tfft-base); called for the H200, ran on an H100:
# (1) ncu per pass of both binaries on f64 2^26 and 2^24 (batch 1 / 4);
# (2) tfft bench of both, alternating, twice;
# (3) ncu per pass of multipass_probe (new) on f64 2^18 and 2^26 with 4 items per tile
#     (TFFT_ITEMS=4) and the default (8 since step 100): which pass lost 2^18's 10%;
# (4) tfft check: the quick f64 sweep and f64 2^21 ... 2^26 single cases (new binary).
# Tool `device`, kind nvidia-h200, carry [".gpu"]. Results in $OUT/results.tgz.
set -u
gunzip -f .gpu/tfft.gz .gpu/tfft-base.gz .gpu/multipass_probe.gz; chmod +x .gpu/tfft .gpu/tfft-base .gpu/multipass_probe
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
NCU="/usr/local/cuda/bin/ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv"
for b in tfft tfft-base; do
  for n in 67108864 16777216; do
    timeout 60 $NCU --launch-count 40 .gpu/$b bench --n $n --precision f64 --reps 20 > $D/ncu-$b-$n.csv 2> $D/ncu-$b-$n.err
    echo "ncu $b $n rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  done
done
for rep in 1 2; do
  for b in tfft-base tfft; do
    for n in 67108864 16777216 4194304; do
      timeout 40 .gpu/$b bench --n $n --precision f64 --json $D/bench-$b-$n-$rep.json > $D/bench-$b-$n-$rep.txt 2>&1
      echo "bench $b $n $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
    done
  done
done
for items in 4 8; do
  for n in 262144 67108864; do
    TFFT_ITEMS=$items timeout 60 $NCU --launch-count 60 .gpu/multipass_probe f64 $n > $D/ncu-probe-items$items-$n.csv 2> $D/ncu-probe-items$items-$n.err
    echo "probe items $items $n rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
  done
done
for n in 2097152 4194304 8388608 16777216 67108864; do
  timeout 40 .gpu/tfft check --n $n --precision f64 --batch 1 > $D/check-$n.txt 2>&1
  echo "check $n rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
OUT=$D/checks timeout 120 bash .gpu/device-check-shards.sh 8 110 --quick --only f64 > /dev/null 2>&1
echo "quick f64 sweep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt; cat $D/checks/check-summary.txt; tail -n 3 $D/check-*.txt; grep -h "^f64 " $D/bench-*.txt
