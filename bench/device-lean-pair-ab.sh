#!/usr/bin/env bash
# A/B of the leaner tensor-core pair kernels (F16 fragments held in both operand orders, staged
# copies of whole tiles without per-chunk bounds) on one machine: PREV against BIN, alternating
# binaries (or those of BINS="name:path ..."), every stage-pair variant with the default row and cuFFT in each process; then the
# staged default rows that the whole-tile copies also touch. With CHECK=1 first
# `tfft check --tensor-cores --quick --only f16` and `tfft check --quick` on BIN.
# Usage on the device: NS="1024 4096" REPS=2 CHECK=1 bash bench/device-lean-pair-ab.sh (writes
# $OUT/results.tgz: the device tool returns a limited number of files)
set -euo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
BIN=${BIN:-.gpu/tfft}
PREV=${PREV:-.gpu/tfft-prev}
RES=$(mktemp -d)
trap 'tar czf "$OUT/results.tgz" -C "$RES" .' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$RES/gpu.txt" || true
if [[ ${CHECK:-0} == 1 ]]; then
  TFFT_CACHE_DIR=/tmp/tfftcache-new $BIN check --tensor-cores --quick --only f16 --json "$RES/check-tc.json" 2>&1 | tail -4 | tee "$RES/check-tc.txt"
  [[ ${QUICK:-1} == 1 ]] && TFFT_CACHE_DIR=/tmp/tfftcache-new $BIN check --quick --json "$RES/check-quick.json" 2>&1 | tail -4 | tee "$RES/check-quick.txt"
fi
for n in ${NS:-1024 4096}; do
  for r in $(seq 1 ${REPS:-2}); do
    for pair in ${BINS:-prev:$PREV new:$BIN}; do
      b=${pair%%:*}; exe=${pair#*:}
      TFFT_CACHE_DIR=/tmp/tfftcache-$b $exe bench --n $n --precision f16 --variants-matching tensor_pair=true \
        --json "$RES/bench-$n-$b-r$r.json" 2>&1 | tail -30 > "$RES/bench-$n-$b-r$r.txt"
    done
  done
done
for pn in ${STAGED:-}; do
  p=${pn%:*}; n=${pn#*:}
  for b in prev new prev new; do
    exe=$BIN; [[ $b == prev ]] && exe=$PREV
    TFFT_CACHE_DIR=/tmp/tfftcache-$b $exe bench --n $n --precision $p 2>&1 | tail -8 >> "$RES/staged-$p-$n-$b.txt"
  done
done
# With NCU=1: Nsight Compute of the default tensor-core kernels of 4096 (stage pair) and 1024
# (one warp, 32 values per thread) for each binary: time, instructions, issue, DRAM, stalls.
if [[ ${NCU:-0} == 1 ]]; then
  M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
  for pair in ${BINS:-prev:$PREV new:$BIN}; do
    b=${pair%%:*}; exe=${pair#*:}
    for case in "4096:minblocks=2 prefetch=true twiddles_ahead=true persistent=true tensor_cores=true tensor_pair=true:n4096_.*_tc_tp_fwd" \
                "1024:E=32 T=32 B=8 io=Direct(V=4) twiddles=Table exchange=F32 smem=0B minblocks=2 prefetch=false twiddles_ahead=true persistent=true:n1024_.*_e32_.*_tc_ws_fwd"; do
      n=${case%%:*}; rest=${case#*:}; sel=${rest%%:*}; kr=${rest#*:}
      echo "== $b N=$n" >> "$RES/ncu.txt"
      TFFT_CACHE_DIR=/tmp/tfftcache-$b timeout 150 /usr/local/cuda/bin/ncu --clock-control none --metrics $M -k "regex:${kr}" -c 1 \
        $exe bench --n $n --precision f16 --reps 20 --variants-matching "$sel" 2>&1 | grep -E 'tfft_c2c|[a-z]__' >> "$RES/ncu.txt" || true
    done
  done
fi
