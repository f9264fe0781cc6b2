#!/bin/bash
# Run 4 (binaries and wheel of 9cf15e7): the Python tests that reach the tensor-core kernels
# (`pytest -k "tensor or bf16 or complex32"`), and the `tfft tune` path after f547047's mend,
# which no device had run: f32 8192 and 16384 on a cold cache, then `tfft bench` of both with
# the wisdom file it wrote.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-9cf
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/log.txt
PY=/opt/torch/.venv/bin/python; W=/tmp/whl; mkdir -p $W; $PY -m zipfile -e .gpu/wheel/*.whl $W
(cd python/tests && PYTHONPATH=$W timeout 250 $PY -m pytest -q -x -k "tensor or bf16 or complex32" test_gpu.py > /tmp/py.txt 2>&1; echo "rc=$?" >> /tmp/py.txt)
echo "=== pytest" >> $OUT/log.txt; tail -n 15 /tmp/py.txt >> $OUT/log.txt
t0=$SECONDS; timeout 200 $T tune --precision f32 --shape 8192,16384 --wisdom $OUT/wisdom.json > /tmp/tune.txt 2>&1; echo "rc=$? took $((SECONDS - t0)) s" >> /tmp/tune.txt
echo "=== tune" >> $OUT/log.txt; cat /tmp/tune.txt >> $OUT/log.txt
echo "=== bench with the wisdom" >> $OUT/log.txt
for n in 8192 16384; do timeout 60 $T bench --n $n --precision f32 --wisdom $OUT/wisdom.json 2>&1 | grep -v "^wrote" >> $OUT/log.txt; done
