#!/bin/bash
# HEAD's code on the H200: (1) `tfft check --basis` (the tensor-core kernels, F32Split, F16 and
# BF16 on mma.sync, on impulses: every output element against its DFT-matrix row); (2)
# python/bench.py with the wheel of the same code (the crates of 510aa90).
# Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run1
gunzip -f .gpu/*.gz 2>/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run1/gpu.txt
timeout 200 .gpu/tfft check --basis > $OUT/run1/check-basis.txt 2>&1
echo "check basis rc=$?" | tee -a $OUT/run1/rc.txt; tail -4 $OUT/run1/check-basis.txt
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 330 $PY python/bench.py --json $OUT/run1/py-bench.json > $OUT/run1/py-bench.txt 2>&1
echo "py bench rc=$?" | tee -a $OUT/run1/rc.txt; tail -45 $OUT/run1/py-bench.txt
cd $OUT && tar czf run1.tgz run1
