#!/bin/bash
# Run 3 (the final code: BF16 single passes under 256 in f32 when the tensor cores are asked
# for, copy_async / pk2_pack forms before sm_80, Python's between-test). Repository root,
# .gpu/ carried.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-final
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
(timeout 150 $T check --tensor-cores --only bf16 --quick --json $OUT/check-bf16-tc.json > $OUT/check-bf16-tc.txt 2>&1; echo "rc=$?" >> $OUT/check-bf16-tc.txt)
(timeout 150 $T check --quick --shard 0/6 > $OUT/check-shard0of6.txt 2>&1; echo "rc=$?" >> $OUT/check-shard0of6.txt)
$T bench --n 128 --precision bf16 --tensor-cores --json $OUT/bench-bf16-128-tc.json > $OUT/bench-bf16-128-tc.txt 2>&1
$T bench --n 4096 --precision bf16 --tensor-cores --json $OUT/bench-bf16-4096-tc.json > $OUT/bench-bf16-4096-tc.txt 2>&1
PY=/opt/torch/.venv/bin/python
W=/tmp/wheel; mkdir -p $W; $PY -m zipfile -e .gpu/wheel/*.whl $W
PYTHONPATH=$W timeout 200 $PY -m pytest -q python/tests/test_gpu.py -k bf16 > $OUT/pytest-bf16.txt 2>&1; echo "rc=$?" >> $OUT/pytest-bf16.txt
