#!/bin/bash
# BF16 32768 and 65536: the default (two passes on bf16x2 pairs of items) against TFFT_PAIRED=0
# (the cluster pass of two fused passes in f32 arithmetic) and TFFT_H2=0 (f32 everywhere),
# alternating, three runs (multipass_probe: 2^27 elements, errors against the f64 oracle).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x probe; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for r in 1 2 3; do for s in default paired0 h2off; do
  case $s in default) E="";; paired0) E="TFFT_PAIRED=0";; h2off) E="TFFT_H2=0";; esac
  echo "== run $r $s" >> $OUT/probe.txt
  env $E TFFT_SHOW=1 timeout 60 .gpu/probe bf16 32768 65536 >> $OUT/probe.txt 2>&1
done; done
cd $OUT && tar czf results.tar.gz *.txt; rm -f *.txt
