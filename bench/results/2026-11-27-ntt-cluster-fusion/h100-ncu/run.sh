#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader
D=$(mktemp -d)
T=.gpu/tfft
R='^(babybear|goldilocks|koalabear|fhe)'
for L in 13 15 16 17; do $T ntt bench --log-n $L --batch $((1<<(26-L))) --json $D/bbB-$L.json 2>&1 | tee $D/bbB-$L.txt | grep -E "$R"; done
NCU="/usr/local/cuda/bin/ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats"
$NCU -k regex:ntt_cluster -s 3 -c 1 $T ntt bench --log-n 16 --batch 1024 --reps 20 > $D/ncu-fused.txt 2>&1; echo ncu1 $?
$NCU -k regex:ntt_u32d -s 6 -c 2 $T ntt bench --log-n 16 --batch 1024 --reps 20 --cluster 0 > $D/ncu-unfused.txt 2>&1; echo ncu2 $?
grep -E "^  ntt|Duration|Executed Ipc Active|Issue Slots Busy|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|Registers Per|Block Limit|Stall|No Eligible|One or More" $D/ncu-fused.txt $D/ncu-unfused.txt | head -80
/usr/local/cuda/bin/compute-sanitizer --tool racecheck $T ntt bench --log-n 13 --batch 4 --reps 20 > $D/racecheck.txt 2>&1; echo race $?; tail -3 $D/racecheck.txt
/usr/local/cuda/bin/compute-sanitizer --tool memcheck $T ntt bench --log-n 16 --batch 8 --reps 20 > $D/memcheck.txt 2>&1; echo mem $?; tail -3 $D/memcheck.txt
tar czf $OUT/results.tgz -C $D .
