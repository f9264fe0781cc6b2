#!/bin/bash
# The wheel of eed1eb1 (.gpu/wheel) with PyTorch 2.11: check.py.
PY=/opt/torch/.venv/bin/python
W=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $W
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
PYTHONPATH=$W timeout 120 $PY bench/results/2026-11-29-h200-python-half-arithmetic/check.py > $OUT/check.txt 2>&1
echo "rc=$?" >> $OUT/check.txt
