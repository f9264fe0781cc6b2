#!/bin/bash
# Forward against inverse (NOTES step 111) for the single-pass paths other than packed half:
# F16 on tensor cores, F32Split, BF16 (f32 arithmetic), and f32 / f64 short rows; binary of
# a48f5f7 (in fact built at 83a5660: see README.md); twice, alternating directions. Tool `device`, kind nvidia-h200, carry [".gpu"].
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tfftcache
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for c in "f16 1024 --tensor-cores" "f16 4096 --tensor-cores" "f16 8192 --tensor-cores" \
           "f32split 1024" "f32split 4096" "f32split 8192" \
           "bf16 1024" "bf16 4096" "bf16 16384" "f32 1024" "f32 4096" "f64 1024" "f64 4096"; do
    set -- $c; p=$1; n=$2; shift 2
    for d in forward inverse; do
      echo "== rep $rep $p $n $* $d"; .gpu/tfft bench --shape $n --precision $p --direction $d "$@" 2>&1 | tail -1
    done
  done
done
