#!/bin/bash
# Run 5: the reviewed state (squares in place, the limb's constants once per thread, the
# baseline on its two-table weight): `tfft ntt check --quick` in six shards, ntt_polymul with a
# memcheck, pytest -k ntt.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* polymul; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log5.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
for k in 0 1 2 3 4 5; do
  (timeout 280 .gpu/tfft-final ntt check --quick --shard $k/6 > /tmp/ck$k.txt 2>&1; echo "rc=$?" >> /tmp/ck$k.txt) &
done
wait
for k in 0 1 2 3 4 5; do echo "== ntt check shard $k" >> $L; grep -v "^ok " /tmp/ck$k.txt | tail -3 >> $L; done
cat /tmp/ck*.txt | gzip > $OUT/ntt-check-run5.txt.gz
echo "== memcheck polymul 12" >> $L
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck .gpu/polymul 12 2>&1 | tail -3 >> $L
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; rm -rf $W; $PY -m zipfile -e .gpu/wheel/*.whl $W
echo "== pytest ntt" >> $L
(cd python/tests && PYTHONPATH=$W timeout 120 $PY -m pytest -q -k "ntt" test_gpu.py 2>&1 | tail -4) >> $L
