#!/usr/bin/env bash
# The standard device call (tool `device`, `run`): build here with
#   cargo build --release -p tfft && cargo build --release -p tensorfft --example multipass_probe
#   mkdir -p .gpu && cp target/release/tfft target/release/examples/multipass_probe bench/device-run.sh .gpu/
# then run `.gpu/device-run.sh [check|bench|probe|all]` with carry [".gpu"]; results land in $OUT
# (check-quick.json/.txt, bench.json/.txt/.png, probe.txt). Each part fits the 10-minute limit of
# one call on an H200 (check ~3 min, bench ~8 min, probe ~2 min): call them separately.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
export TFFT_CACHE_DIR=/tmp/tfftcache
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
part=${1:-check}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "$part" = check ] || [ "$part" = all ]; then
  ./tfft check --quick --json "$OUT/check-quick.json" > "$OUT/check-quick.txt" 2>&1
  echo "check rc=$?"; tail -12 "$OUT/check-quick.txt"
fi
if [ "$part" = bench ] || [ "$part" = all ]; then
  timeout 570 ./tfft bench --suite full --json "$OUT/bench.json" --plot "$OUT/bench.png" > "$OUT/bench.txt" 2>&1
  echo "bench rc=$?"; grep -E "^f32 +(65536|262144|1048576)|^f16 +(65536|1048576)" "$OUT/bench.txt"
fi
if [ "$part" = probe ] || [ "$part" = all ]; then
  # Open experiments (bench/NOTES.md): derived twiddles in the strided passes (step 31).
  for v in 0 1; do
    echo "== TFFT_DERIVED=$v"
    TFFT_DERIVED=$v ./multipass_probe f32 262144 1048576 1024x1024 64x64x64 f16 1048576 2>&1 | sed 's/bound=.*|//'
  done | tee "$OUT/probe.txt"
fi
