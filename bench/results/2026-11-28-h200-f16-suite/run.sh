#!/bin/bash
# The f16 suite on the H200 at a48f5f7 (in fact the binary was built at 83a5660: README.md) (steps 108-109 in: derived twiddles in packed half from
# 8192, the inverse as the forward on swapped parts), and compute-sanitizer memcheck and
# racecheck on the changed packed-half single pass (both directions). Tool `device`, kind
# nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
.gpu/tfft bench --suite full --only f16 --json $OUT/bench-f16.json --plot $OUT/bench-f16.png > $OUT/bench-f16.txt 2>&1
echo "suite rc=$?"
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do for s in 1024 16384 32768 2x16384; do for d in forward inverse; do
  echo "== $tool f16 $s $d"
  timeout 100 $CS --tool $tool --print-limit 5 .gpu/tfft check --shape $s --precision f16 --direction $d 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|rror" | head -4
done; done; done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt; grep -E "^f16 " $OUT/bench-f16.txt | head -30
