#!/bin/bash
# The binary of a7fc348 (step 109's kernel: strings show swap_parts / join_oriented): (1)
# compute-sanitizer memcheck and racecheck of `tfft check` on the packed-half single pass, both
# directions (step 112's sanitizer run had carried the pre-change binary of 83a5660);
# (2) the Python GPU tests with the wheel built from dff3a27 (kernels as at a7fc348).
# Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
.gpu/tfft info 2>&1 | grep -i commit | tee -a $OUT/gpu.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do for s in 1024 16384 32768 2x16384; do for d in forward inverse; do
  echo "== $tool f16 $s $d"
  timeout 100 $CS --tool $tool --print-limit 5 .gpu/tfft check --shape $s --precision f16 --direction $d 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|rror" | head -4
done; done; done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 330 $PY -m pytest -q -p no:cacheprovider -rs python/tests > $OUT/py-tests.txt 2>&1
echo "pytest rc=$?"; tail -5 $OUT/py-tests.txt
