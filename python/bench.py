"""What a Python user sees: tensorfft vs torch.fft vs cupy.fft on the same CUDA tensors.

For each shape: the median time of a call (CUDA events around `reps` back-to-back calls, Python
overhead included, output allocation included as a user pays it), % of a device-to-device copy
of the same bytes measured in the same run (one read and one write), the ratio to torch.fft and
the relative L2 error of both against NumPy's f64 FFT (a sample of the batch); then the per-call overhead of a small
transform (N = 1024, batch 1: host wall time per call over many calls).

    python python/bench.py --json bench.json [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from math import prod

import numpy as np
import torch

# Run as `python python/bench.py`, this file's folder leads sys.path and holds the package's
# sources without the compiled module: import the installed package instead.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
import tensorfft as tf  # noqa: E402

try:
    import cupy as cp
except ImportError:  # pragma: no cover
    cp = None

ELEMENTS = 1 << 27

# (precision, transform shape, function) — the library's suite shapes, batch filling 2^27 elements.
SUITE = (
    [("complex64", (1 << k,), "fft") for k in (10, 12, 13, 14, 16, 18, 20, 22, 24, 26)]
    + [("complex32", (1 << k,), "fft") for k in (10, 12, 14, 16, 20, 26)]
    + [("complex128", (1 << k,), "fft") for k in (10, 12, 14, 20)]
    + [("complex64", s, "fft2") for s in ((256, 256), (1024, 1024), (8192, 8192))]
    + [("complex32", s, "fft2") for s in ((256, 256), (1024, 1024))]
    + [("complex64", s, "fftn") for s in ((64, 64, 64), (128, 128, 128), (512, 512, 512))]
    + [("complex32", s, "fftn") for s in ((64, 64, 64),)]
)
# Scaled modes: inside the kernels for tensorfft, a scaling pass after cuFFT for torch.fft.
NORM_ROWS = [("complex64", (4096,), "fft", "ortho"), ("complex64", (1 << 20,), "fft", "forward"),
             ("complex32", (16384,), "fft", "forward"), ("complex64", (1024, 1024), "fft2", "ortho")]
QUICK = [("complex64", (4096,), "fft"), ("complex64", (1 << 20,), "fft"), ("complex32", (16384,), "fft"),
         ("complex64", (1024, 1024), "fft2"), ("complex64", (128, 128, 128), "fftn")]


def time_ms(fn, reps: int, inner: int = 1) -> float:
    """Median over ``reps`` of the event-timed span of ``inner`` back-to-back calls, per call.
    ``inner = 1`` is what one call costs a user who waits for it (host overhead before the
    launch included); larger ``inner`` hides the host behind the GPU."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(inner):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / inner)
    return statistics.median(times)


def rel_err(got, ref) -> float:
    got = got.to(torch.complex128)
    return (torch.linalg.vector_norm(got - ref) / torch.linalg.vector_norm(ref)).item()


