#!/bin/bash
# Probe (NOTES step 106): f64 four-step twiddles of roots 2^21 ... 2^26 read from two table
# levels or three. The probe binary reads the threshold from TFFT_TW3_ABOVE (roots above
# 2^TFFT_TW3_ABOVE take three levels; 20 is the committed rule) -- an experiment-only build.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for s in 2097152 4194304 8388608 16777216 33554432 67108864; do
    for t in 20 26; do echo "== rep $rep f64 $s TW3_ABOVE=$t"; TFFT_TW3_ABOVE=$t $P f64 $s; done
  done
done
M=gpu__time_duration.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
for s in 4194304 16777216 67108864; do for t in 20 26; do
  TFFT_TW3_ABOVE=$t ncu --clock-control none --metrics $M --csv --launch-count 3 $P f64 $s > $OUT/ncu-$s-tw3above$t.csv 2>&1
done; done
