#!/usr/bin/env bash
# Python GPU tests and bench on this build (dependent launches on), then FFT/NTT A/B repetitions.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
D=$(mktemp -d); T=.gpu/tfft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
start=$(date +%s)
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
$PY -c "import torch, cupy; print('torch', torch.__version__, 'cupy', cupy.__version__)" > $D/py-versions.txt 2>&1
PYTHONPATH=$P timeout 300 $PY -m pytest -q -p no:cacheprovider -rs python/tests > $D/py-tests.txt 2>&1; echo "pytest rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
PYTHONPATH=$P timeout 200 $PY python/bench.py --json $D/py-bench.json > $D/py-bench.txt 2>&1; echo "py bench rc=$? t=$(( $(date +%s)-start ))" >> $D/rc.txt
for rep in 2 3; do
  for c in "--n 65536 --batch 1" "--n 262144 --batch 1" "--n 1048576 --batch 1" "--n 4194304 --batch 1" "--shape 1024x1024 --batch 1"; do
    for mode in plain pdl; do
      flag=""; [ $mode = plain ] && flag="--plain-launches"
      name=$(echo "$c" | tr -d ' -' )
      $T bench $c --precision f32 $flag --json $D/fft-$name-$mode-$rep.json > $D/fft-$name-$mode-$rep.txt 2>&1; echo "fft $c $mode $rep rc=$?" >> $D/rc.txt
    done
  done
  for f in "babybear 16" "goldilocks 16" "babybear 10" "babybear 22"; do
    set -- $f
    for mode in plain pdl; do
      flag=""; [ $mode = plain ] && flag="--plain-launches"
      $T ntt bench --field $1 --log-n $2 $flag --json $D/ntt-$1-$2-$mode-$rep.json > $D/ntt-$1-$2-$mode-$rep.txt 2>&1; echo "ntt $f $mode $rep rc=$?" >> $D/rc.txt
    done
  done
done
echo "done t=$(( $(date +%s)-start ))" >> $D/rc.txt
tar czf $OUT/results.tgz -C $D .
cat $D/rc.txt
