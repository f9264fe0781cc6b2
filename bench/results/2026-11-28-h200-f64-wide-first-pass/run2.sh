#!/usr/bin/env bash
# After run.sh: f64 2^15 keeps two passes (the cluster threshold counts 8 values per thread);
# its first pass of 256 now on 16 values and 16 items. tfft bench f64 32768 new against step 104
# alternating, twice, and tfft check of it.
set -u
gunzip -f .gpu/*.gz; chmod +x .gpu/tfft .gpu/tfft-base
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
D=$(mktemp -d); start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for rep in 1 2; do for b in tfft-base tfft; do
  timeout 30 .gpu/$b bench --shape 32768 --precision f64 --json $D/ab2-$b-32768-$rep.json > $D/ab2-$b-32768-$rep.txt 2>&1
done; done
timeout 30 .gpu/tfft check --shape 32768 --precision f64 > $D/check2-32768.txt 2>&1
tar czf $OUT/results2.tgz -C $D .
cat $D/gpu.txt; for f in $D/ab2-*.txt; do echo "$(basename $f) $(grep -m1 '^f64 ' $f)"; done; tail -n 2 $D/check2-*.txt
