nvidia-smi --query-gpu=name --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
R=$(mktemp -d)
for i in 1 2; do
for v in "TFFT_X=0" "TFFT_E=32 TFFT_MAX_RADIX=32 TFFT_MIN_BLOCKS=1" "TFFT_E=32 TFFT_MIN_BLOCKS=1" "TFFT_E=32 TFFT_MAX_RADIX=32 TFFT_MIN_BLOCKS=1 TFFT_TW_AHEAD=0" "TFFT_E=32 TFFT_MAX_RADIX=32 TFFT_MIN_BLOCKS=1 TFFT_LANDING=1" "TFFT_E=32 TFFT_MAX_RADIX=32 TFFT_MIN_BLOCKS=1 TFFT_PERSISTENT=1"; do
  echo "== rep $i $v f32"; env $v .gpu/multipass_probe f32 16384 2>&1
done
for v in "TFFT_X=0" "TFFT_E=16" "TFFT_E=16 TFFT_TW_AHEAD=1" "TFFT_E=32 TFFT_MAX_RADIX=32" "TFFT_E=16 TFFT_MAX_RADIX=32"; do
  echo "== rep $i $v f64"; env $v .gpu/multipass_probe f64 8192 2>&1
done
done | tee $R/probe-shapes.txt
tar czf $OUT/results.tgz -C $R .
