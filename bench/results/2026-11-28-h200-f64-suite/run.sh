#!/bin/bash
# The f64 suite on the H200 at main after steps 104-105 (code of 35fe9b6): README's f64 table.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
.gpu/tfft bench --suite full --only f64 --json $OUT/bench-f64.json --plot $OUT/bench-f64.png > $OUT/bench-f64.txt 2>&1
echo "rc=$?"; tail -45 $OUT/bench-f64.txt
