#!/bin/bash
# f32 1024² column pass: default (E=32 on 256 threads, 2 blocks/SM) against E=16 (512 threads,
# 64 registers, 2 blocks/SM: cuFFT's regular_fft<1024, EPT<16>> launch shape), `multipass_probe`
# alternating twice; then ncu stall metrics of both column kernels and of cuFFT's
# (`tfft bench --shape 1024x1024`). Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run4
gunzip -f .gpu/*.gz 2>/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run4/gpu.txt
for round in 1 2; do for v in "A=default" "TFFT_E=16" "TFFT_E=16 TFFT_ITEMS=4" "TFFT_E=8"; do
  echo "== round $round $v"; env $v timeout 60 .gpu/multipass_probe f32 1024x1024 2>&1 | tail -1
done; done > $OUT/run4/probe.txt 2>&1
cat $OUT/run4/probe.txt
M=gpu__time_duration.sum,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.per_cycle_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__inst_executed.sum
for s in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait not_selected math_pipe_throttle drain selected; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
NCU="/usr/local/cuda/bin/ncu --clock-control none --csv --page raw --metrics $M"
timeout 200 $NCU -k regex:"strided|regular_fft" -c 4 .gpu/tfft bench --shape 1024x1024 --precision f32 > $OUT/run4/ncu-bench.csv 2>&1
echo "ncu bench rc=$?"
TFFT_E=16 timeout 120 $NCU -k regex:"strided" -c 2 .gpu/multipass_probe f32 1024x1024 > $OUT/run4/ncu-e16.csv 2>&1
echo "ncu e16 rc=$?"
cd $OUT && tar czf run4.tgz run4
