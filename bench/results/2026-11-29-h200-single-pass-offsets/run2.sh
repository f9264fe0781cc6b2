#!/bin/bash
# Run 2: HEAD 9e0096c (A) against B2 = additive single-pass positions on 1024-thread blocks only
# (NOTES step 133) + NTT exchange rows at opaque group positions (step 134), alternating per
# repetition. FFT rows with `tfft bench --shape`, NTT rows with `tfft ntt bench`; then B2's
# `tfft ntt check --quick` in four shards and the FFT 1024-thread kernels' checks. Everything is
# tarred into one file (the device returns only a few files per call).
cd .gpu && gunzip -f ./*.gz 2>/dev/null; chmod +x tfft-*; cd ..
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
R=$OUT/run2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
FFT="f32:16384:forward f32:16384:inverse f32:8192:forward f32split:16384:forward f64:8192:forward"
NTT="babybear:10:65536 babybear:16:1024 babybear:20:64 babybear:22:1 babybear:22:16 babybear:24:1 koalabear:10:65536 goldilocks:22:1 goldilocks:10:65536"
for rep in 1 2; do
  for bin in A B2; do
    for c in $FFT; do
      IFS=: read p s d <<< "$c"
      timeout 60 .gpu/tfft-$bin bench --shape $s --precision $p --direction $d --json $R/ab-$bin-$p-$d-$s-r$rep.json > $R/ab-$bin-$p-$d-$s-r$rep.txt 2>&1
    done
    for c in $NTT; do
      IFS=: read f l b <<< "$c"
      timeout 60 .gpu/tfft-$bin ntt bench --field $f --log-n $l --batch $b --json $R/ntt-$bin-$f-$l-$b-r$rep.json > $R/ntt-$bin-$f-$l-$b-r$rep.txt 2>&1
    done
  done
done
python3 - <<'PY' > $R/ab-summary.txt 2>&1
import glob, json, os, re, collections
R = os.environ["OUT"] + "/run2"
rows = collections.defaultdict(list)
for f in sorted(glob.glob(R + "/ab-*.json")):
    m = re.match(r"ab-(A|B2)-(.+)-r(\d)\.json$", os.path.basename(f))
    for r in json.load(open(f))["rows"]:
        rows[(m.group(2), m.group(1))].append(f"{r['tfft_pct_copy']:.1f}%/{r['speedup_vs_cufft']:.2f}x")
for k, v in sorted(rows.items()): print(f"{k[0]:<28} {k[1]:<3} {' '.join(v)}")
nrows = collections.defaultdict(list)
for f in sorted(glob.glob(R + "/ntt-*.json")):
    m = re.match(r"ntt-(A|B2)-(.+)-r(\d)\.json$", os.path.basename(f))
    d = json.load(open(f)); rs = d["rows"] if isinstance(d, dict) else d
    for r in rs:
        keys = [k for k in r if k.endswith("_ms") or "pct" in k]
        nrows[(m.group(2), m.group(1))].append(" ".join(f"{k}={r[k]:.4f}" for k in keys if isinstance(r[k], (int, float))))
for k, v in sorted(nrows.items()):
    for x in v: print(f"{k[0]:<22} {k[1]:<3} {x}")
PY
cat $R/ab-summary.txt
for k in 0 1 2 3; do
  (timeout 170 .gpu/tfft-B2 ntt check --quick --shard $k/4 > $R/ntt-check-$k.txt 2>&1; echo "rc=$?" >> $R/ntt-check-$k.txt) &
done
wait
tail -n 2 $R/ntt-check-*.txt
for s in 16384; do for p in f32 f32split; do timeout 60 .gpu/tfft-B2 check --shape $s --precision $p > $R/check-$p-$s.txt 2>&1; tail -1 $R/check-$p-$s.txt; done; done
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool racecheck .gpu/tfft-B2 ntt check --quick --field babybear --log-n 10 > $R/racecheck-ntt.txt 2>&1; tail -2 $R/racecheck-ntt.txt
cd $OUT && tar czf run2.tgz run2 && rm -rf run2
