#!/usr/bin/env bash
# Nsight Compute of the F16 tensor-core kernels (NS, default 2048 and 4096): the stage pair with
# Stockham stages after it (`_tp`, the default) and the per-stage kernel, with the packed-half default of
# the same length: time, DRAM, issue, pipes, L1 sectors and hit rate, shared-memory wavefronts
# and stall reasons per issued instruction. Writes $OUT/ncu.txt.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
BIN=${BIN:-.gpu/tfft}
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_read.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
for n in ${NS:-2048 4096}; do
  for what in pair per-stage half; do
    # The default recipes (the pair: staged input, PAIR_SHAPE its launch shape; the packed-half
    # default row).
    case $what in
      pair) sel="${PAIR_SHAPE:-minblocks=2 prefetch=true} twiddles_ahead=true persistent=true tensor_cores=true tensor_pair=true"; kr="n${n}_.*_tc_tp_fwd" ;;
      per-stage) sel="minblocks=2 prefetch=true twiddles_ahead=true persistent=true tensor_cores=true tensor_pair=false"; kr="n${n}_.*_tc_fwd" ;;
      half) sel="half_arithmetic=true"; kr="n${n}_.*_h2.*_fwd" ;;
    esac
    echo "== N=$n $what" | tee -a "$OUT/ncu.txt"
    timeout 150 /usr/local/cuda/bin/ncu --clock-control none --metrics $M -k "regex:${kr}" -c 1 \
      $BIN bench --n $n --precision f16 --reps 20 --variants-matching "$sel" 2>&1 \
      | grep -E 'tfft_c2c|[a-z]__' | tee -a "$OUT/ncu.txt"
  done
done
