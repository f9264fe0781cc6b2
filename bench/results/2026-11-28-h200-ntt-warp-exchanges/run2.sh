#!/bin/bash
# Second call of step 117: rows of 1024 at 32 values per thread only where they run by
# decimation in time (rn1024) against the warp-barrier binary (warp), alternating, two runs
# each; then the full `tfft ntt check` of rn1024 in 8 shards beside racecheck of warp-local
# exchanges. Repository root, .gpu/ carried.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft-* && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu2.txt
for r in 1 2; do for b in warp rn1024; do
  for spec in "babybear 10 65536 RN" "koalabear 10 65536 RN" "babybear 20 64 RN" "babybear 20 1 RN" \
              "babybear 21 32 RN" "babybear 20 64 NN" "babybear 10 65536 NN" "babybear 10 65536 NR" "babybear 22 16 RN"; do
    set -- $spec
    echo "== $b run $r $1 log-n $2 batch $3 $4" >> $OUT/ab2-$b.txt
    timeout 60 .gpu/tfft-$b ntt bench --field $1 --log-n $2 --batch $3 --orders $4 >> $OUT/ab2-$b.txt 2>&1
  done
done; done
for k in 0 1 2 3 4 5 6 7; do
  (timeout 320 .gpu/tfft-rn1024 ntt check --shard $k/8 > $OUT/fullcheck-$k.txt 2>&1; echo "rc=$?" >> $OUT/fullcheck-$k.txt) &
done
S=/usr/local/cuda/bin/compute-sanitizer
(
timeout 100 $S --tool racecheck .gpu/tfft-rn1024 ntt check --field babybear --log-n 10 > $OUT/racecheck-u32-1024.txt 2>&1; echo "rc=$?" >> $OUT/racecheck-u32-1024.txt
timeout 100 $S --tool racecheck .gpu/tfft-rn1024 ntt check --field babybear --log-n 9 > $OUT/racecheck-u32-512.txt 2>&1; echo "rc=$?" >> $OUT/racecheck-u32-512.txt
timeout 100 $S --tool racecheck .gpu/tfft-rn1024 ntt check --field goldilocks --log-n 8 > $OUT/racecheck-u64-256.txt 2>&1; echo "rc=$?" >> $OUT/racecheck-u64-256.txt
) &
wait
tail -c 300 $OUT/racecheck-*.txt > $OUT/sanitizer-tails.txt
cd $OUT && tar czf results2.tar.gz *.txt && rm -f *.txt
