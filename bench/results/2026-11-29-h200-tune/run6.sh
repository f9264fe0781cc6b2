#!/bin/bash
# Run 6: `tfft tune` compiling its variants on all cores first (`Gpu::precompile_c2c`), cold
# kernel cache: f32 8192 and 512² (run 1 / run 2 took about 60 s and about 170 s for them),
# and the NTT check whose precompile now shares `ModuleCache::precompile_all`.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-tune4
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for s in 8192 512x512; do
  t0=$SECONDS; timeout 120 $T tune --precision f32 --shape $s --wisdom $OUT/wisdom.json >> $OUT/tune.txt 2>&1; echo "rc=$? $s took $((SECONDS - t0)) s" >> $OUT/tune.txt
done
timeout 40 $T ntt check --log-n 12 --field babybear > $OUT/ntt-check.txt 2>&1; echo "rc=$?" >> $OUT/ntt-check.txt
