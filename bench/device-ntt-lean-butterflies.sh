# A/B of the leaner NTT butterflies (bench/NOTES.md step 59), tool `device`, carry [".gpu"]:
# tfft-base (the commit before) against tfft (unreduced differences into Shoup products, no
# product in each pass's last stage, even rounds where the plain split leaves one stage last,
# per-group addresses as compile-time offsets, compile-time sample distances, 32-bit twiddle
# exponents), interleaved; then the new binary's bit-exact check and the sanitizers.
# Usage: device-ntt-lean-butterflies.sh [REPS] [check]
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
ROWS="babybear:11:1 babybear:12:1 babybear:16:1 babybear:20:1 babybear:21:1 babybear:22:1 babybear:23:1 babybear:24:1
babybear:22:16 babybear:20:64 babybear:10:65536 babybear:11:32768 babybear:12:16384 babybear:16:1024 babybear:8:262144
koalabear:22:1 prime32:22:1 goldilocks:16:1 goldilocks:20:1 goldilocks:22:1 goldilocks:24:1 goldilocks:20:8 fhe62:16:40"
for rep in $(seq 1 "${1:-2}"); do
  for row in $ROWS; do
    IFS=: read f l b <<< "$row"
    for bin in tfft-base tfft; do
      r=$(timeout 30 ./$bin ntt bench --field $f --log-n $l --batch $b --reps 40 2>&1 | grep -E "^\s*$f|\|" | grep -v "^tfft" | tail -1)
      echo "$rep $bin $f 2^$l x$b: $r"
    done
  done
done | tee "$OUT/ntt-ab.txt"
[ "${2:-}" = check ] || exit 0
timeout 240 ./tfft ntt check --quick --json "$OUT/ntt-check.json" > "$OUT/ntt-check.txt" 2>&1
echo "check rc=$?"; tail -2 "$OUT/ntt-check.txt"
for t in memcheck:22 racecheck:11; do
  for f in babybear goldilocks; do
    echo "${t%:*} $f 2^${t#*:}"
    timeout 60 compute-sanitizer --tool ${t%:*} ./tfft ntt check --quick --field $f --log-n ${t#*:} 2>&1 | tail -2
  done
done | tee "$OUT/ntt-sanitizers.txt"
