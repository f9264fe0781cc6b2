#!/bin/bash
# Probe 2 (NOTES step 106): f64 twiddled passes on 8 values x 16 items (512 threads, 64 registers,
# two blocks per SM), and longer tiles at 2^18 / 2^20 / 2^26; passes of 128 on 16 values.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  echo "== rep $rep f64 16777216 default"; $P f64 16777216
  echo "== rep $rep f64 16777216 I16"; TFFT_ITEMS=16 $P f64 16777216
  echo "== rep $rep f64 4194304 default"; $P f64 4194304
  echo "== rep $rep f64 4194304 E16 MB2"; TFFT_E=16 TFFT_MIN_BLOCKS=2 $P f64 4194304
done
echo "== f64 67108864 default"; $P f64 67108864
echo "== f64 67108864 I16"; TFFT_ITEMS=16 $P f64 67108864
echo "== f64 262144 default"; $P f64 262144
echo "== f64 262144 I16"; TFFT_ITEMS=16 $P f64 262144
echo "== f64 1048576 default"; $P f64 1048576
echo "== f64 1048576 I8"; TFFT_ITEMS=8 $P f64 1048576
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
TFFT_ITEMS=16 ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 16777216 > $OUT/ncu-i16.csv 2>&1
TFFT_E=16 TFFT_MIN_BLOCKS=2 ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 4194304 > $OUT/ncu-2p22-e16.csv 2>&1
ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 4194304 > $OUT/ncu-2p22-default.csv 2>&1
