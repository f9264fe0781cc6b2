#!/bin/bash
# The short round first instead of last (TFFT_REV_ROUNDS=1, an experiment knob of the binary of
# step 115): bit-exact checks with the knob, then A/B of the same binary with and without it,
# alternating, two runs. Repository root, .gpu/ carried; results in $OUT/results.tar.gz.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
R=/tmp/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for k in 0 1 2 3 4 5; do
  (TFFT_REV_ROUNDS=1 timeout 200 .gpu/tfft ntt check --quick --shard $k/6 > $R/check-quick-$k.txt 2>&1; echo "rc=$?" >> $R/check-quick-$k.txt) &
done
wait
for l in 22 23 24; do
  (TFFT_REV_ROUNDS=1 timeout 200 .gpu/tfft ntt check --log-n $l > $R/check-$l.txt 2>&1; echo "rc=$?" >> $R/check-$l.txt) &
done
wait
for r in 1 2; do for v in base rev; do
  for spec in "babybear 22 1 NR" "babybear 24 1 NR" "babybear 23 1 NR" "babybear 20 1 NR" "babybear 22 1 RN" \
              "babybear 22 16 NR" "babybear 20 64 NR" "babybear 12 16384 NR" "babybear 11 32768 NR" \
              "goldilocks 22 1 NR" "goldilocks 24 1 NR" "goldilocks 20 64 NR" "fhe62 16 40 NR"; do
    set -- $spec
    echo "== $v run $r $1 log-n $2 batch $3 $4" >> $R/ab-$v.txt
    if [ $v = rev ]; then export TFFT_REV_ROUNDS=1; else unset TFFT_REV_ROUNDS; fi
    timeout 60 .gpu/tfft ntt bench --field $1 --log-n $2 --batch $3 --orders $4 >> $R/ab-$v.txt 2>&1
  done
done; done
unset TFFT_REV_ROUNDS
tar czf $OUT/results.tar.gz -C $R .