def row(dtype_name: str, shape, fname: str, reps: int, norm=None) -> dict:
    dtype = getattr(torch, dtype_name)
    elements = ELEMENTS // (2 if dtype_name == "complex128" else 1)
    batch = max(1, elements // prod(shape))
    full = (batch,) + tuple(shape) if batch > 1 else tuple(shape)
    g = torch.Generator(device="cuda").manual_seed(1)
    x = (torch.rand(full, dtype=torch.complex64, device="cuda", generator=g) * 2 - (1 + 1j)).to(dtype)
    dims = tuple(range(-len(shape), 0))
    kw = {"dim": -1} if fname == "fft" else {"dim": dims}
    if norm is not None:
        kw["norm"] = norm
    ours = lambda: getattr(tf, fname)(x, **kw)
    theirs = lambda: getattr(torch.fft, fname)(x, **kw)
    y = torch.empty_like(x)
    copy_ms = time_ms(lambda: y.copy_(x), reps)
    del y
    t_ms = time_ms(ours, reps)
    torch_ms = time_ms(theirs, reps)
    t_stream_ms = time_ms(ours, max(3, reps // 4), inner=8)
    torch_stream_ms = time_ms(theirs, max(3, reps // 4), inner=8)
    cupy_ms = None
    if cp is not None and dtype_name != "complex32":
        cx = cp.from_dlpack(x)
        cfn = {"fft": cp.fft.fft, "fft2": cp.fft.fft2, "fftn": cp.fft.fftn}[fname]
        ckw = {} if fname == "fft" else {"axes": dims}
        if norm is not None:
            ckw["norm"] = norm
        cupy_ms = time_ms(lambda: cfn(cx, **ckw), reps)
        del cx
        cp.get_default_memory_pool().free_all_blocks()
    # Errors on a sample: the first transforms, against torch.fft in f64.
    sample = x[: max(1, min(batch, (1 << 22) // prod(shape)))] if batch > 1 else x
    # The f64 oracle is NumPy's pocketfft on the host, independent of cuFFT and of us.
    host = sample.to(torch.complex128).cpu().numpy()
    axes = (-1,) if fname == "fft" else dims
    ref = torch.from_numpy(np.fft.fftn(host, axes=axes, norm=norm)).to("cuda")
    err = rel_err(getattr(tf, fname)(sample, **kw), ref)
    err_torch = rel_err(getattr(torch.fft, fname)(sample, **kw), ref)
    nbytes = x.numel() * x.element_size()
    r = {
        "dtype": dtype_name, "function": fname, "norm": norm or "backward", "shape": list(shape),
        "batch": batch, "bytes": nbytes,
        "copy_ms": copy_ms, "tensorfft_ms": t_ms, "torch_ms": torch_ms, "cupy_ms": cupy_ms,
        "tensorfft_pct_copy": 100 * copy_ms / t_ms, "torch_pct_copy": 100 * copy_ms / torch_ms,
        "speedup_vs_torch": torch_ms / t_ms,
        "tensorfft_stream_ms": t_stream_ms, "torch_stream_ms": torch_stream_ms,
        "speedup_vs_torch_stream": torch_stream_ms / t_stream_ms,
        "speedup_vs_cupy": (cupy_ms / t_ms) if cupy_ms else None,
        "rel_l2_tensorfft": err, "rel_l2_torch": err_torch,
    }
    del x, sample, ref
    torch.cuda.empty_cache()
    return r


def overhead_us(fn, calls: int = 2000) -> float:
    """Host wall time per call of back-to-back calls on a tiny transform (GPU time negligible)."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        best = min(best, (t1 - t0) / calls * 1e6)
    return best


NTT_ROWS = [  # (field, modulus, word dtype, log2 n, transforms)
    ("BabyBear", tf.ntt.BABY_BEAR, "uint32", 10, 65536),
    ("BabyBear", tf.ntt.BABY_BEAR, "uint32", 20, 64),
    ("BabyBear", tf.ntt.BABY_BEAR, "uint32", 22, 1),
    ("Goldilocks", tf.ntt.GOLDILOCKS, "uint64", 20, 16),
    ("Goldilocks", tf.ntt.GOLDILOCKS, "uint64", 22, 1),
]


def ntt_row(field: str, p: int, word: str, log_n: int, transforms: int, reps: int) -> dict:
    """One in-place forward NTT batch (natural in, bit-reversed out, as sppark's NR) through
    `tensorfft.ntt.NttPlan` on a torch tensor, against a copy of the same bytes."""
    n = 1 << log_n
    shape = (transforms, n)
    high = min(p, (1 << 63) - 1)
    x = torch.randint(0, high, shape, dtype=torch.int64, device="cuda")
    x = x.to(torch.uint32) if word == "uint32" else x.view(torch.uint64)
    plan = tf.ntt.NttPlan(p, n, batch=transforms, output_order="bit_reversed")
    y = torch.empty_like(x)
    copy_ms = time_ms(lambda: y.copy_(x), reps)
    ms = time_ms(lambda: plan.forward(x, out=x), reps)
    stream_ms = time_ms(lambda: plan.forward(x, out=x), max(3, reps // 4), inner=8)
    back = plan.inverse(plan.forward(y.copy_(x)))
    exact = bool(torch.equal(back, x))
    passes = plan.schedule.split("\n")[0]
    r = {"field": field, "modulus": p, "word": word, "n": n, "transforms": transforms, "copy_ms": copy_ms,
         "ms": ms, "pct_copy": 100 * copy_ms / ms, "stream_ms": stream_ms, "round_trip_exact": exact, "schedule": passes}
    del x, y, back
    torch.cuda.empty_cache()
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the report here")
    ap.add_argument("--quick", action="store_true", help="five shapes")
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    rows = []
    cases = [(d, s, f, None) for d, s, f in (QUICK if args.quick else SUITE)] + NORM_ROWS
    for dtype_name, shape, fname, norm in cases:
        try:
            r = row(dtype_name, shape, fname, args.reps, norm)
        except (NotImplementedError, RuntimeError) as e:
            print(f"{dtype_name} {fname} {shape}: skipped ({type(e).__name__}: {str(e)[:120]})", flush=True)
            torch.cuda.empty_cache()
            continue
        rows.append(r)
        cupy = f"{r['speedup_vs_cupy']:.2f}x" if r["speedup_vs_cupy"] else "-"
        print(f"{dtype_name:10} {fname:5} {r['norm']:8} {str(tuple(shape)):18} x{r['batch']:<7} tf {r['tensorfft_ms']:8.3f} ms "
              f"{r['tensorfft_pct_copy']:5.1f}% | torch {r['torch_ms']:8.3f} ms {r['torch_pct_copy']:5.1f}% | "
              f"vs torch {r['speedup_vs_torch']:.2f}x (streamed {r['speedup_vs_torch_stream']:.2f}x) vs cupy {cupy} | err {r['rel_l2_tensorfft']:.1e} / {r['rel_l2_torch']:.1e}",
              flush=True)
    ntt_rows = []
    for field, p, word, log_n, transforms in ([] if args.quick else NTT_ROWS):
        r = ntt_row(field, p, word, log_n, transforms, args.reps)
        ntt_rows.append(r)
        print(f"NTT {field:10} 2^{log_n:<2} x{transforms:<6} {r['ms']:8.4f} ms {r['pct_copy']:5.1f}% of copy "
              f"(streamed {r['stream_ms']:.4f} ms), "
              f"round trip {'exact' if r['round_trip_exact'] else 'WRONG'}", flush=True)
    small = torch.randn(1024, dtype=torch.complex64, device="cuda")
    over = {
        "shape": [1024], "batch": 1,
        "tensorfft_us": overhead_us(lambda: tf.fft(small)),
        "torch_us": overhead_us(lambda: torch.fft.fft(small)),
    }
    if cp is not None:
        cs = cp.from_dlpack(small)
        over["cupy_us"] = overhead_us(lambda: cp.fft.fft(cs))
    words = torch.randint(0, tf.ntt.BABY_BEAR, (1024,), dtype=torch.int64, device="cuda").to(torch.uint32)
    over["ntt_forward_us"] = overhead_us(lambda: tf.ntt.forward(words, tf.ntt.BABY_BEAR))
    print(f"per-call overhead, N = 1024 x 1: tensorfft {over['tensorfft_us']:.1f} us, torch {over['torch_us']:.1f} us"
          + (f", cupy {over['cupy_us']:.1f} us" if "cupy_us" in over else "")
          + f"; tensorfft.ntt.forward (BabyBear 1024) {over['ntt_forward_us']:.1f} us")
    if args.json:
        try:
            commit = os.environ.get("TFFT_COMMIT") or subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        except OSError:
            commit = ""
        report = {
            "device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cupy": getattr(cp, "__version__", None), "tensorfft": tf.__version__, "commit": commit,
            "python": platform.python_version(), "date": time.strftime("%Y-%m-%d"),
            "elements_per_row": ELEMENTS, "reps": args.reps, "rows": rows, "ntt_rows": ntt_rows, "overhead": over,
        }
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
