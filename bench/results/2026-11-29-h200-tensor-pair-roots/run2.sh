#!/bin/bash
# Run 2 (run 1's checks hit their time limits, and its text logs did not come back: too many
# files): the tensor-core kernels on basis vectors (F16, BF16), and the F32Split tensor-core
# cases, in parallel, each into one log; then the summary lines only.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-cr
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/log.txt
(timeout 280 $T check --basis --only f16,bf16 --quick > /tmp/basis.txt 2>&1; echo "rc=$?" >> /tmp/basis.txt) &
(timeout 280 $T check --tensor-cores --only f32split --quick > /tmp/split.txt 2>&1; echo "rc=$?" >> /tmp/split.txt) &
wait
for f in basis split; do echo "=== $f" >> $OUT/log.txt; grep -v "^\[.*ok (worst" /tmp/$f.txt >> $OUT/log.txt; grep -c "ok (worst" /tmp/$f.txt >> $OUT/log.txt; grep "1024\|512" /tmp/$f.txt | head -40 >> $OUT/log.txt; done
