#!/bin/bash
# Run 3: the factor reduced by Montgomery with R = 2^32 for primes below 2^31 (four
# instructions per reduction instead of Barrett's 64-bit products) and a cyclic inverse's scale
# n^-1 as one constant per thread (Cfg::WEIGHT 3) instead of two table lookups and two products
# per word. `tfft ntt check --quick` in six shards on the new binary, ntt_polymul, then A/B:
# tfft-old (run 2's binary) against tfft-new, alternating, two rounds, one `tfft ntt bench` row
# each (forward, pointwise, fused forward and inverse of a product, plain inverse).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* polymul; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
L=$OUT/log3.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
for k in 0 1 2 3 4 5; do
  (timeout 300 .gpu/tfft-new ntt check --quick --shard $k/6 > /tmp/ck$k.txt 2>&1; echo "rc=$?" >> /tmp/ck$k.txt) &
done
wait
for k in 0 1 2 3 4 5; do echo "== ntt check shard $k" >> $L; grep -v "^ok " /tmp/ck$k.txt | tail -4 >> $L; done
cat /tmp/ck*.txt | gzip > $OUT/ntt-check-run3.txt.gz
echo "== polymul" >> $L
for ln in 4 12 16; do timeout 60 .gpu/polymul $ln >> $L 2>&1; echo "rc=$?" >> $L; done
echo "== A/B rows (binary, row)" >> $L
for round in 1 2; do
  for a in "--field babybear --log-n 22" "--field babybear --log-n 24" "--field koalabear --log-n 20" "--field babybear --log-n 20 --batch 64" "--field babybear --log-n 10 --batch 65536" "--field goldilocks --log-n 22" "--field fhe62 --log-n 16 --batch 40"; do
    for b in old new; do
      echo "round $round $b $a" >> $L
      timeout 60 .gpu/tfft-$b ntt bench --json /tmp/r.json $a > /dev/null 2>&1
      /opt/torch/.venv/bin/python -c "
import json; r=json.load(open('/tmp/r.json'))['rows'][0]
print('  fwd %.4f pw %.4f fwdprod %.4f inv %.4f invprod %.4f exact %s %s' % (r['tfft_ms'], r['pointwise_ms'], r['product_ms'], r['inverse_ms'], r['inverse_product_ms'], r['exact'], r['product_exact']))" >> $L 2>&1
    done
  done
done
