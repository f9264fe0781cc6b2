#!/usr/bin/env bash
# Second call: the microbench with mode 3 (two far tiles per block at G = 8: bytes in flight
# against row width), and ncu per pass of f32 2^24 x 4 / 2^26 with 32 items per tile (256-byte
# rows) and f64 512^3 with 16.
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/multipass_probe
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
lap() { echo "$1 rc=$2 t=$(( $(date +%s)-start ))" >> $D/rc.txt; }
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o /tmp/spm bench/stride_pattern_microbench.cu > $D/nvcc2.txt 2>&1; lap nvcc $?
timeout 120 /tmp/spm > $D/microbench2.txt 2>&1; lap microbench $?
NCU="/usr/local/cuda/bin/ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active --csv --launch-count 3"
ncu1() { local name=$1; shift
  L=$(( 560-($(date +%s)-start) )); [ $L -gt 25 ] || return
  env "$@" TFFT_SHOW=1 timeout $L $NCU .gpu/multipass_probe $PROBE > $D/ncu-$name.txt 2> $D/ncu-$name.err; lap "ncu $name" $?
}
PROBE="f32 16777216"; ncu1 f32-2p24x4-items32 TFFT_TOTAL=67108864 TFFT_ITEMS=32
PROBE="f32 67108864"; ncu1 f32-2p26-items32 TFFT_TOTAL=67108864 TFFT_ITEMS=32
PROBE="f64 512x512x512"; ncu1 f64-512cubed-items16 TFFT_TOTAL=134217728 TFFT_ITEMS=16
tar czf $OUT/results2.tgz -C $D .
cat $D/gpu.txt $D/rc.txt $D/nvcc2.txt $D/microbench2.txt
