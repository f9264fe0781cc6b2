#!/usr/bin/env bash
# The device run behind bench/NOTES.md step 57 (tool `device`, `run`, carry [".gpu"]): the
# warp-shuffle FFT kernel against the Stockham single pass, N = 4 … 1024, every precision.
# Build here: `tfft-ab` with the planner's shuffle defaults switched off (every default row is
# the Stockham kernel, the shuffle recipes are its variants) and `tfft` as committed, then
#   mkdir -p .gpu && cp <both binaries> bench/device-warp-shuffles.sh .gpu/
#   .gpu/device-warp-shuffles.sh
# Results in $OUT: check-shfl.txt/.json, ab.txt and ab-json.tar (one bench JSON per row),
# defaults.txt (the committed planner's rows vs cuFFT), sanitizer.txt.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
export TFFT_CACHE_DIR=/tmp/tfftcache
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/ab"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
./tfft check --warp-shuffles --quick --json "$OUT/check-shfl.json" > "$OUT/check-shfl.txt" 2>&1
echo "check rc=$?"; tail -4 "$OUT/check-shfl.txt"
for p in f32 f16 bf16 f64; do
  for n in 4 8 16 32 64 128 256 512 1024; do
    ./tfft-ab bench --n "$n" --precision "$p" --variants-matching warp_shuffles=true \
      --json "$OUT/ab/$p-$n.json" 2>&1 | grep -vE '^\s*$' >> "$OUT/ab.txt"
  done
done
echo "ab done"
tar -C "$OUT" -cf "$OUT/ab-json.tar" ab && rm -r "$OUT/ab"
for pn in f32:4 f32:8 f32:32 f16:4 f16:8 bf16:4 bf16:8 f64:4; do
  ./tfft bench --n "${pn#*:}" --precision "${pn%:*}" 2>&1 | grep -vE '^\s*$' >> "$OUT/defaults.txt"
done
cat "$OUT/defaults.txt" | grep -E '^(f|b)' | head -40
for pn in f32:32 f16:8 f64:4; do
  compute-sanitizer --tool memcheck ./tfft check --n "${pn#*:}" --batch 37 --precision "${pn%:*}" 2>&1 | tail -3
done > "$OUT/sanitizer.txt"
cat "$OUT/sanitizer.txt"
