#!/bin/bash
# Run 6: transforms on a coset g·H (NttBatch::with_coset; the weights (g·ψ)^j on the first
# pass's inputs and their inverses on the last pass's outputs, through the existing weight
# tables): `tfft ntt check --cosets` (every coset case of the full sweep: BabyBear, KoalaBear,
# Goldilocks, three limbs with PRIME_32, 2^4 … 2^22, both kinds, every order pair, p − 1, an
# interleaved batch) in four shards, and the Python coset test.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log6.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
for k in 0 1 2 3; do
  (timeout 110 .gpu/tfft-coset ntt check --cosets --shard $k/4 > /tmp/ck$k.txt 2>&1; echo "rc=$?" >> /tmp/ck$k.txt) &
done
wait
for k in 0 1 2 3; do echo "== ntt check --cosets shard $k" >> $L; grep -v "^ok " /tmp/ck$k.txt | tail -3 >> $L; done
cat /tmp/ck*.txt | gzip > $OUT/ntt-check-cosets.txt.gz
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; rm -rf $W; $PY -m zipfile -e .gpu/wheel/*.whl $W
echo "== pytest coset" >> $L
(cd python/tests && PYTHONPATH=$W timeout 60 $PY -m pytest -q -k "coset" test_gpu.py 2>&1 | tail -3) >> $L
