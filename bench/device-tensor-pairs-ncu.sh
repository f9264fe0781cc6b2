#!/usr/bin/env bash
# Nsight Compute of the warp-resident tensor-core kernels (F16 256 and 1024, their opt-in default
# recipes) and of the default packed-half kernels of the same lengths: time, DRAM, issue, pipes,
# registers and stall reasons per issued instruction. Writes $OUT/ncu.txt.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
BIN=${BIN:-.gpu/tfft}
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
declare -A RECIPE=(
  [256]="E=16 T=16 B=16 io=Direct(V=4) twiddles=Table exchange=F32 smem=0B minblocks=2 prefetch=true twiddles_ahead=true persistent=true"
  [1024]="E=32 T=32 B=8 io=Direct(V=4) twiddles=Table exchange=F32 smem=0B minblocks=2 prefetch=false twiddles_ahead=true persistent=true"
)
for n in 256 1024; do
  for k in _tc _h2; do
    timeout 120 /usr/local/cuda/bin/ncu --clock-control none --metrics $M -k "regex:n${n}_.*${k}" -c 1 \
      $BIN bench --n $n --precision f16 --reps 20 --variants-matching "${RECIPE[$n]}" 2>&1 \
      | grep -E 'tfft_c2c|[a-z]__' | tee -a "$OUT/ncu.txt"
  done
done
