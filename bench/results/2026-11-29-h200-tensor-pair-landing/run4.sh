#!/bin/bash
# Run 4: landed input with 16-byte copies through L1 (cp.async.ca; run 3 found the L1-bypassing
# .cg copies reading every sector twice from L2). probe of the TC default and the landed kernel
# (prefetch), alternating three times, then the L2 sectors of the landed 1024 kernel.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
P=.gpu/probe-land2
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
for rep in 1 2 3; do
  echo "== rep $rep tc default" >> $OUT/probe.txt
  TFFT_TC=1 timeout 60 $P f16 1024 512 >> $OUT/probe.txt 2>&1
  echo "== rep $rep tc landed prefetch" >> $OUT/probe.txt
  TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 timeout 60 $P f16 1024 512 >> $OUT/probe.txt 2>&1
  echo "== rep $rep tc landed no prefetch" >> $OUT/probe.txt
  TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=0 timeout 60 $P f16 1024 >> $OUT/probe.txt 2>&1
done
M='regex:^lts__t_sectors_srcunit_tex_op_read\.sum$,regex:^l1tex__m_xbar2l1tex_read_sectors\.sum$,gpu__time_duration.sum'
TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 timeout 200 /usr/local/cuda/bin/ncu --clock-control none -k regex:tfft_c2c -c 1 --metrics $M $P f16 1024 > $OUT/ncu-landed.txt 2>&1
