#!/usr/bin/env bash
# F32Split with two tensor-core stages from 4096 (Tuning::tensor_stages default): check,
# sanitizers at 4096, A/B against 66dd8a4 (three radix-16 split stages) at 4096 ... 16384, three
# alternations, default rows with cuFFT fp32 in the same process.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
RES=$(mktemp -d)
trap 'tar czf "$OUT/results.tgz" -C "$RES" .' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $RES/gpu.txt
TFFT_CACHE_DIR=/tmp/tc-new timeout 240 .gpu/tfft-new check --tensor-cores --quick --only f32split --json $RES/check-split.json 2>&1 | tail -4 > $RES/check-split.txt
SAN=/usr/local/cuda/bin/compute-sanitizer
for n in 4096 16384; do
  for tool in memcheck racecheck; do
    echo "== $tool N=$n" >> $RES/sanitize.txt
    TFFT_CACHE_DIR=/tmp/tc-new timeout 100 $SAN --tool $tool .gpu/tfft-new check --n $n --precision f32split --batch 5 2>&1 | tail -4 >> $RES/sanitize.txt
  done
done
for r in 1 2 3; do
  for b in old new; do
    for n in 4096 8192 16384; do
      TFFT_CACHE_DIR=/tmp/tc-$b timeout 60 .gpu/tfft-$b bench --n $n --precision f32split --json $RES/ab-$b-$n-r$r.json > /dev/null 2>&1
    done
  done
done
