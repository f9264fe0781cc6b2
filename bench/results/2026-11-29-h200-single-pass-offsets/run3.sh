#!/bin/bash
# Run 3: the final binary C (steps 133-134 as committed: additive single-pass positions on
# 1024-thread blocks; opaque NTT group positions in decimation in time and with a factor):
# `tfft ntt check --quick` in four shards side by side, f32 / f32split 16384 checks, and one
# `tfft bench` row each of f32 16384 forward and inverse.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
R=$OUT/run3; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for k in 0 1 2 3; do
  (timeout 330 .gpu/tfft-C ntt check --quick --shard $k/4 > $R/ntt-check-$k.txt 2>&1; echo "rc=$?" >> $R/ntt-check-$k.txt) &
done
wait
tail -n 2 $R/ntt-check-*.txt
for p in f32 f32split; do timeout 60 .gpu/tfft-C check --shape 16384 --precision $p > $R/check-$p-16384.txt 2>&1; tail -1 $R/check-$p-16384.txt; done
for d in forward inverse; do timeout 60 .gpu/tfft-C bench --shape 16384 --precision f32 --direction $d --json $R/bench-f32-16384-$d.json > $R/bench-f32-16384-$d.txt 2>&1; tail -2 $R/bench-f32-16384-$d.txt; done
cd $OUT && tar czf run3.tgz run3 && rm -rf run3
