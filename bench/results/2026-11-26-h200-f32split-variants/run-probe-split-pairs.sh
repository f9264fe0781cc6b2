nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi --query-gpu=name --format=csv,noheader; exit 3; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
R=$(mktemp -d)
for i in 1 2; do
for v in "TFFT_X=0" "TFFT_PAIRS=1 TFFT_PERSISTENT=1" "TFFT_PAIRS=1 TFFT_PERSISTENT=1 TFFT_MIN_BLOCKS=3"; do
  echo "== rep $i $v"; env $v .gpu/multipass_probe f32split 1024 4096 8192 2>&1
done
for v in "TFFT_PAIRS=1 TFFT_E=32 TFFT_PERSISTENT=1" "TFFT_PAIRS=1 TFFT_E=32 TFFT_PERSISTENT=0"; do
  echo "== rep $i $v"; env $v .gpu/multipass_probe f32split 1024 2>&1
done
done | sed 's/passes=1 //' | tee $R/probe-split-pairs.txt
tar czf $OUT/results.tgz -C $R .
