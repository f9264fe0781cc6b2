#!/bin/bash
# Probe (NOTES step 106): f64 last passes of 128 on 32 items (512-byte rows, 66 KB tiles,
# 512 threads) against 16 items (256-byte rows); ncu per pass, and whole plans at 2^21.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  echo "== rep $rep f64 2097152 default"; $P f64 2097152
  echo "== rep $rep f64 2097152 I32"; TFFT_ITEMS=32 $P f64 2097152
done
M=gpu__time_duration.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
for s in 2097152 4194304 8388608; do
  ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 $s > $OUT/ncu-$s-default.csv 2>&1
  TFFT_ITEMS=32 ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 $s > $OUT/ncu-$s-i32.csv 2>&1
done
