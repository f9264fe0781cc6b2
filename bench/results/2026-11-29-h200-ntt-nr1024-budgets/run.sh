#!/bin/bash
# Experiment (not landed unless it wins): u32 rows of 1024 by decimation in frequency at 32
# values per thread with register budgets 64 / 72 / 80 (TFFT_NTT_EXP) against the default 16.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-exp
for r in 72 80; do
  (TFFT_NTT_EXP=$r timeout 200 $T ntt check --log-n 10 > $OUT/check-$r-10.txt 2>&1; echo "rc=$?" >> $OUT/check-$r-10.txt) &
done
wait
for run in 1 2; do for v in default 64 72 80; do
  for spec in "babybear 10 65536 NR" "babybear 10 65536 NN" "koalabear 10 65536 NR" "babybear 20 64 NR" "babybear 20 1 NR" "babybear 11 32768 NR"; do
    set -- $spec
    echo "== $v run $run $1 log-n $2 batch $3 $4" >> $OUT/ab-$v.txt
    if [ $v = default ]; then timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 >> $OUT/ab-$v.txt 2>&1
    else TFFT_NTT_EXP=$v timeout 60 $T ntt bench --field $1 --log-n $2 --batch $3 --orders $4 >> $OUT/ab-$v.txt 2>&1; fi
  done
done; done
cd $OUT && tar czf results.tar.gz *.txt; rm -f *.txt
