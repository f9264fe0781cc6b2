#!/bin/bash
# BF16 in packed bf16x2 arithmetic (Tuning::half_arithmetic, opt-in at first; bench/NOTES.md
# step 120). `run.sh check`: GPU check of every packed BF16 length, and synccheck / racecheck of
# NTT row passes whose blocks have fewer than 32 threads (the shuffle and warp-barrier masks).
# `run.sh bench`: bench rows, the default BF16 (f32 arithmetic) with the packed variants, and
# packed F16, in the same process per length. Repository root, .gpu/ carried.
MODE=$1
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-bf16
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
if [ "$MODE" = check ]; then
  (timeout 240 $T check --half-arithmetic --quick --json $OUT/check-bf16-packed.json > $OUT/check.txt 2>&1; echo "rc=$?" >> $OUT/check.txt) &
  CS=/usr/local/cuda/bin/compute-sanitizer
  for spec in "synccheck 7" "synccheck 9" "racecheck 7"; do
    set -- $spec
    echo "== $1 ntt log-n $2 --warp-shuffles" >> $OUT/sanitize.txt
    timeout 90 $CS --tool $1 --print-limit 5 $T ntt check --log-n $2 --field babybear --warp-shuffles >> $OUT/sanitize.txt 2>&1
    echo "rc=$?" >> $OUT/sanitize.txt
  done
  wait
fi
# `run.sh small`: synccheck and racecheck where NTT row blocks have fewer than 32 threads
# (2^4 … 2^6 at batch 7: 8 to 32 threads).
if [ "$MODE" = small ]; then
  CS=/usr/local/cuda/bin/compute-sanitizer
  for spec in "synccheck 4" "synccheck 5" "synccheck 6" "racecheck 5"; do
    set -- $spec
    echo "== $1 ntt log-n $2 --warp-shuffles" >> $OUT/sanitize-small.txt
    timeout 60 $CS --tool $1 --print-limit 5 $T ntt check --log-n $2 --field babybear --warp-shuffles >> $OUT/sanitize-small.txt 2>&1
    echo "rc=$?" >> $OUT/sanitize-small.txt
  done
fi
if [ "$MODE" = bench ]; then
  for n in 256 1024 4096 8192 16384; do
    timeout 150 $T bench --n $n --precision bf16 --variants-matching "half_arithmetic=true" --json $OUT/bench-bf16-$n.json > $OUT/bench-bf16-$n.txt 2>&1
    timeout 60 $T bench --n $n --precision f16 --json $OUT/bench-f16-$n.json > $OUT/bench-f16-$n.txt 2>&1
  done
fi
# `run.sh suite` (second binary, with bf16x2 pairs of items in strided passes): multi-pass BF16
# shapes under three settings, alternating, twice: the new default (packed rows and pairs), pairs
# off (TFFT_PAIRED=0: packed single-pass rows, f32 strided passes) and f32 arithmetic
# everywhere (TFFT_H2=0: the old default); then the quick BF16 sweep in 4 shards and memcheck /
# racecheck of a pair pass (2^20, 2^21 elements).
if [ "$MODE" = suite ]; then
  P=.gpu/probe-bf16
  SH="65536 262144 1048576 4194304 256x256 1024x1024 64x64x64 128x128x128"
  for r in 1 2; do
    for s in default paired0 h2off; do
      case $s in default) E="";; paired0) E="TFFT_PAIRED=0";; h2off) E="TFFT_H2=0";; esac
      echo "== run $r $s" >> $OUT/probe.txt
      env $E timeout 120 $P bf16 $SH >> $OUT/probe.txt 2>&1
    done
  done
  for k in 0 1 2 3; do
    (timeout 200 $T check --only bf16 --quick --shard $k/4 > $OUT/check-quick-$k.txt 2>&1; echo "rc=$?" >> $OUT/check-quick-$k.txt) &
  done
  wait
  CS=/usr/local/cuda/bin/compute-sanitizer
  for tool in memcheck racecheck; do
    echo "== $tool bf16 2^20 (2^21 elements)" >> $OUT/sanitize-pairs.txt
    TFFT_TOTAL=2097152 timeout 120 $CS --tool $tool --print-limit 5 $P bf16 1048576 >> $OUT/sanitize-pairs.txt 2>&1
    echo "rc=$?" >> $OUT/sanitize-pairs.txt
  done
fi
# `run.sh final` (the suite binary, and the wheel of the same commit): the Python GPU tests of
# tensorfft.bf16 (default and half_arithmetic=False against torch.fft), then the BF16 rows of
# the full bench suite with the new defaults.
if [ "$MODE" = final ]; then
  PY=/opt/torch/.venv/bin/python
  W=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $W
  PYTHONPATH=$W timeout 200 $PY -m pytest -q -p no:cacheprovider -rs -k bf16 python/tests > $OUT/py-tests-bf16.txt 2>&1
  echo "pytest rc=$?" >> $OUT/py-tests-bf16.txt
  timeout 330 $T bench --suite full --only bf16 --json $OUT/bench-bf16-suite.json --plot $OUT/bench-bf16-suite.png > $OUT/bench-bf16-suite.txt 2>&1
  echo "rc=$?" >> $OUT/bench-bf16-suite.txt
fi
cd $OUT && tar czf results-$MODE.tar.gz *.txt *.json *.png 2>/dev/null; rm -f *.txt *.json *.png
