#!/bin/bash
# Run 2 (f32 16384 persistent by default, from run 1's tune): check and memcheck of the new
# default, tfft bench of it against the old launch (forced back through a wisdom file),
# alternating, three times; then `tfft tune` of the rows run 1's time limit cut (f32 512²,
# 1024², 2^20; F16 tensor cores 4096, 8192) and of f64 8192 (one 512-thread block per SM).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
T=.gpu/tfft-tune2
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
DEV=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
for b in 1 3 1001; do timeout 60 $T check --shape 16384 --precision f32 --batch $b >> $OUT/check-16384.txt 2>&1; echo "rc=$?" >> $OUT/check-16384.txt; done
timeout 60 $T check --shape 16384 --precision f32 --batch 3 --direction inverse >> $OUT/check-16384.txt 2>&1; echo "rc=$?" >> $OUT/check-16384.txt
timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --print-limit 5 $T check --shape 16384 --precision f32 --batch 300 > $OUT/memcheck-16384.txt 2>&1; echo "rc=$?" >> $OUT/memcheck-16384.txt
cat > $OUT/old-16384.json <<J
{"version": 1, "entries": [{"key": {"device": "$DEV", "precision": "f32", "dims": [16384], "batch": 8192, "asked": {}},
 "tuning": {"persistent": false}, "ms": 0, "default_ms": 0, "rel_l2": 0, "default_rel_l2": 0, "plan": "before step 124"}]}
J
for rep in 1 2 3; do
  echo "== rep $rep new" >> $OUT/bench-16384.txt; timeout 40 $T bench --shape 16384 --precision f32 >> $OUT/bench-16384.txt 2>&1
  echo "== rep $rep old" >> $OUT/bench-16384.txt; timeout 40 $T bench --shape 16384 --precision f32 --wisdom $OUT/old-16384.json >> $OUT/bench-16384.txt 2>&1
done
W=$OUT/wisdom-h200-run2.json
timeout 200 $T tune --precision f32 --shape 512x512,1024x1024,1048576 --wisdom $W > $OUT/tune-f32.txt 2>&1; echo "rc=$?" >> $OUT/tune-f32.txt
timeout 130 $T tune --precision f16 --tensor-cores --shape 4096,8192 --wisdom $W > $OUT/tune-f16-tc.txt 2>&1; echo "rc=$?" >> $OUT/tune-f16-tc.txt
timeout 70 $T tune --precision f64 --shape 8192 --wisdom $W > $OUT/tune-f64.txt 2>&1; echo "rc=$?" >> $OUT/tune-f64.txt
