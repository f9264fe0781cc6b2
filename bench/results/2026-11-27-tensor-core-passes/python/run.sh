#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
P=$(mktemp -d); /opt/torch/.venv/bin/python -m zipfile -e .gpu/wheel/*.whl $P
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
PYTHONPATH=$P timeout 420 /opt/torch/.venv/bin/python -m pytest -q -p no:cacheprovider -rs python/tests > $D/pytest.txt 2>&1
echo "rc=$?" >> $D/pytest.txt
tar czf $OUT/results.tgz -C $D .
tail -5 $D/pytest.txt
