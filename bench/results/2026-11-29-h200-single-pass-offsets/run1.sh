#!/bin/bash
# Run 1: the single-pass kernel's shared-memory positions as one padded base per butterfly plus
# compile-time offsets (B, `additive` true for every single-pass stage) against HEAD 9e0096c (A),
# alternating per repetition, one `tfft bench` row per file; then B's correctness (quick check of
# rank 1 in four shards, rank 2 f32/f64) and memcheck / racecheck on f32 16384 and f64 8192.
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
CASES="f32:16384:forward f32:16384:inverse f32:8192:forward f32:4096:forward f32:2048:forward f32:1024:forward
f32:256:forward f32:64:forward f64:8192:forward f64:4096:forward f64:1024:forward f16:64:forward
f32split:4096:forward f32split:1024:forward f32:1024x1024:forward f32:512x512:forward f64:1024x1024:forward"
for rep in 1 2; do
  for bin in A B; do
    for c in $CASES; do
      IFS=: read p s d <<< "$c"
      n=$(( $(echo $s | tr 'x' '*') ))
      tag=$bin-$p-$d; [[ $s == *x* ]] && tag=$bin-$p-2d-$d
      timeout 60 .gpu/tfft-$bin bench --shape $s --precision $p --direction $d --json $OUT/ab-$tag-$n-r$rep.json > $OUT/ab-$tag-$n-r$rep.txt 2>&1
    done
  done
done
python3 - <<'PY' > $OUT/ab-summary.txt 2>&1
import glob, json, os, re, collections
rows = collections.defaultdict(list)
for f in glob.glob(os.environ["OUT"] + "/ab-*-r*.json"):
    m = re.match(r"ab-(.+)-(\d+)-r\d+\.json$", os.path.basename(f))
    for r in json.load(open(f))["rows"]:
        rows[(m.group(1)[2:], int(m.group(2)), m.group(1)[0])].append(r)
for (case, n, b), rs in sorted(rows.items()):
    print(f"{case:<22} {n:>8} {b} " + " ".join(f"{r['tfft_pct_copy']:.1f}%/{r['speedup_vs_cufft']:.2f}x" for r in rs) + f" err {max(r['tfft_rel_l2'] for r in rs):.2e}")
PY
cat $OUT/ab-summary.txt
for k in 0 1 2 3; do
  (timeout 200 .gpu/tfft-B check --quick --rank 1 --shard $k/4 > $OUT/check-r1-$k.txt 2>&1; echo "rc=$?" >> $OUT/check-r1-$k.txt) &
done
wait
timeout 120 .gpu/tfft-B check --quick --rank 2 --only f32,f64 > $OUT/check-r2.txt 2>&1; echo "rc=$?" >> $OUT/check-r2.txt
tail -n 3 $OUT/check-*.txt
CS=/usr/local/cuda/bin/compute-sanitizer
timeout 100 $CS --tool memcheck .gpu/tfft-B check --shape 16384 --precision f32 --batch 40 > $OUT/memcheck.txt 2>&1; tail -3 $OUT/memcheck.txt
timeout 100 $CS --tool racecheck .gpu/tfft-B check --shape 16384 --precision f32 --batch 20 > $OUT/racecheck.txt 2>&1; tail -3 $OUT/racecheck.txt
timeout 60 $CS --tool racecheck .gpu/tfft-B check --shape 8192 --precision f64 --batch 20 > $OUT/racecheck-f64.txt 2>&1; tail -3 $OUT/racecheck-f64.txt
