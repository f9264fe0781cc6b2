nvidia-smi --query-gpu=name --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
R=$(mktemp -d)
for l in 0 1; do TFFT_LANDING=$l /usr/local/cuda/bin/ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats -k regex:tfft_c2c -s 3 -c 1 .gpu/multipass_probe f32 16384 > $R/ncu-f32-16384-landing$l.txt 2>&1; done
grep -E "Duration|Throughput|Stall|Warp Cycles Per Issued|Issued Ipc|No Eligible|Active Warps|Registers|Local" $R/ncu-*.txt | head -80
tar czf $OUT/results.tgz -C $R .
