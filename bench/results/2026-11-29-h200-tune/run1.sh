#!/bin/bash
# Run 1: `tfft tune` (wisdom files; bench/NOTES.md step 124) on the H200. Repository root, .gpu/ carried.
# 1. tfft tune: f32 rows near cuFFT (64, 8192, 16384, 512², 1024², 2^20) and F16 with the tensor
#    cores asked (1024 … 8192, where the H100 preferred other launch shapes), into one wisdom file.
# 2. tfft bench of each tuned row with and without --wisdom, alternating, twice.
# 3. pytest -k wisdom (the wheel of this change): a wisdom entry changes the plan, not the result.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-tune
W=$OUT/wisdom-h200.json
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
timeout 170 $T tune --precision f32 --shape 64,8192,16384,512x512,1024x1024,1048576 --wisdom $W > $OUT/tune-f32.txt 2>&1; echo "rc=$?" >> $OUT/tune-f32.txt
timeout 130 $T tune --precision f16 --tensor-cores --shape 1024,2048,4096,8192 --wisdom $W > $OUT/tune-f16-tc.txt 2>&1; echo "rc=$?" >> $OUT/tune-f16-tc.txt
for rep in 1 2; do
  for mode in default wisdom; do
    for s in 64 8192 16384 512x512 1024x1024 1048576; do
      A=""; [ $mode = wisdom ] && A="--wisdom $W"
      echo "== rep $rep $mode f32 $s" >> $OUT/bench-ab.txt
      timeout 40 $T bench --shape $s --precision f32 --reps 30 $A >> $OUT/bench-ab.txt 2>&1
    done
    for s in 1024 2048 4096 8192; do
      A=""; [ $mode = wisdom ] && A="--wisdom $W"
      echo "== rep $rep $mode f16tc $s" >> $OUT/bench-ab.txt
      timeout 40 $T bench --shape $s --precision f16 --tensor-cores --reps 30 $A >> $OUT/bench-ab.txt 2>&1
    done
  done
done
PY=/opt/torch/.venv/bin/python
WH=/tmp/wheel; mkdir -p $WH; $PY -m zipfile -e .gpu/wheel/*.whl $WH
PYTHONPATH=$WH timeout 120 $PY -m pytest -q -x python/tests/test_gpu.py -k "wisdom or plan_object or plan_tensor_cores" > $OUT/pytest-wisdom.txt 2>&1; echo "rc=$?" >> $OUT/pytest-wisdom.txt
