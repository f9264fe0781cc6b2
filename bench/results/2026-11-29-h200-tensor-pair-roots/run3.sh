#!/bin/bash
# Run 3: run 1's `tfft check --tensor-cores --only f16,bf16 --quick` again (its log did not come
# back), in two shards in parallel, summaries and any failure only.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-cr
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/log.txt
for k in 0 1 2; do
  (timeout 280 $T check --tensor-cores --only f16,bf16 --quick --shard $k/3 > /tmp/tc$k.txt 2>&1; echo "rc=$?" >> /tmp/tc$k.txt) &
done
wait
for k in 0 1 2; do echo "=== shard $k/3" >> $OUT/log.txt; grep -v "^\[.*ok (worst" /tmp/tc$k.txt >> $OUT/log.txt; echo "cases ok: $(grep -c 'ok (worst' /tmp/tc$k.txt)" >> $OUT/log.txt; grep -E "\] f16 (512|1024) |\] bf16 (512|1024) " /tmp/tc$k.txt >> $OUT/log.txt; done
