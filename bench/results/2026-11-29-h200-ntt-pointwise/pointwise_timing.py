"""Pointwise products on the device (tensorfft.ntt.NttPlan.multiply) against a device copy of
the same tensor in the same process: the product reads two batches and writes one, the copy
reads one and writes one, so % of copy = (3 bytes / t_product) / (2 bytes / t_copy)."""
import statistics

import torch
from tensorfft import ntt


def timed(fn, reps=30):
    fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts)


cases = [("BabyBear 2^20 x 64", [ntt.BABY_BEAR], 1 << 20, 64, torch.uint32),
         ("BabyBear 2^22 x 1", [ntt.BABY_BEAR], 1 << 22, 1, torch.uint32),
         ("Goldilocks 2^20 x 16", [ntt.GOLDILOCKS], 1 << 20, 16, torch.int64),
         ("FHE 2^16 x 40 limbs (60-bit)", ntt.friendly_primes(60, 1 << 16, 40), 1 << 16, 1, torch.int64)]
for name, moduli, n, batch, dtype in cases:
    plan = ntt.NttPlan(moduli, n, batch=batch, output_order="bit_reversed")
    shape = (batch * len(moduli), n)
    p_min = min(moduli)
    top = min(p_min, 2**62)
    a = torch.randint(0, top, shape, dtype=torch.int64, device="cuda").to(dtype)
    b = torch.randint(0, top, shape, dtype=torch.int64, device="cuda").to(dtype)
    c = torch.empty_like(a)
    t_mul = timed(lambda: plan.multiply(a, b, out=c))
    t_copy = timed(lambda: c.copy_(a))
    plan.multiply(a, b, out=c)
    # Spot check against Python integers (the timed copy overwrote c).
    ia, ib, ic = (t.reshape(-1)[:4096].cpu().tolist() for t in (a, b, c))
    bits = 8 * a.element_size()
    ok = all((x % 2**bits) * (y % 2**bits) % moduli[(w // n) % len(moduli)] == z % 2**bits
             for w, (x, y, z) in enumerate(zip(ia, ib, ic)))
    nbytes = a.numel() * a.element_size()
    print(f"{name:30} multiply {t_mul*1e3:8.1f} us  copy {t_copy*1e3:8.1f} us  "
          f"{3 * nbytes / t_mul / 1e6:7.0f} GB/s  {100 * (3 / t_mul) / (2 / t_copy):5.1f}% of copy  spot check {'ok' if ok else 'WRONG'}",
          flush=True)
