#!/bin/bash
# Run 1: transforms of pointwise products with the product fused into the first kernel
# (GpuNttPlan::execute_product_into; issue 9). `tfft ntt check --quick` in six shards (every case
# now also checks forward and inverse of a product against the CPU transforms of the CPU's
# product, out of place into a poisoned buffer and in place), ntt_polymul (product then inverse,
# and fused), memcheck of ntt_polymul 12, racecheck of the check's BabyBear 2^12 case.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* polymul; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log1.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
for k in 0 1 2 3 4 5; do
  (timeout 300 .gpu/tfft-pf ntt check --quick --shard $k/6 > /tmp/ck$k.txt 2>&1; echo "rc=$?" >> /tmp/ck$k.txt) &
done
wait
for k in 0 1 2 3 4 5; do echo "== ntt check shard $k" >> $L; grep -v "^ok " /tmp/ck$k.txt | tail -6 >> $L; done
cat /tmp/ck*.txt | gzip > $OUT/ntt-check.txt.gz
echo "== polymul" >> $L
for ln in 4 10 14 20; do timeout 60 .gpu/polymul $ln >> $L 2>&1; echo "rc=$?" >> $L; done
echo "== memcheck polymul 12" >> $L
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck .gpu/polymul 12 2>&1 | tail -4 >> $L
echo "== racecheck ntt check babybear 2^12" >> $L
timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool racecheck .gpu/tfft-pf ntt check --field babybear --log-n 12 2>&1 | tail -4 >> $L
