#!/bin/bash
# (1) bench/l2_handoff_microbench.cu: does a second pass that walks its tiles in reverse read
# the first pass's last writes from L2? (2) the Python GPU test of foreign arrays, verbose,
# with the wheel of this HEAD. Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/run1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/run1/gpu.txt
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o /tmp/l2_handoff bench/l2_handoff_microbench.cu && timeout 240 /tmp/l2_handoff > $OUT/run1/l2-handoff.txt 2>&1
echo "microbench rc=$?" | tee -a $OUT/run1/rc.txt
cat $OUT/run1/l2-handoff.txt
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 200 $PY -m pytest -v -p no:cacheprovider -rs python/tests -k "foreign" > $OUT/run1/py-foreign.txt 2>&1
echo "pytest rc=$?" | tee -a $OUT/run1/rc.txt; tail -8 $OUT/run1/py-foreign.txt
cd $OUT && tar czf run1.tgz run1
