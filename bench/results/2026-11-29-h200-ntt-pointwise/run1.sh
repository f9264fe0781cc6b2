#!/bin/bash
# Run 1: the NTT pointwise product on the device (GpuNttPlan::pointwise_mul; issue 9). `tfft ntt
# check --quick` in four shards (every case now also checks the plan's pointwise product against
# the CPU's, every word, out of place and in place), the polynomial-product example with the
# products on the GPU, the Python NTT tests, and a timing of `NttPlan.multiply` against a copy.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* polymul; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
for k in 0 1 2 3; do
  (timeout 330 .gpu/tfft-pw ntt check --quick --shard $k/4 > /tmp/ck$k.txt 2>&1; echo "rc=$?" >> /tmp/ck$k.txt) &
done
wait
for k in 0 1 2 3; do echo "== ntt check shard $k" >> $L; grep -v "^ok " /tmp/ck$k.txt | tail -8 >> $L; done
cat /tmp/ck*.txt > $OUT/ntt-check.txt
echo "== polymul" >> $L
for ln in 4 10 14; do timeout 60 .gpu/polymul $ln >> $L 2>&1; echo "rc=$?" >> $L; done
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; $PY -m zipfile -e .gpu/wheel/*.whl $W
echo "== pytest ntt" >> $L
(cd python/tests && PYTHONPATH=$W timeout 150 $PY -m pytest -q -x -k "ntt" test_gpu.py 2>&1 | tail -15) >> $L
echo "== timing" >> $L
PYTHONPATH=$W timeout 100 $PY bench/results/2026-11-29-h200-ntt-pointwise/pointwise_timing.py >> $L 2>&1
echo "== memcheck" >> $L
TFFT_TOTAL=1 timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck .gpu/polymul 8 2>&1 | tail -4 >> $L
