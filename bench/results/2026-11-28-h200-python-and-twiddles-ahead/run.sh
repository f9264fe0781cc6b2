#!/usr/bin/env bash
# dff3a27 on the H200: (1) python/bench.py with the wheel built here from dff3a27 (steps
# 108-109 in its complex32 rows); (2) multipass_probe f16 16384 / 8192 with the stage
# twiddles loaded a stage ahead (TFFT_TW_AHEAD=1) against the default (0), alternating, 3x.
# Tool `device`, kind nvidia-h200, carry [".gpu"].
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 200 $PY python/bench.py --json $OUT/py-bench.json > $OUT/py-bench.txt 2>&1
echo "py bench rc=$?" >> $OUT/rc.txt
for rep in 1 2 3; do for n in 16384 8192; do for t in 0 1; do
  echo "== rep $rep f16 $n ahead=$t"; TFFT_TW_AHEAD=$t .gpu/multipass_probe f16 $n 2>&1 | tail -1
done; done; done > $OUT/ahead.txt 2>&1
cat $OUT/rc.txt $OUT/ahead.txt; tail -40 $OUT/py-bench.txt
