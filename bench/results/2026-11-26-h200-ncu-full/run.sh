nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi --query-gpu=name --format=csv,noheader; exit 3; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
R=$(mktemp -d)
/usr/local/cuda/bin/ncu --clock-control none --set full -k regex:tfft_c2c -s 3 -c 1 .gpu/multipass_probe f32 16384 > $R/ncu-full-f32-16384.txt 2>&1
/usr/local/cuda/bin/ncu --clock-control none --set full -k regex:tfft_c2c -s 3 -c 1 .gpu/multipass_probe f32split 4096 > $R/ncu-full-f32split-4096.txt 2>&1
/usr/local/cuda/bin/ncu --clock-control none --set full -k regex:tfft_c2c -s 3 -c 1 .gpu/multipass_probe f32 8192 > $R/ncu-full-f32-8192.txt 2>&1
for f in $R/ncu-full-*.txt; do echo "== $f"; grep -E "Duration|Issued Warp Per Scheduler|No Eligible|Warp Cycles Per Issued|Achieved Active Warps|Executed Instructions  |DRAM Throughput" $f | head -12; done
tar czf $OUT/results.tgz -C $R .
