#!/bin/bash
# A/B of the item-run staged store (new .gpu/tfft) against c9229bd (.gpu/tfft_old), interleaved,
# then correctness checks of the new binary on the passes it changed.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
mkdir -p $OUT/ab $OUT/check
for round in 1 2; do
  for p in f32 f16; do
    for s in 262144 1048576 16777216; do
      for b in old new; do
        bin=.gpu/tfft; [ $b = old ] && bin=.gpu/tfft_old
        $bin bench --shape $s --precision $p --json $OUT/ab/$b-$p-$s-$round.json > $OUT/ab/$b-$p-$s-$round.txt 2>&1
        echo "$b $p $s r$round: $(grep -E '^(f32|f16) ' $OUT/ab/$b-$p-$s-$round.txt | head -1)"
      done
    done
  done
done
echo "== checks (new)"
for c in "32768 f32 3" "262144 f32 5" "1048576 f32 2" "4194304 f32 1" "67108864 f32 1" "65536 f16 7" "1048576 f16 3" "16777216 f16 1" "134217728 f16 1" "262144 bf16 3" "1048576 f64 2" "16777216 f64 1"; do
  set -- $c
  timeout 120 .gpu/tfft check --shape $1 --precision $2 --batch $3 > $OUT/check/$2-$1-$3.txt 2>&1
  echo "$c rc=$? $(grep -E 'PASSED|FAILED' $OUT/check/$2-$1-$3.txt)"
done
