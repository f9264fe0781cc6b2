#!/bin/bash
# Probe (NOTES step 106): f64 passes on 8 values at four blocks of 256 threads per SM (64
# registers: no spills in the twiddled passes, NVRTC) against three (80 registers).
# TFFT_MIN_BLOCKS is global: the untwiddled first passes on 16 values spill at 64 (ignore them).
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  echo "== rep $rep f64 2097152 default"; $P f64 2097152
  echo "== rep $rep f64 2097152 MB4"; TFFT_MIN_BLOCKS=4 $P f64 2097152
done
M=gpu__time_duration.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for s in 2097152 4194304 8388608 16777216 67108864; do
  ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 $s > $OUT/ncu-$s-default.csv 2>&1
  TFFT_MIN_BLOCKS=4 ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 $s > $OUT/ncu-$s-mb4.csv 2>&1
done
