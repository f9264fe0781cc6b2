#!/bin/bash
# Run 5 (final code, after the review fixes): the Python wisdom test and the Plan tests with
# this wheel; `tfft tune` of f32 16384 (now persistent by default: the entry should record the
# default) and of f32 64 (the copy now timed in the confirming rounds); tfft check of f32 16384.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-tune3
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
PY=/opt/torch/.venv/bin/python
WH=/tmp/wheel; mkdir -p $WH; $PY -m zipfile -e .gpu/wheel/*.whl $WH
PYTHONPATH=$WH timeout 90 $PY -m pytest -q -x python/tests/test_gpu.py -k "wisdom or plan_object" > $OUT/pytest-wisdom.txt 2>&1; echo "rc=$?" >> $OUT/pytest-wisdom.txt
timeout 60 $T check --shape 16384 --precision f32 --batch 7 > $OUT/check-16384.txt 2>&1; echo "rc=$?" >> $OUT/check-16384.txt
timeout 150 $T tune --precision f32 --shape 16384,64 --wisdom $OUT/wisdom.json > $OUT/tune.txt 2>&1; echo "rc=$?" >> $OUT/tune.txt
