#!/bin/bash
# Run 2: run 1's A/B again, three alternations, on the rows that moved (f32 4096 / 8192 / 16384,
# f16 64) and the other f16 rows on f32 registers (16, 32).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/log.txt
for rep in 1 2 3; do for b in old rr; do
  echo "== rep $rep $b" >> $OUT/log.txt
  timeout 40 .gpu/probe-$b f32 4096 8192 16384 f16 16 32 64 2>&1 | grep "% of copy\|rror" | sed 's/passes=.*err=/err=/' >> $OUT/log.txt
done; done
