nvidia-smi --query-gpu=name --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 TFFT_CACHE_DIR=/tmp/tc
R=$(mktemp -d)
.gpu/tfft check --landing-buffer --quick > $R/check-landing.txt 2>&1; echo "check rc=$?"; tail -25 $R/check-landing.txt
for i in 1 2; do for l in 0 1; do echo "== rep $i landing $l"; TFFT_LANDING=$l .gpu/multipass_probe f32 16384 8192 4096 f64 8192 4096 2>&1; done; done | tee $R/probe.txt
.gpu/tfft bench --n 16384 --precision f32 --variants-matching "landing_buffer: Some(true)" --json $R/bench-f32-16384.json 2>&1 | tail -8
.gpu/tfft bench --n 8192 --precision f64 --variants-matching "landing_buffer: Some(true)" --json $R/bench-f64-8192.json 2>&1 | tail -8
TFFT_TOTAL=$((16384*300)) TFFT_LANDING=1 timeout 200 compute-sanitizer --tool memcheck .gpu/multipass_probe f32 16384 f64 4096 > $R/memcheck.txt 2>&1; tail -5 $R/memcheck.txt
TFFT_TOTAL=$((16384*140)) TFFT_LANDING=1 timeout 200 compute-sanitizer --tool racecheck .gpu/multipass_probe f32 16384 > $R/racecheck.txt 2>&1; tail -5 $R/racecheck.txt
tar czf $OUT/results.tgz -C $R .
