#!/bin/bash
# bench/NOTES.md step 121: the NTT baseline's block barriers as an explicit Cfg::BLOCK_BARRIERS (the SASS
# of every planned kernel compared is unchanged). `ntt check` of the sizes that hold the
# baseline cases (BabyBear 2^12 and 2^22, PRIME_32 2^16, Goldilocks 2^20), four processes; and
# BF16 N = 64 and 128 with the packed variants (the default from 256 is packed). Repository
# root, .gpu/ carried.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-new
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for spec in "babybear 12" "babybear 22" "prime32 16" "goldilocks 20"; do
  set -- $spec
  (timeout 240 $T ntt check --field $1 --log-n $2 > $OUT/ntt-check-$1-$2.txt 2>&1; echo "rc=$?" >> $OUT/ntt-check-$1-$2.txt) &
done
wait
for n in 64 128; do
  timeout 120 $T bench --n $n --precision bf16 --variants-matching "half_arithmetic=true" --json $OUT/bench-bf16-$n.json > $OUT/bench-bf16-$n.txt 2>&1
done
cd $OUT && tar czf results.tar.gz *.txt *.json; rm -f *.txt *.json
