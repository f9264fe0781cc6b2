#!/bin/bash
# Exchanges of warp-local items wait on __syncwarp instead of the block barrier (bench/NOTES.md
# step 117), with u32 rows of 1024 (v1024) and 512 (v512) at 32 values per thread (one warp per
# item): bit-exactness (`ntt check --quick`, sharded), A/B of the four binaries alternating, two
# runs each (sanitizers: run2.sh). Repository root, .gpu/ carried.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft-* && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for b in warp v1024 v512; do for k in 0 1 2 3; do
  (timeout 150 .gpu/tfft-$b ntt check --quick --shard $k/4 > $OUT/check-$b-$k.txt 2>&1; echo "rc=$?" >> $OUT/check-$b-$k.txt) &
done; done
wait
for r in 1 2; do for b in old warp v1024 v512; do
  for spec in "babybear 10 65536 NR" "babybear 9 131072 NR" "babybear 8 262144 NR" "babybear 16 1024 NR" \
              "babybear 20 64 NR" "babybear 20 1 NR" "babybear 16 1 NR" "babybear 10 65536 RN" \
              "babybear 22 1 NR" "babybear 22 16 NR" "goldilocks 16 1024 NR" "goldilocks 8 262144 NR" "fhe62 16 40 NR"; do
    set -- $spec
    echo "== $b run $r $1 log-n $2 batch $3 $4" >> $OUT/ab-$b.txt
    timeout 60 .gpu/tfft-$b ntt bench --field $1 --log-n $2 --batch $3 --orders $4 >> $OUT/ab-$b.txt 2>&1
  done
done; done
cd $OUT && tar czf results.tar.gz *.txt && rm -f *.txt
