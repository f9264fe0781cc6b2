#!/bin/bash
# Run 2: the Python NTT tests (new: test_ntt_transforms_of_products, `inverse(fa, times=fb)` and
# `forward(a, times=b)` against multiply then the transform, n = 256 / 2^16 / 2^20), then
# `tfft ntt bench --quick` whose rows now time the forward and inverse of a product with the
# product fused (`product_ms`, `inverse_product_ms`) beside the plain inverse (`inverse_ms`).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log2.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; $PY -m zipfile -e .gpu/wheel/*.whl $W
echo "== pytest ntt" >> $L
(cd python/tests && PYTHONPATH=$W timeout 170 $PY -m pytest -q -k "ntt" test_gpu.py 2>&1 | tail -6) >> $L
timeout 390 .gpu/tfft-pf ntt bench --quick --json $OUT/ntt-quick.json --plot $OUT/ntt-quick.png > $OUT/ntt-quick.txt 2>&1; echo "rc=$?" >> $OUT/ntt-quick.txt
