#!/usr/bin/env bash
# F32Split launch shapes beyond the defaults (multipass_probe with tuning from the environment),
# then ncu of the default kernels of 4096 and 8192.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc-probe
RES=$(mktemp -d)
trap 'tar czf "$OUT/results.tgz" -C "$RES" .' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $RES/gpu.txt
p() { echo "== $*" >> $RES/probe.txt; env "$@" TFFT_SHOW=1 timeout 60 .gpu/probe f32split $N 2>&1 | grep -v "^c2c\|error bound" >> $RES/probe.txt; }
for rep in 1 2; do
N=1024; p X=0; p TFFT_PAIRS=1 TFFT_E=32 TFFT_MIN_BLOCKS=1; p TFFT_PAIRS=1 TFFT_E=32 TFFT_MIN_BLOCKS=1 TFFT_PERSISTENT=1
for N in 2048 4096 8192; do
  p X=0; p TFFT_PAIRS=1 TFFT_PERSISTENT=1 TFFT_PREFETCH=1; p TFFT_PAIRS=1 TFFT_PERSISTENT=1 TFFT_PREFETCH=0
  p TFFT_PERSISTENT=1 TFFT_PREFETCH=0; p TFFT_MIN_BLOCKS=1; p TFFT_MIN_BLOCKS=1 TFFT_PERSISTENT=1 TFFT_PREFETCH=1
done
N=16384; p X=0; p TFFT_PREFETCH=1; p TFFT_PAIRS=1 TFFT_PREFETCH=1
done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
for n in 4096 8192; do
  echo "== ncu $n" >> $RES/ncu.txt
  timeout 120 /usr/local/cuda/bin/ncu --clock-control none --metrics $M -k "regex:tfft_c2c_f32split.*fwd" -c 1 .gpu/tfft-new bench --n $n --precision f32split --reps 20 2>&1 | grep -E 'tfft_c2c|[a-z]__' >> $RES/ncu.txt
done
