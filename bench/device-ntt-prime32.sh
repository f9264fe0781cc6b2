set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
OUT=${OUT:-/tmp/out}; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 ./tfft ntt check --quick --field prime32 --json "$OUT/ntt-check-prime32.json" > "$OUT/ntt-check-prime32.txt" 2>&1
echo "check rc=$?"; tail -2 "$OUT/ntt-check-prime32.txt"
for f in babybear prime32; do
  for lb in 20:1 22:1 24:1 20:64 12:16384; do
    timeout 20 ./tfft ntt bench --field $f --log-n ${lb%:*} --batch ${lb#*:} 2>&1 | grep -vE "^\s*$|^tfft|^wrote"
  done
done | tee "$OUT/ntt-bench-prime32.txt"
timeout 40 compute-sanitizer --tool memcheck ./tfft ntt check --quick --field prime32 --log-n 12 2>&1 | tail -2 | tee "$OUT/ntt-memcheck-prime32.txt"
