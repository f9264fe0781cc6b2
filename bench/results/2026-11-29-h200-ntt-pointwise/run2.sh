#!/bin/bash
# Run 2: run 1's Python NTT tests again (the new test asked for PRIME_32 in the default 64-bit
# words; it now asks for uint32) and the timing with its spot check after the copy (run 1 checked
# the buffer the timed copy had overwritten).
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log2.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; $PY -m zipfile -e .gpu/wheel/*.whl $W
echo "== pytest ntt" >> $L
(cd python/tests && PYTHONPATH=$W timeout 200 $PY -m pytest -q -k "ntt" test_gpu.py 2>&1 | tail -6) >> $L
echo "== timing" >> $L
PYTHONPATH=$W timeout 100 $PY bench/results/2026-11-29-h200-ntt-pointwise/pointwise_timing.py >> $L 2>&1
PYTHONPATH=$W timeout 100 $PY bench/results/2026-11-29-h200-ntt-pointwise/pointwise_timing.py >> $L 2>&1
