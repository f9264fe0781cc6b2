#!/bin/bash
# Root-1 butterflies of a last round skipped in every field (bench/NOTES.md step 114): the full
# `tfft ntt check` of the new binary (8 shards side by side), A/B of old (da2fb43) and new
# binaries alternating, racecheck on one u32 and one u64 plan. Repository root, .gpu/ carried.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft-* && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for k in 0 1 2 3 4 5 6 7; do
  (timeout 300 .gpu/tfft-new ntt check --shard $k/8 > $OUT/check-$k.txt 2>&1; echo "rc=$?" >> $OUT/check-$k.txt) &
done
wait
for r in 1 2; do for b in old new; do
  for spec in "babybear 22 1 NR" "babybear 24 1 NR" "babybear 20 1 NR" "babybear 16 1 NR" "babybear 22 1 RN" \
              "babybear 22 16 NR" "babybear 20 64 NR" "babybear 10 65536 NR" "babybear 12 16384 NR" \
              "goldilocks 22 1 NR" "fhe62 16 40 NR"; do
    set -- $spec
    echo "== $b run $r $1 log-n $2 batch $3 $4" >> $OUT/ab-$b.txt
    timeout 60 .gpu/tfft-$b ntt bench --field $1 --log-n $2 --batch $3 --orders $4 >> $OUT/ab-$b.txt 2>&1
  done
done; done
timeout 80 /usr/local/cuda/bin/compute-sanitizer --tool racecheck .gpu/tfft-new ntt check --field babybear --log-n 12 > $OUT/racecheck-u32.txt 2>&1; echo "rc=$?" >> $OUT/racecheck-u32.txt
timeout 80 /usr/local/cuda/bin/compute-sanitizer --tool racecheck .gpu/tfft-new ntt check --field goldilocks --log-n 11 > $OUT/racecheck-u64.txt 2>&1; echo "rc=$?" >> $OUT/racecheck-u64.txt
tail -c 300 $OUT/racecheck-*.txt > $OUT/racecheck-tails.txt
