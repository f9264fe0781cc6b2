nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi --query-gpu=name --format=csv,noheader; exit 3; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
R=$(mktemp -d)
for i in 1 2; do for g in 0 1; do echo "== rep $i grouped $g"; TFFT_GROUPED=$g .gpu/multipass_probe f32 16384 f64 8192 2>&1; done; done | sed 's/passes=1 //' | tee $R/probe-grouped.txt
TFFT_TOTAL=$((16384*140)) TFFT_GROUPED=1 timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool racecheck .gpu/multipass_probe f32 16384 > $R/racecheck.txt 2>&1; tail -2 $R/racecheck.txt
tar czf $OUT/results.tgz -C $R .
