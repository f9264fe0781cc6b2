#!/bin/bash
# Diagnosis (NOTES step 106): f64 2^22 x 16 (256 x 128 x 128), the two twiddled passes side by
# side: pass 1 (root 2^15, read 512 KiB apart, written 4 KiB apart, 525 us) against pass 2
# (root 2^22, read and written 512 KiB apart, 613 us). Same tiles (16 items, 256-byte rows).
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
gunzip -f .gpu/*.gz; P=.gpu/multipass_probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --clock-control none --launch-skip 1 --launch-count 2 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
  $P f64 4194304 > $OUT/ncu-2p22-sections.txt 2>&1
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum,gpu__time_duration.sum
ncu --clock-control none --launch-count 3 --metrics $M --csv $P f64 4194304 > $OUT/ncu-2p22-metrics.csv 2>&1
tail -5 $OUT/ncu-2p22-metrics.csv
ncu --clock-control none --launch-count 3 --metrics lts__t_sectors_srcunit_ltcfabric.sum,gpu__time_duration.sum --csv $P f64 4194304 > $OUT/ncu-2p22-fabric.csv 2>&1
tail -3 $OUT/ncu-2p22-fabric.csv
