#!/bin/bash
# Run 4: the reviewed state (841fc27: one-wave grid for the product, Python's pointwise_raw
# without the GIL, host entry points ordered with the plan's stream, NTT plans waiting for their
# context when dropped): `tfft ntt check --quick` in four shards, ntt_polymul, pytest -k ntt,
# `tfft ntt bench` rows with the product timed, memcheck of ntt_polymul.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* polymul; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log4.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
for k in 0 1 2 3; do
  (timeout 300 .gpu/tfft-f ntt check --quick --shard $k/4 > /tmp/ck$k.txt 2>&1; echo "rc=$?" >> /tmp/ck$k.txt) &
done
wait
for k in 0 1 2 3; do echo "== ntt check shard $k" >> $L; grep -v "^ok " /tmp/ck$k.txt | tail -4 >> $L; done
echo "== polymul" >> $L
timeout 60 .gpu/polymul 12 >> $L 2>&1; echo "rc=$?" >> $L
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; $PY -m zipfile -e .gpu/wheel/*.whl $W
echo "== pytest ntt" >> $L
(cd python/tests && PYTHONPATH=$W timeout 200 $PY -m pytest -q -k "ntt" test_gpu.py 2>&1 | tail -4) >> $L
echo "== ntt bench rows" >> $L
for a in "--field babybear --log-n 22 --batch 1" "--field babybear --log-n 20 --batch 64" "--field goldilocks --log-n 20 --batch 16"; do
  timeout 60 .gpu/tfft-f ntt bench $a 2>&1 | grep -E "^(babybear|goldilocks)" | tail -1 | cut -c1-60,150-400 >> $L
done
echo "== memcheck" >> $L
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck .gpu/polymul 8 2>&1 | tail -3 >> $L
