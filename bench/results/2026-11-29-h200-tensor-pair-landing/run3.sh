#!/bin/bash
# Run 3: where the landed kernel's extra L2 traffic comes from (run 2: L2 89% busy at 50% DRAM,
# against 82% at 71% direct): sector counts per memory operation, both kernels, plus the
# landed kernel of 512 (8-byte copies through L1).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-* probe-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
P=.gpu/probe-land
M='regex:^lts__t_sectors_srcunit_tex_op_(read|write)\.sum$,regex:^lts__t_sectors_srcunit_tex_op_read_lookup_(hit|miss)\.sum$,regex:^l1tex__t_(sectors|requests)_pipe_lsu_mem_global_op_(ld|ldgsts|st)\.sum$,regex:^l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_(hit|miss)\.sum$,regex:^l1tex__m_xbar2l1tex_read_sectors\.sum$,regex:^dram__bytes_(read|write)\.sum$,gpu__time_duration.sum,regex:^smsp__inst_executed_op_ldgsts\.sum$,regex:^l1tex__data_bank_(reads|writes)\.sum$'
NCU="/usr/local/cuda/bin/ncu --clock-control none -k regex:tfft_c2c -c 1 --metrics $M"
TFFT_TC=1 timeout 200 $NCU $P f16 1024 > $OUT/ncu-direct.txt 2>&1
TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 timeout 200 $NCU $P f16 1024 > $OUT/ncu-landed.txt 2>&1
TFFT_TC=1 TFFT_IO=staged TFFT_PREFETCH=1 timeout 200 $NCU $P f16 512 > $OUT/ncu-landed-512.txt 2>&1
