#!/bin/bash
# The F16 pair pass whose SASS step 120's templates reordered (same 4936 instructions; the
# staged-store pair pass of 2^20 / 1024²): old (a640ad6) against new (fda3a62) alternating, two
# runs; the new binary's checks of those shapes, and a quarter of the quick BF16 sweep.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for r in 1 2; do for b in old new; do
  for s in 1048576 1024x1024 65536; do
    echo "== $b run $r f16 $s" >> $OUT/ab.txt
    timeout 60 .gpu/tfft-$b bench --shape $s --precision f16 >> $OUT/ab.txt 2>&1
  done
done; done
for s in 1048576 1024x1024; do
  timeout 90 .gpu/tfft-new check --shape $s --precision f16 > $OUT/check-f16-$s.txt 2>&1; echo "rc=$?" >> $OUT/check-f16-$s.txt
done
timeout 150 .gpu/tfft-new check --only bf16 --quick --shard 1/4 > $OUT/check-bf16-quick-1of4.txt 2>&1; echo "rc=$?" >> $OUT/check-bf16-quick-1of4.txt
cd $OUT && tar czf results.tar.gz *.txt; rm -f *.txt
