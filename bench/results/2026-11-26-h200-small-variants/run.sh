nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi --query-gpu=name --format=csv,noheader; exit 3; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
R=$(mktemp -d)
for pn in "f64 16" "f64 32" "f64 64" "f64 128" "f64 256" "f64 512" "f32 64"; do set -- $pn
  timeout 80 .gpu/tfft bench --n $2 --precision $1 --variants --json $R/variants-$1-$2.json > $R/variants-$1-$2.txt 2>&1; echo "$pn rc=$?"
done
tar czf $OUT/results.tgz -C $R .
