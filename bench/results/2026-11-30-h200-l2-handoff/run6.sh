#!/bin/bash
# ncu stall metrics of cuFFT's column kernel for f32 1024² (`regular_fft<1024, EPT<16>>`) in
# `tfft bench --shape 1024x1024`, the metrics of run4 (which stopped before cuFFT's launches).
# Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run6
gunzip -f .gpu/*.gz 2>/dev/null
M=gpu__time_duration.sum,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.per_cycle_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__inst_executed.sum
for s in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait not_selected math_pipe_throttle drain selected; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
timeout 300 /usr/local/cuda/bin/ncu --clock-control none --csv --page raw --metrics $M -k regex:"regular_fft|vector_fft" -c 4 .gpu/tfft bench --shape 1024x1024 --precision f32 > $OUT/run6/ncu-cufft.csv 2>&1
echo "ncu rc=$?"; grep -c regular_fft $OUT/run6/ncu-cufft.csv
cd $OUT && tar czf run6.tgz run6
