#!/bin/bash
# Every Python test (python/tests, GPU tests included) with the wheel of the crates of 510aa90
# (HEAD's code). Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run2/gpu.txt
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 420 $PY -m pytest -q -p no:cacheprovider -rs python/tests > $OUT/run2/py-tests.txt 2>&1
echo "pytest rc=$?" | tee $OUT/run2/rc.txt; tail -8 $OUT/run2/py-tests.txt
cd $OUT && tar czf run2.tgz run2
