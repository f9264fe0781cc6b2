#!/bin/bash
# Run 1: the single-pass kernel's direct last stage with the twiddles of the u-th butterfly of a
# vector run as the first one's times the constant w^(u r) (f32: half the last stage's table
# reads). multipass_probe old (c9f5586) / new alternating twice; tfft bench of f32 64 and 8192.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/log.txt
for rep in 1 2; do for b in old rr; do
  echo "== rep $rep $b" >> $OUT/log.txt
  timeout 50 .gpu/probe-$b f32 64 256 1024 4096 8192 16384 f16 64 2>&1 | grep "% of copy\|rror" | sed 's/passes=.*err=/err=/' >> $OUT/log.txt
done; done
for n in 64 8192; do timeout 40 .gpu/tfft-rr bench --n $n --precision f32 2>&1 | grep "^f32" >> $OUT/log.txt; done
