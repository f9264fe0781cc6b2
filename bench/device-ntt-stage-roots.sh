#!/usr/bin/env bash
# NTT A/B scripts (bench/NOTES.md steps 67-68: per-stage root tables, slot twiddles; tool `device`, kind nvidia-h200, carry
# [".gpu"]). Build here: `tfft` from this commit and `tfft-base` from the commit before; copy
# both and this script to .gpu/ (BASE=./other-binary picks another base). `./device-ntt-stage-roots.sh check` runs the bit-exact sweep
# (check-quick.txt, about 4 minutes), `ab` the alternating quick benches (base, new, base, new:
# ab.txt and the JSONs), `ncu` the L1 counters of the 2^22 passes and the 2^10 x 65536 row
# pass (ncu.txt, new binary). Each stays within one 10-minute device call.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
if [ "${1:-}" = check ]; then
  ( time timeout 520 ./tfft ntt check --quick ) 2>&1 | tail -8 | tee "$OUT/check-quick.txt"
fi
[ "${1:-}" = ab ] && for r in 1 2; do for b in base new; do
  bin=./tfft; [ $b = base ] && bin=${BASE:-./tfft-base}
  echo "== $b rep $r" >> "$OUT/ab.txt"
  timeout 200 $bin ntt bench --quick --json "$OUT/ntt-$b-r$r.json" 2>&1 | grep -E '^(babybear|koalabear|goldilocks|fhe62)' | sort -u >> "$OUT/ab.txt"
done; done
[ "${1:-}" = ncu ] || exit 0
M=gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
timeout 120 /usr/local/cuda/bin/ncu --clock-control none --metrics $M -k 'regex:ntt_' -c 2 ./tfft ntt bench --log-n 22 --batch 1 --reps 20 2>&1 | grep -E 'ntt_|[a-z]__' | tee -a "$OUT/ncu.txt"
timeout 120 /usr/local/cuda/bin/ncu --clock-control none --metrics $M -k 'regex:ntt_' -c 1 ./tfft ntt bench --log-n 10 --batch 65536 --reps 20 2>&1 | grep -E 'ntt_|[a-z]__' | tee -a "$OUT/ncu.txt"
