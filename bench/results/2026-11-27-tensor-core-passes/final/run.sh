#!/bin/bash
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d)
B=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for s in 65536 1048576 4194304 1024x1024 4096x4096 512x512x512; do
  $B bench --shape $s --precision f16 --tensor-cores --json $D/f16tc-$s.json > $D/f16tc-$s.txt 2>&1
done
for s in 131072 1048576 4194304 1024x1024 64x64x64; do
  $B bench --shape $s --precision f32split --json $D/f32split-$s.json > $D/f32split-$s.txt 2>&1
done
P=$(mktemp -d); /opt/torch/.venv/bin/python -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 120 /opt/torch/.venv/bin/python -m pytest -q -p no:cacheprovider -rs python/tests -k "f32split or tensor_cores" > $D/pytest.txt 2>&1
tar czf $OUT/results.tgz -C $D .
timeout 260 $B check --quick --tensor-cores --json $D/check-tc.json > $D/check-tc.txt 2>&1
echo "check rc=$?" >> $D/check-tc.txt
tar czf $OUT/results.tgz -C $D .
tail -3 $D/pytest.txt; grep -c " ok " $D/check-tc.txt; grep -v " ok " $D/check-tc.txt | tail -5
grep -h "^f" $D/f*.txt
