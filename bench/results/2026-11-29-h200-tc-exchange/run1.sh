#!/bin/bash
# Run 1: (a) the tensor-core pair kernels beyond one warp (F16 2048 ... 16384, opt-in) with an f16
# exchange instead of f32 (TFFT_XCH), and at fewer registers (three blocks per SM without register
# prefetch), two alternations of multipass_probe; (b) ncu of the 4096 pair (SASS stall sampling);
# (c) `tfft check --quick` of f32 / f16 / bf16 1D in four shards (the inverse direction of step
# 128's run roots was not yet checked on the device); (d) Python bench rows complex64 64 / 8192.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
P() { timeout 60 .gpu/probe-x f16 2048 4096 8192 16384 2>&1 | grep "% of copy\|rror" | sed 's/passes=.*err=/err=/' >> $L; }
for rep in 1 2; do
  echo "== rep $rep default (f32 exchange)" >> $L; TFFT_TC=1 P
  echo "== rep $rep f16 exchange" >> $L; TFFT_TC=1 TFFT_XCH=f16 P
  echo "== rep $rep f16 exchange, no prefetch, 3 blocks (2048/4096), 2 blocks" >> $L
  TFFT_TC=1 TFFT_XCH=f16 TFFT_PREFETCH=0 TFFT_MIN_BLOCKS=3 timeout 40 .gpu/probe-x f16 2048 4096 2>&1 | grep "% of copy\|rror" | sed 's/passes=.*err=/err=/' >> $L
  TFFT_TC=1 TFFT_XCH=f16 TFFT_PREFETCH=0 TFFT_MIN_BLOCKS=2 timeout 40 .gpu/probe-x f16 8192 2>&1 | grep "% of copy\|rror" | sed 's/passes=.*err=/err=/' >> $L
  echo "== rep $rep f32 exchange, no prefetch, 2 blocks (8192)" >> $L
  TFFT_TC=1 TFFT_PREFETCH=0 TFFT_MIN_BLOCKS=2 timeout 40 .gpu/probe-x f16 8192 2>&1 | grep "% of copy\|rror" | sed 's/passes=.*err=/err=/' >> $L
done
echo "== ncu" >> $L
TFFT_TC=1 TFFT_TOTAL=33554432 timeout 120 /usr/local/cuda/bin/ncu --clock-control none --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy --section SpeedOfLight -k regex:n4096 --launch-count 1 -o /tmp/tc4096 .gpu/probe-x f16 4096 > /tmp/ncu.log 2>&1
tail -5 /tmp/ncu.log >> $L
/usr/local/cuda/bin/ncu --import /tmp/tc4096.ncu-rep --print-summary none > $OUT/ncu-4096.txt 2>&1
/usr/local/cuda/bin/ncu --import /tmp/tc4096.ncu-rep --page source --csv --print-source sass > /tmp/sass.csv 2>&1; gzip -c /tmp/sass.csv > $OUT/ncu-4096-sass.csv.gz
echo "== checks" >> $L
for k in 0 1 2 3; do
  (timeout 300 .gpu/tfft-h check --quick --only f32,f16,bf16 --rank 1 --shard $k/4 > /tmp/ck$k.txt 2>&1; echo "rc=$?" >> /tmp/ck$k.txt) &
done
W=/tmp/whl; PY=/opt/torch/.venv/bin/python; $PY -m zipfile -e .gpu/wheel/*.whl $W
(cd python && PYTHONPATH=$W timeout 200 $PY -c "
import sys; sys.path.insert(0, '.')
import bench
for n in (64, 8192, 8192):
    r = bench.row('complex64', (n,), 'fft', 20)
    print(n, 'tf %.4f ms %.1f%% torch %.4f ms %.1f%% vs torch %.3fx err %.1e / %.1e' % (r['tensorfft_ms'], r['tensorfft_pct_copy'], r['torch_ms'], r['torch_pct_copy'], r['speedup_vs_torch'], r['rel_l2_tensorfft'], r['rel_l2_torch']))
" > /tmp/py.txt 2>&1)
wait
for k in 0 1 2 3; do echo "== check shard $k" >> $L; grep -v "^  *ok\|PASS" /tmp/ck$k.txt | tail -15 >> $L; grep -c "" /tmp/ck$k.txt >> $L; done
echo "== python" >> $L; cat /tmp/py.txt >> $L
cat /tmp/ck*.txt > $OUT/checks.txt
