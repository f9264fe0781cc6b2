#!/bin/bash
# Run 4: the Python NTT tests on run 3's library (FHE_62 capped at 2^16 in the new test: its
# two-adicity), then `tfft ntt bench --quick` on run 3's binary (the JSON committed here).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log4.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; rm -rf $W; $PY -m zipfile -e .gpu/wheel/*.whl $W
echo "== pytest ntt" >> $L
(cd python/tests && PYTHONPATH=$W timeout 170 $PY -m pytest -q -k "ntt" test_gpu.py 2>&1 | tail -4) >> $L
timeout 390 .gpu/tfft-new ntt bench --quick --json $OUT/ntt-quick-run4.json --plot $OUT/ntt-quick-run4.png > $OUT/ntt-quick-run4.txt 2>&1; echo "rc=$?" >> $OUT/ntt-quick-run4.txt
