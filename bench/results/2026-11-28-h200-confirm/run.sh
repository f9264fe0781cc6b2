#!/usr/bin/env bash
# db7c9e7 on the H200: (1) the f64 suite with step 100's 128-byte rows for passes of 512;
# (2) python/bench.py (the wheel built here from db7c9e7, unpacked on the device);
# (3) ncu of our passes and cuFFT's kernels for the rows where we trail cuFFT (one process each);
# (4) the F16 tensor-core variants of 1024 (one-warp against two-warp pair), twice.
# Tool `device`, kind nvidia-h200, carry [".gpu"]. Results in $OUT/results.tgz.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
timeout 185 $T bench --suite full --only f64 --json $D/bench-f64.json --plot $D/bench-f64.png > $D/bench-f64.txt 2>&1
echo "f64 rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 150 $PY python/bench.py --json $D/py-bench.json > $D/py-bench.txt 2>&1
echo "py bench rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,sm__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
for c in "--n 67108864 --precision f64" "--shape 512x512x512 --precision f64" "--shape 512x512 --precision f64" "--n 16777216 --precision f64" "--n 65536 --precision f64" "--shape 1024x1024 --precision f32" "--n 8192 --precision f32"; do
  name=$(echo "$c" | tr -d ' -')
  timeout 90 /usr/local/cuda/bin/ncu --clock-control none --metrics $M --csv --launch-count 160 $T bench $c --reps 20 > $D/ncu-$name.csv 2> $D/ncu-$name.err
  echo "ncu $c rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
for rep in 1 2; do
  timeout 60 $T bench --n 1024 --precision f16 --tensor-cores --variants --json $D/tc1024-$rep.json > $D/tc1024-$rep.txt 2>&1
  echo "tc1024 $rep rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
done
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt; grep -hE "^f64 " $D/bench-f64.txt | head -24
