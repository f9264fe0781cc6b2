#!/usr/bin/env bash
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
for lb in "10 65536" "16 1024" "20 64" "8 262144"; do set -- $lb
  ./tfft ntt bench --log-n $1 --batch $2 2>&1 | grep -E '^babybear' | tee -a "$OUT/rows.txt"
done
M=dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__inst_executed.sum,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
for k in 'regex:ntt_u32du_l1024_v16_r4_t8.*_p$' 'regex:ntt_u32du_l1024_v16_r4_t8.*w0$'; do
  timeout 150 /usr/local/cuda/bin/ncu --clock-control none --metrics $M -k "$k" -c 1 ./tfft ntt bench --log-n 10 --batch 65536 --reps 20 2>&1 | grep -vE '^(babybear|field|==PROF==.*Disconnected)' | grep -E 'ntt_|[a-z]__' | tee -a "$OUT/ncu.txt"
done
