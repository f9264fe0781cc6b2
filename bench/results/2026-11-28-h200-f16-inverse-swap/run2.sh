#!/bin/bash
# Second run (NOTES step 109): the same two binaries at f16 16384, new first, three times
# (the first run's old forward, whose kernel SASS is identical to the new one's, ran 2-3%
# slower); f16 multi-pass rows forward and inverse (strided paired-half passes, unchanged);
# a knob sweep of the packed-half single pass at 16384 and 32768 (forward, multipass_probe).
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2 3; do
  for b in tfft tfft-old; do
    for d in forward inverse; do
      echo "== rep $rep $b f16 16384 $d"; .gpu/$b bench --shape 16384 --precision f16 --direction $d 2>&1 | tail -1
    done
  done
done
for s in 65536 262144 1048576 256x256 1024x1024 128x128x128; do for d in forward inverse; do
  echo "== new f16 $s $d"; .gpu/tfft bench --shape $s --precision f16 --direction $d 2>&1 | tail -1
done; done
for n in 16384 32768; do
  for k in "" TFFT_TW_AHEAD=1 TFFT_PREFETCH=1 TFFT_MAX_RADIX=8 TFFT_E=16 TFFT_MIN_BLOCKS=1; do
    echo "== probe f16 $n $k"; env $k .gpu/multipass_probe f16 $n 2>&1 | tail -3
  done
done
