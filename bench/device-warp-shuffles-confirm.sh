#!/usr/bin/env bash
# (Recipes printed a bare `warp_shuffles` when this ran; now `warp_shuffles=true`.)
# Rounds 2 and 3 of bench/NOTES.md step 57 and the committed planner's rows (see
# device-warp-shuffles.sh for the binaries; run as .gpu/device-warp-shuffles-confirm.sh).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2; do for pn in f32:4 f32:8 f32:32 f16:4 f16:8 f16:16 bf16:8 f64:4; do
  ./tfft-ab bench --n "${pn#*:}" --precision "${pn%:*}" --variants-matching warp_shuffles=true --json "$OUT/ab-r$r-${pn%:*}-${pn#*:}.json" 2>&1 | grep -vE '^\s*$|^prec|tfft bench|^wrote' >> "$OUT/ab-h200.txt"
done; done
tar -C "$OUT" -cf "$OUT/ab-h200-json.tar" $(cd $OUT; ls ab-r*.json) && rm "$OUT"/ab-r*.json
for pn in f32:32 f16:4 f16:8 bf16:4 bf16:8; do
  ./tfft bench --n "${pn#*:}" --precision "${pn%:*}" --json "$OUT/def-${pn%:*}-${pn#*:}.json" 2>&1 | grep -E '^(f|b)[0-9a-z]* +[0-9]' | head -1
  ./tfft check --n "${pn#*:}" --batch 1001 --precision "${pn%:*}" 2>&1 | tail -1
done | tee "$OUT/defaults-h200.txt"
tar -C "$OUT" -cf "$OUT/defaults-h200-json.tar" $(cd $OUT; ls def-*.json) && rm "$OUT"/def-*.json
grep -E "^(f|b)[0-9a-z]* +[0-9]" "$OUT/ab-h200.txt" | sort -u | head -20
