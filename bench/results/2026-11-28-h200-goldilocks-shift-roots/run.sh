#!/bin/bash
# Goldilocks last-round roots as shifts (bench/NOTES.md step 113): bit-exact check of every
# Goldilocks case (4 shards side by side), A/B of old (HEAD 0275596) and new binaries
# alternating, sanitizer on one plan. Run from the repository root with .gpu/ carried.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft-* && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for k in 0 1 2 3; do
  (timeout 280 .gpu/tfft-new ntt check --field goldilocks --shard $k/4 > $OUT/check-goldilocks-$k.txt 2>&1; echo "rc=$?" >> $OUT/check-goldilocks-$k.txt) &
done
wait
for r in 1 2; do for b in old new; do
  for spec in "22 1 NR" "24 1 NR" "20 1 NR" "16 1 NR" "22 1 RN" "20 64 NR" "10 65536 NR"; do
    set -- $spec
    echo "== $b run $r log-n $1 batch $2 $3" >> $OUT/ab-$b.txt
    timeout 60 .gpu/tfft-$b ntt bench --field goldilocks --log-n $1 --batch $2 --orders $3 >> $OUT/ab-$b.txt 2>&1
  done
done; done
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck .gpu/tfft-new ntt check --field goldilocks --log-n 14 > $OUT/memcheck.txt 2>&1; echo "rc=$?" >> $OUT/memcheck.txt
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool racecheck .gpu/tfft-new ntt check --field goldilocks --log-n 11 > $OUT/racecheck.txt 2>&1; echo "rc=$?" >> $OUT/racecheck.txt
