#!/bin/bash
# Probe (NOTES step 107): f64 strided passes of 128 without a twiddle (128^3's two strided axes)
# on 16 values per thread (126 registers, two blocks per SM), 16 or 32 items, against 8 values on
# 16 items; f64 65536's twiddled pass of 256 on 16 items. Whole plans alternating, twice; ncu per
# pass (the knobs also reach the single-pass kernel of 128^3's contiguous axis: compare passes 1-2).
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  echo "== rep $rep f64 128x128x128 default"; $P f64 128x128x128
  echo "== rep $rep f64 128x128x128 E16 I16 MB2"; TFFT_E=16 TFFT_ITEMS=16 TFFT_MIN_BLOCKS=2 $P f64 128x128x128
  echo "== rep $rep f64 128x128x128 E16 I32 MB2"; TFFT_E=16 TFFT_ITEMS=32 TFFT_MIN_BLOCKS=2 $P f64 128x128x128
  echo "== rep $rep f64 65536 default"; $P f64 65536
  echo "== rep $rep f64 65536 I16"; TFFT_ITEMS=16 $P f64 65536
done
M=gpu__time_duration.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 128x128x128 > $OUT/ncu-128c-default.csv 2>&1
TFFT_E=16 TFFT_ITEMS=16 TFFT_MIN_BLOCKS=2 ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 128x128x128 > $OUT/ncu-128c-e16i16.csv 2>&1
TFFT_E=16 TFFT_ITEMS=32 TFFT_MIN_BLOCKS=2 ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 128x128x128 > $OUT/ncu-128c-e16i32.csv 2>&1
