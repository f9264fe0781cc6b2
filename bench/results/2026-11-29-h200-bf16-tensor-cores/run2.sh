#!/bin/bash
# Run 2 (after run 1: BF16 strided passes compute in f32 when the tensor cores are asked for,
# and the Python scratch size of 'bf16:tc' plans). Repository root, .gpu/ carried.
# 1. tfft check --tensor-cores --only bf16 --quick again (multi-pass cases now f32 strided).
# 2. multipass_probe of the multi-pass shapes: tensor cores asked, default, f32 arithmetic.
# 3. pytest -k bf16 with the wheel of this change.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-bf16tc
P=.gpu/probe-bf16tc
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
(timeout 200 $T check --tensor-cores --only bf16 --quick --json $OUT/check-bf16-tc.json > $OUT/check.txt 2>&1; echo "rc=$?" >> $OUT/check.txt)
SHAPES="bf16 65536 131072 1048576 1024x1024 8x1024x4 64x64x64"
for rep in 1 2; do
  for mode in tc default f32; do
    echo "== rep $rep $mode" >> $OUT/probe.txt
    case $mode in
      tc) TFFT_TC=1 TFFT_SHOW=1 timeout 120 $P $SHAPES >> $OUT/probe.txt 2>&1 ;;
      default) timeout 120 $P $SHAPES >> $OUT/probe.txt 2>&1 ;;
      f32) TFFT_H2=0 timeout 120 $P $SHAPES >> $OUT/probe.txt 2>&1 ;;
    esac
  done
done
PY=/opt/torch/.venv/bin/python
W=/tmp/wheel; mkdir -p $W; $PY -m zipfile -e .gpu/wheel/*.whl $W
PYTHONPATH=$W timeout 200 $PY -m pytest -q python/tests/test_gpu.py -k bf16 > $OUT/pytest-bf16.txt 2>&1; echo "rc=$?" >> $OUT/pytest-bf16.txt
