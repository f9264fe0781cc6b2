#!/bin/bash
# Probe (NOTES step 106): f64 twiddled passes of 256 on 16 values x 16 items, registers capped
# at 128 (two blocks per SM), against today's 8 values x 8 items. Per shape, alternating twice.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for s in 16777216 4194304 67108864; do
    echo "== rep $rep f64 $s default"; $P f64 $s
    echo "== rep $rep f64 $s E16 I16 MB2"; TFFT_E=16 TFFT_ITEMS=16 TFFT_MIN_BLOCKS=2 $P f64 $s
    echo "== rep $rep f64 $s E16 MB2"; TFFT_E=16 TFFT_MIN_BLOCKS=2 $P f64 $s
  done
done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
ncu --clock-control none --metrics $M --csv --launch-count 6 $P f64 16777216 > $OUT/ncu-default.csv 2>&1
TFFT_E=16 TFFT_ITEMS=16 TFFT_MIN_BLOCKS=2 ncu --clock-control none --metrics $M --csv --launch-count 6 $P f64 16777216 > $OUT/ncu-e16.csv 2>&1
