#!/bin/bash
# Why u32 rows of 1024 at 32 values per thread lose by decimation in frequency (0.67x) and win
# in time (1.09x), bench/NOTES.md step 118: ncu (full set, clocks not controlled) of the first
# 1024-point row kernel of BabyBear 2^10 x 65536 in head (f73c07e: NR 16 values, RN 32) and
# nr32 (NR at 32 values too). Repository root, .gpu/ carried.
cd .gpu && gunzip -f ./*.gz && chmod +x tfft-* && cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
N=/usr/local/cuda/bin/ncu
for v in "head NR" "nr32 NR" "head RN"; do
  set -- $v
  timeout 150 $N --clock-control none --set full -k regex:ntt_u32 --launch-count 1 \
    .gpu/tfft-$1 ntt bench --field babybear --log-n 10 --batch 65536 --orders $2 --reps 3 > $OUT/ncu-$1-$2.txt 2>&1
  echo "rc=$?" >> $OUT/ncu-$1-$2.txt
done
cd $OUT && tar czf results.tar.gz *.txt && rm -f *.txt
