#!/bin/bash
# Run 1 (binaries and wheel of 001eb79): BF16 on the tensor cores (Tuning::tensor_cores, opt-in; bf16 mma.sync on F16's kernels;
# bench/NOTES.md step 123). Repository root, .gpu/ carried.
# 1. tfft check --tensor-cores --only bf16 --quick: BF16 tensor-core cases on random data
#    (single passes 256 … 16384, per-stage 4096, multi-pass shapes) and on basis vectors.
# 2. multipass_probe, the same shapes three ways in one process each, twice alternating:
#    tensor cores (TFFT_TC=1), the default (packed bf16x2), f32 arithmetic (TFFT_H2=0); F16 on
#    the tensor cores once for reference.
# 3. memcheck and racecheck of a BF16 tensor-core single pass (4096) and two-pass plan (2^20).
# 4. pytest -k bf16 with the wheel of this change.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-bf16tc
P=.gpu/probe-bf16tc
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
(timeout 200 $T check --tensor-cores --only bf16 --quick --json $OUT/check-bf16-tc.json > $OUT/check.txt 2>&1; echo "rc=$?" >> $OUT/check.txt) &
wait
SHAPES="bf16 256 512 1024 2048 4096 8192 16384 65536 1048576 1024x1024 64x64x64"
for rep in 1 2; do
  for mode in tc default f32; do
    echo "== rep $rep $mode" >> $OUT/probe.txt
    case $mode in
      tc) TFFT_TC=1 timeout 120 $P $SHAPES >> $OUT/probe.txt 2>&1 ;;
      default) timeout 120 $P $SHAPES >> $OUT/probe.txt 2>&1 ;;
      f32) TFFT_H2=0 timeout 120 $P $SHAPES >> $OUT/probe.txt 2>&1 ;;
    esac
  done
done
echo "== f16 tc" >> $OUT/probe.txt
TFFT_TC=1 timeout 120 $P f16 256 512 1024 2048 4096 8192 16384 >> $OUT/probe.txt 2>&1
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  echo "== $tool bf16 tc 4096 1048576" >> $OUT/sanitize.txt
  TFFT_TC=1 TFFT_TOTAL=2097152 timeout 120 $CS --tool $tool --print-limit 5 $P bf16 4096 1048576 >> $OUT/sanitize.txt 2>&1
  echo "rc=$?" >> $OUT/sanitize.txt
done
PY=/opt/torch/.venv/bin/python
W=/tmp/wheel; mkdir -p $W; $PY -m zipfile -e .gpu/wheel/*.whl $W
PYTHONPATH=$W timeout 150 $PY -m pytest -q -x python/tests/test_gpu.py -k bf16 > $OUT/pytest-bf16.txt 2>&1; echo "rc=$?" >> $OUT/pytest-bf16.txt
