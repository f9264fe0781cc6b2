"""tensorfft against torch.fft, NumPy and CuPy on a GPU (skipped without PyTorch and a GPU).

Run on the device: ``pytest python/tests/test_gpu.py`` in the environment with PyTorch."""

import numpy as np
import pytest

import tensorfft as tf
from foreign_arrays import DLPackOnly, InterfaceOnly

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(
    not (torch.cuda.is_available() and tf.is_available()), reason="needs a CUDA GPU and PyTorch"
)

# Relative L2 error bounds against an f64 reference (the library's bounds are tighter per size;
# these hold for every shape below).
BOUND = {torch.complex32: 4e-3, torch.complex64: 2e-6, torch.complex128: 1e-14}
PAIRS = {
    "fft": (tf.fft, torch.fft.fft),
    "ifft": (tf.ifft, torch.fft.ifft),
    "fft2": (tf.fft2, torch.fft.fft2),
    "ifft2": (tf.ifft2, torch.fft.ifft2),
    "fftn": (tf.fftn, torch.fft.fftn),
    "ifftn": (tf.ifftn, torch.fft.ifftn),
}


def rand(shape, dtype, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(shape, dtype=torch.complex128, device="cuda", generator=g) * 2 - (1 + 1j)
    return x.to(dtype)


def rel_err(got, ref):
    got, ref = got.to(torch.complex128), ref.to(torch.complex128)
    return (torch.linalg.vector_norm(got - ref) / torch.linalg.vector_norm(ref)).item()


def reference(name, x, **kw):
    return PAIRS[name][1](x.to(torch.complex128), **kw)


SHAPES = [(8, 4096), (1 << 16,), (3, 64, 128), (2, 16, 32, 8), (4, 256, 256), (1 << 20,)]


@pytest.mark.parametrize("name", list(PAIRS))
@pytest.mark.parametrize("dtype", [torch.complex32, torch.complex64, torch.complex128])
@pytest.mark.parametrize("norm", [None, "forward", "ortho"])
@pytest.mark.parametrize("shape", SHAPES)
def test_matches_torch(name, dtype, norm, shape):
    if name.endswith("2") and len(shape) < 2:
        pytest.skip("a 2D transform of a 1D tensor")
    x = rand(shape, dtype)
    if name.endswith("n") and any(n & (n - 1) for n in shape):
        with pytest.raises(NotImplementedError, match="power"):
            PAIRS[name][0](x, norm=norm)  # an axis of 3 points: not supported yet
        return
    before = x.clone()
    y = PAIRS[name][0](x, norm=norm)
    ref = reference(name, x, norm=norm)
    assert y.dtype == dtype and y.shape == ref.shape and y.device == x.device
    assert rel_err(y, ref) < BOUND[dtype]
    assert torch.equal(x.view(torch.float16) if dtype == torch.complex32 else x,
                       before.view(torch.float16) if dtype == torch.complex32 else before)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex32])
def test_strided_and_axes(dtype):
    base = rand((16, 64, 32), dtype, seed=1)
    cases = [
        (base, dict(dim=0)),                       # zero copy: stride 64*32, distance 1
        (base, dict(dim=1)),                       # middle axis: one copy
        (base.transpose(0, 2), dict(dim=-1)),      # transposed view
        (base[:, ::2, :], dict(dim=2)),            # sliced view
        (base[1:], dict(dim=-1)),                  # offset view
    ]
    for x, kw in cases:
        y = tf.fft(x, **kw)
        assert rel_err(y, torch.fft.fft(x.to(torch.complex128), **kw)) < BOUND[dtype]
    for x, kw in [(base, dict(dim=(0, 1))), (base, dict(dim=(0, 2))), (base.transpose(1, 2), dict(dim=(1, 2)))]:
        y = tf.fft2(x, **kw)
        assert rel_err(y, torch.fft.fft2(x.to(torch.complex128), **kw)) < BOUND[dtype]
    y = tf.fftn(base, dim=(0, 1, 2))
    assert rel_err(y, torch.fft.fftn(base.to(torch.complex128))) < BOUND[dtype]


def test_out_in_place_padding_and_real_inputs():
    x = rand((4, 1024), torch.complex64, seed=2)
    ref = torch.fft.fft(x.to(torch.complex128))
    out = torch.full_like(x, float("nan"))
    assert tf.fft(x, out=out) is out and rel_err(out, ref) < 2e-6
    y = x.clone()
    tf.fft(y, out=y)
    assert rel_err(y, ref) < 2e-6
    tf.ifft(y, out=y)
    assert rel_err(y, x) < 2e-6
    assert rel_err(tf.fft(x, n=2048), torch.fft.fft(x.to(torch.complex128), n=2048)) < 2e-6
    assert rel_err(tf.fft(x, n=512), torch.fft.fft(x.to(torch.complex128), n=512)) < 2e-6
    r = torch.randn(8, 512, device="cuda")
    assert tf.fft(r).dtype == torch.complex64
    assert rel_err(tf.fft(r), torch.fft.fft(r.double())) < 2e-6
    h = torch.randn(8, 512, device="cuda").half()
    assert tf.fft(h).dtype == torch.complex32
    assert tf.fft(r.double()).dtype == torch.complex128
    assert tf.fft(torch.ones(8, 1, device="cuda", dtype=torch.complex64), dim=-1).shape == (8, 1)


def test_long_1d_uses_framework_scratch():
    x = rand((1 << 22,), torch.complex64, seed=3)
    assert tf.Plan((1 << 22,), torch.complex64).scratch_bytes > 0
    assert rel_err(tf.fft(x), torch.fft.fft(x.to(torch.complex128))) < 2e-6
    assert rel_err(tf.ifft(tf.fft(x)), x) < 2e-6


@pytest.mark.parametrize("name", list(PAIRS))
@pytest.mark.parametrize("norm", [None, "forward", "ortho"])
def test_gradcheck(name, norm):
    shape = (2, 8, 16) if name.endswith("n") or name.endswith("2") else (3, 32)
    x = rand(shape, torch.complex128, seed=4).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: PAIRS[name][0](t, norm=norm), (x,))


@pytest.mark.parametrize("name", list(PAIRS))
def test_gradients_match_torch_in_complex64(name):
    x = rand((4, 64, 64), torch.complex64, seed=5)
    a = x.clone().requires_grad_()
    b = x.clone().requires_grad_()
    w = rand((4, 64, 64), torch.complex64, seed=6)
    (PAIRS[name][0](a, norm="ortho") * w).real.sum().backward()
    (PAIRS[name][1](b, norm="ortho") * w).real.sum().backward()
    assert rel_err(a.grad, b.grad) < 2e-6
    r = torch.randn(4, 256, device="cuda", requires_grad=True)
    r2 = r.detach().clone().requires_grad_()
    tf.fft(r).abs().sum().backward()
    torch.fft.fft(r2).abs().sum().backward()
    # |fft| divides by |y|, which amplifies rounding near zeros: compare in the L2 sense.
    assert rel_err(r.grad, r2.grad) < 1e-5


def test_current_stream_and_graph_capture():
    x = rand((64, 4096), torch.complex64, seed=7)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = tf.fft(x)
        z = tf.ifft(y)
    s.synchronize()
    assert rel_err(z, x) < 2e-6
    # A CUDA graph capture fails on any host synchronisation or unordered allocation, so a
    # captured call shows the zero-copy path queues work only on the caller's stream.
    for shape, fn in [((64, 4096), tf.fft), ((1 << 22,), tf.fft), ((8, 256, 256), tf.fft2)]:
        static = rand(shape, torch.complex64, seed=8)
        fn(static)  # plan creation (kernel compilation) outside the capture
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            out = fn(static)
        fresh = rand(shape, torch.complex64, seed=9)
        static.copy_(fresh)
        g.replay()
        torch.cuda.synchronize()
        ref = (torch.fft.fft if fn is tf.fft else torch.fft.fft2)(fresh.to(torch.complex128))
        assert rel_err(out, ref) < 2e-6


def test_plan_object():
    plan = tf.Plan((256, 256), torch.complex64, batch=4, norm="ortho")
    x = rand((4, 256, 256), torch.complex64, seed=10)
    y = plan.forward(x)
    assert rel_err(y, torch.fft.fft2(x.to(torch.complex128), norm="ortho")) < 2e-6
    plan.inverse(y, out=y)
    assert rel_err(y, x) < 2e-6
    assert "pass" in plan.schedule.lower()
    with pytest.raises(ValueError):
        plan.forward(rand((3, 256, 256), torch.complex64))
    with pytest.raises(ValueError):
        plan.forward(x.transpose(1, 2))


def test_wisdom_changes_how_a_plan_runs_not_what_it_computes(tmp_path):
    import json

    device = tf._tensorfft.device_name()[0]
    entry = {
        "key": {"device": device, "precision": "f32", "dims": [256, 256], "batch": 4, "asked": {}},
        "tuning": {"items_per_tile": 4},
        "ms": 0.01, "default_ms": 0.011, "rel_l2": 1e-7, "default_rel_l2": 1e-7, "plan": "",
    }
    other = dict(entry, key=dict(entry["key"], device="Some Other GPU", batch=2))
    path = tmp_path / "wisdom.json"
    path.write_text(json.dumps({"version": 1, "entries": [entry, other]}))
    x = rand((4, 256, 256), torch.complex64, seed=14)
    ref = torch.fft.fft2(x.to(torch.complex128))
    try:
        assert tf.load_wisdom(path) == 2
        plan = tf.Plan((256, 256), torch.complex64, batch=4)
        assert plan.from_wisdom and "items/tile=4" in plan.schedule, plan.schedule
        assert rel_err(plan.forward(x), ref) < 2e-6
        assert rel_err(tf.fft2(x), ref) < 2e-6  # the functions' plans consult it too
        untouched = tf.Plan((256, 256), torch.complex64, batch=2)  # the other device's entry
        assert not untouched.from_wisdom
    finally:
        tf.forget_wisdom()
    assert not tf.Plan((256, 256), torch.complex64, batch=4).from_wisdom


def test_plan_f32split():
    """fp32 accuracy from the fp16 tensor cores: within 2x of complex64 torch.fft's error."""
    for n in (256, 512, 1024, 4096, 16384):
        plan = tf.Plan((n,), torch.complex64, batch=8, precision="f32split")
        x = rand((8, n), torch.complex64, seed=11)
        ref = torch.fft.fft(x.to(torch.complex128))
        ours = rel_err(plan.forward(x), ref)
        theirs = rel_err(torch.fft.fft(x), ref)
        assert ours < 2 * theirs, (n, ours, theirs)
        assert rel_err(plan.inverse(plan.forward(x)), x) < 1e-6  # backward: the inverse has 1/n
    # Multi-pass shapes: strided passes of 512 and more on the tensor cores, the rest in f32.
    for shape in ((1 << 15,), (1 << 20,), (1024, 64), (64, 64)):
        plan = tf.Plan(shape, torch.complex64, batch=2, precision="f32split")
        x = rand((2, *shape), torch.complex64, seed=12)
        dims = tuple(range(1, len(shape) + 1))
        ref = torch.fft.fftn(x.to(torch.complex128), dim=dims)
        ours = rel_err(plan.forward(x), ref)
        theirs = rel_err(torch.fft.fftn(x, dim=dims), ref)
        assert ours < 2 * theirs, (shape, ours, theirs)


def test_plan_tensor_cores():
    """complex32 on the tensor cores: well below torch.fft's complex32 error (0.3-0.4x on an
    H200 in tfft bench), forward and round trip."""
    for n in (256, 512, 1024, 2048, 4096, 8192, 16384):
        plan = tf.Plan((n,), torch.complex32, batch=8, tensor_cores=True)
        x = rand((8, n), torch.complex32, seed=13)
        ref = torch.fft.fft(x.to(torch.complex128))
        ours = rel_err(plan.forward(x), ref)
        theirs = rel_err(torch.fft.fft(x), ref)
        assert ours < 0.6 * theirs, (n, ours, theirs)
        assert rel_err(plan.inverse(plan.forward(x)), x) < 3e-3


def test_errors():
    with pytest.raises(ValueError, match="CUDA"):
        tf.fft(torch.ones(8, dtype=torch.complex64))
    with pytest.raises(NotImplementedError):
        tf.fft(rand((1000,), torch.complex64))
    with pytest.raises(TypeError):
        tf.fft(torch.ones(8, device="cuda", dtype=torch.bfloat16))
    with pytest.raises(RuntimeError):
        tf.fft(rand((8,), torch.complex64).requires_grad_(), out=rand((8,), torch.complex64))


def test_numpy_and_cupy():
    a = np.random.default_rng(0).standard_normal((8, 1024)) + 0j
    assert np.allclose(tf.fft(a), np.fft.fft(a))
    assert np.allclose(tf.ifft2(a.astype(np.complex64)), np.fft.ifft2(a), atol=1e-5)
    cp = pytest.importorskip("cupy")
    c = cp.asarray(a.astype(np.complex64))
    assert cp.allclose(tf.fft(c), cp.fft.fft(c), atol=1e-3)
    assert cp.allclose(tf.fft(c, dim=0), cp.fft.fft(c, axis=0), atol=1e-3)
    assert cp.allclose(tf.fftn(c[:, ::2]), cp.fft.fftn(c[:, ::2]), atol=1e-2)
    assert isinstance(tf.fft(c), cp.ndarray)


def test_foreign_arrays_without_a_copy():
    from tensorfft import _foreign

    x = rand((16, 4096), torch.complex64, seed=12)
    ref = torch.fft.fft(x.to(torch.complex128))
    got = tf.fft(DLPackOnly(x, torch.from_dlpack))
    assert isinstance(got, DLPackOnly) and rel_err(got.array, ref) < 2e-6
    got = tf.fft(InterfaceOnly(x))  # no way back into the producer's kind: a torch tensor
    assert isinstance(got, torch.Tensor) and rel_err(got, ref) < 2e-6
    for wrapped in (DLPackOnly(x), InterfaceOnly(x)):
        view = _foreign.adopt(wrapped).array
        assert view.data_ptr() == x.data_ptr()  # the same memory, no copy
    plan = tf.Plan((4096,), torch.complex64, batch=16)
    assert rel_err(plan.forward(DLPackOnly(x, torch.from_dlpack)).array, ref) < 2e-6
    words = torch.randint(0, tf.ntt.BABY_BEAR, (4, 1 << 12), device="cuda").to(torch.uint32)
    foreign = DLPackOnly(words, torch.from_dlpack)
    back = tf.ntt.inverse(tf.ntt.forward(foreign, tf.ntt.BABY_BEAR), tf.ntt.BABY_BEAR)
    assert isinstance(back, DLPackOnly) and torch.equal(back.array, words)
    with pytest.raises(ValueError, match="out="):
        tf.fft(DLPackOnly(x), out=torch.empty_like(x))


# ---------------------------------------------------------------- number theoretic transforms

from tensorfft import ntt  # noqa: E402


def schoolbook(a, b, p, negacyclic):
    """The product of two polynomials mod X^n - 1 (or X^n + 1) and p, in Python integers."""
    n = len(a)
    out = [0] * n
    for i, ai in enumerate(a):
        if ai:
            for j, bj in enumerate(b):
                k = i + j
                if k >= n:
                    k -= n
                    out[k] = (out[k] - ai * bj) % p if negacyclic else (out[k] + ai * bj) % p
                else:
                    out[k] = (out[k] + ai * bj) % p
    return out


def to_ints(t):
    """A tensor of 32- or 64-bit words as unsigned Python integers (flattened)."""
    bits = 8 * t.element_size()
    signed = t.cpu().contiguous().view(torch.int64 if bits == 64 else torch.int32)
    return [v % 2**bits for v in signed.reshape(-1).tolist()]


def from_ints(values, shape, dtype):
    """Unsigned Python integers as a CUDA tensor of ``dtype`` (same-size reinterpretation)."""
    bits = 8 * dtype.itemsize
    signed = [v - 2**bits if v >= 2 ** (bits - 1) else v for v in values]
    arr = np.array(signed, dtype=np.int64 if bits == 64 else np.int32).reshape(shape)
    return torch.from_numpy(arr).cuda().view(dtype)


def random_words(shape, moduli, dtype, seed):
    """Words below their limb's modulus (the last axis is a transform, limbs cycle over the
    transforms), with p - 1 first in every transform."""
    rng = np.random.default_rng(seed)
    moduli = [moduli] if isinstance(moduli, int) else moduli
    n = shape[-1]
    values = []
    for t in range(int(np.prod(shape[:-1], dtype=np.int64)) if len(shape) > 1 else 1):
        p = moduli[t % len(moduli)]
        row = [int(v) % p for v in rng.integers(0, 2**62, size=n, dtype=np.int64) * 4 + rng.integers(0, 4, size=n)]
        row[0] = p - 1
        values += row
    return from_ints(values, shape, dtype)


@pytest.mark.parametrize("p,dtype", [(ntt.BABY_BEAR, torch.uint32), (ntt.KOALA_BEAR, torch.int32),
                                     (ntt.GOLDILOCKS, torch.uint64), (ntt.FHE_62, torch.int64)])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_ntt_polynomial_products(p, dtype, kind):
    n = 256
    a = random_words((n,), p, dtype, 1)
    b = random_words((n,), p, dtype, 2)
    plan = ntt.NttPlan(p, n, kind=kind, batch=2, input_order="natural", output_order="bit_reversed")
    spec = plan.forward(torch.stack([a, b]))
    assert spec.dtype == dtype and spec.shape == (2, n)
    fa, fb = to_ints(spec[0]), to_ints(spec[1])
    pointwise = [(x * y) % p for x, y in zip(fa, fb)]
    back = plan.inverse(from_ints(pointwise * 2, (2, n), dtype))
    assert to_ints(back[0]) == schoolbook(to_ints(a), to_ints(b), p, kind == "negacyclic")


@pytest.mark.parametrize("p,dtype", [(ntt.BABY_BEAR, torch.uint32), (ntt.PRIME_32, torch.uint32),
                                     (ntt.GOLDILOCKS, torch.uint64), (ntt.FHE_62, torch.int64)])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_ntt_products_stay_on_the_gpu(p, dtype, kind):
    """forward, multiply, inverse on the device equals the schoolbook product; multiply against
    Python integers out of place, in place and through NumPy; the factors are left alone."""
    n = 256
    a = random_words((n,), p, dtype, 3)
    b = random_words((n,), p, dtype, 4)
    word = "uint32" if dtype.itemsize == 4 else "uint64"  # PRIME_32 (above 2^31) in 32-bit words
    plan = ntt.NttPlan(p, n, kind=kind, output_order="bit_reversed", word=word)
    fa, fb = plan.forward(a), plan.forward(b)
    keep = (fa.clone(), fb.clone())
    prod = plan.multiply(fa, fb)
    assert prod.dtype == dtype and prod.shape == (n,)
    assert to_ints(prod) == [(x * y) % p for x, y in zip(to_ints(fa), to_ints(fb))]
    assert torch.equal(fa, keep[0]) and torch.equal(fb, keep[1])
    assert to_ints(plan.inverse(prod)) == schoolbook(to_ints(a), to_ints(b), p, kind == "negacyclic")
    assert plan.multiply(fa, fb, out=fa) is fa and torch.equal(fa, prod)
    word = np.uint32 if dtype.itemsize == 4 else np.uint64
    host = plan.multiply(np.array(to_ints(keep[0]), dtype=word), np.array(to_ints(keep[1]), dtype=word))
    assert host.dtype == word and [int(v) for v in host] == to_ints(prod)


@pytest.mark.parametrize("p,dtype", [(ntt.BABY_BEAR, torch.uint32), (ntt.PRIME_32, torch.uint32),
                                     (ntt.GOLDILOCKS, torch.uint64), (ntt.FHE_62, torch.int64)])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
@pytest.mark.parametrize("n", [256, 1 << 16, 1 << 20])
def test_ntt_transforms_of_products(p, dtype, kind, n):
    """inverse(fa, times=fb) equals inverse(multiply(fa, fb)) (and for n = 256 the schoolbook
    product), forward(a, times=b) equals forward(multiply(a, b)), bit for bit, out of place, in
    place (out = the first factor) and through NumPy; the factors are left alone; out = the
    second factor is refused."""
    if p == ntt.FHE_62:
        n = min(n, 1 << 16)  # its two-adicity
    a = random_words((n,), p, dtype, 7)
    b = random_words((n,), p, dtype, 8)
    word = "uint32" if dtype.itemsize == 4 else "uint64"
    plan = ntt.NttPlan(p, n, kind=kind, output_order="bit_reversed", word=word)
    fa, fb = plan.forward(a), plan.forward(b)
    keep = (fa.clone(), fb.clone())
    fused = plan.inverse(fa, times=fb)
    assert fused.dtype == dtype and fused.shape == (n,)
    assert torch.equal(fused, plan.inverse(plan.multiply(fa, fb)))
    if n == 256:
        assert to_ints(fused) == schoolbook(to_ints(a), to_ints(b), p, kind == "negacyclic")
    assert torch.equal(fa, keep[0]) and torch.equal(fb, keep[1])
    coset = plan.forward(a, times=b)
    assert torch.equal(coset, plan.forward(plan.multiply(a, b)))
    assert plan.inverse(fa, times=fb, out=fa) is fa and torch.equal(fa, fused)
    with pytest.raises(ValueError):
        plan.inverse(fa, times=fb, out=fb)
    sq = keep[1].clone()
    assert plan.inverse(sq, times=sq, out=sq) is sq
    assert torch.equal(sq, plan.inverse(plan.multiply(keep[1], keep[1])))
    if n == 256:
        npw = np.uint32 if dtype.itemsize == 4 else np.uint64
        host = plan.inverse(np.array(to_ints(keep[0]), dtype=npw), times=np.array(to_ints(keep[1]), dtype=npw))
        assert [int(v) for v in host] == to_ints(fused)


@pytest.mark.parametrize("p,dtype,g", [(ntt.BABY_BEAR, torch.uint32, 31), (ntt.GOLDILOCKS, torch.uint64, 7)])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_ntt_coset_transforms(p, dtype, g, kind):
    """A coset plan's forward transform evaluates the polynomial at g·ω^k (ψ·g·ω^k negacyclic):
    against Horner's rule at n = 64, against the plain plan's transform of x_j g^j at n = 2^16,
    and the inverse undoes it."""
    for n in (64, 1 << 16):
        x = random_words((n,), p, dtype, 9)
        plan = ntt.NttPlan(p, n, kind=kind, coset=g, word="uint32" if dtype.itemsize == 4 else "uint64")
        plain = ntt.NttPlan(p, n, kind=kind, word="uint32" if dtype.itemsize == 4 else "uint64")
        y = plan.forward(x)
        xs = to_ints(x)
        weighted = [v * pow(g, j, p) % p for j, v in enumerate(xs)]
        assert torch.equal(y, plain.forward(from_ints(weighted, (n,), dtype)))
        if n == 64:
            # The plain plan's points ψ·ω^k (ψ = 1 cyclic): its transform of the unit vector e_1.
            e1 = [0] * n
            e1[1] = 1
            roots = to_ints(plain.forward(from_ints(e1, (n,), dtype)))
            ys = to_ints(y)
            for k in range(n):
                at = g * roots[k] % p
                assert ys[k] == sum(c * pow(at, j, p) for j, c in enumerate(xs)) % p
        assert torch.equal(plan.inverse(y), x)


def test_ntt_multiply_limbs_layouts_and_errors():
    limbs = [ntt.BABY_BEAR, ntt.KOALA_BEAR] + ntt.friendly_primes(30, 1 << 12, 2)
    for interleaved in (False, True):
        plan = ntt.NttPlan(limbs, 1 << 12, batch=3, interleaved=interleaved)
        shape = (1 << 12, 3 * len(limbs)) if interleaved else (3 * len(limbs), 1 << 12)
        rows = random_words((3 * len(limbs), 1 << 12), limbs, torch.uint32, 5)
        cols = random_words((3 * len(limbs), 1 << 12), limbs, torch.uint32, 6)
        a, b = (rows.t().contiguous(), cols.t().contiguous()) if interleaved else (rows, cols)
        got = to_ints(plan.multiply(a, b))
        ia, ib = to_ints(a), to_ints(b)
        for w in range(len(got)):
            t = w % shape[1] if interleaved else w // (1 << 12)
            assert got[w] == ia[w] * ib[w] % limbs[t % len(limbs)]
    with pytest.raises(ValueError):
        plan.multiply(a[:1], b[:1])
    with pytest.raises(TypeError):
        plan.multiply(a, np.zeros(len(plan), dtype=np.uint32))
    with pytest.raises(TypeError):
        plan.multiply(a.view(torch.float32), b.view(torch.float32))


@pytest.mark.parametrize("orders", [("natural", "natural"), ("natural", "bit_reversed"),
                                    ("bit_reversed", "natural"), ("bit_reversed", "bit_reversed")])
def test_ntt_round_trips_and_layouts(orders):
    limbs = [ntt.BABY_BEAR, ntt.KOALA_BEAR] + ntt.friendly_primes(30, 1 << 14, 3)
    x = random_words((3, 5, 1 << 12), limbs, torch.uint32, 3)   # batch 3, 5 limbs
    y = ntt.forward(x, limbs, kind="negacyclic", input_order=orders[0], output_order=orders[1])
    assert not torch.equal(y, x)
    z = ntt.inverse(y, limbs, kind="negacyclic", input_order=orders[0], output_order=orders[1])
    assert torch.equal(z, x)
    # In place, on a non-default stream, against the NumPy path (the same plan through a copy).
    plan = ntt.NttPlan(limbs, 1 << 12, kind="negacyclic", batch=3, input_order=orders[0], output_order=orders[1])
    w = x.clone()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        plan.forward(w, out=w)
    s.synchronize()
    assert torch.equal(w, y)
    host = plan.forward(x.cpu().numpy())
    assert np.array_equal(host, y.cpu().numpy())


def test_ntt_interleaved_columns_and_errors():
    p = ntt.BABY_BEAR
    cols = 48
    m = random_words((cols, 1 << 12), p, torch.uint32, 4).t().contiguous()   # row-major n x columns
    plan = ntt.NttPlan(p, 1 << 12, batch=cols, interleaved=True)
    y = plan.forward(m)
    ref = ntt.forward(m.t().contiguous(), p)             # each column as a contiguous transform
    assert torch.equal(y, ref.t())
    with pytest.raises(TypeError):
        plan.forward(m.to(torch.int64))
    with pytest.raises(ValueError, match="contiguous"):
        plan.forward(m.t())
    with pytest.raises(ValueError):
        plan.forward(m[:100])
    with pytest.raises(ValueError):  # values >= p on the host path
        plan.forward(np.full((1 << 12, cols), p, dtype=np.uint32))


@pytest.mark.parametrize("n", [4096, 1 << 16])
def test_f16_forward_and_ortho_modes_never_overflow(n):
    """Inputs near the top of fp16's range: torch.fft (cuFFT, scaling after the transform)
    overflows to inf in the forward norm mode; the kernels' stage-by-stage scaling does not."""
    x = (rand((4, n), torch.complex64, seed=11) * 42000).to(torch.complex32)  # |x| up to 60 000
    ref = torch.fft.fft(x.to(torch.complex128), norm="forward")
    y = tf.fft(x, norm="forward")
    assert torch.isfinite(y.view(torch.float16)).all()
    assert rel_err(y, ref) < BOUND[torch.complex32]
    # Unitary transforms keep the L2 norm, not the maximum: random inputs of components up to
    # 10 000 have transforms within fp16's range (an unscaled transform would not be: ~5e5).
    w = (rand((4, n), torch.complex64, seed=12) * 10000).to(torch.complex32)
    z = tf.ifft(tf.fft(w, norm="ortho"), norm="ortho")
    assert torch.isfinite(z.view(torch.float16)).all() and rel_err(z, w) < 2 * BOUND[torch.complex32]


def test_ntt_functions_fast_path_repeats_exactly():
    p = ntt.BABY_BEAR
    x = random_words((4, 1 << 12), p, torch.uint32, 5)
    first = ntt.forward(x, p, kind="negacyclic")
    again = ntt.forward(x.clone(), p, kind="negacyclic")   # served by the recorded plan
    assert torch.equal(first, again)
    assert torch.equal(ntt.inverse(again, p, kind="negacyclic"), x)
    view = x.t().contiguous().t()   # the same values, not contiguous: the slow path again
    assert not view.is_contiguous()
    assert torch.equal(ntt.forward(view, p, kind="negacyclic"), first)


def bf16_pairs(shape, seed=0):
    """Random complex values in bfloat16 pairs (..., 2) and the same values as complex128."""
    z = rand(shape, torch.complex128, seed)
    pairs = torch.view_as_real(z).to(torch.bfloat16)
    return pairs, torch.view_as_complex(pairs.double())


BF16_PAIRS = {
    "fft": (tf.bf16.fft, torch.fft.fft),
    "ifft": (tf.bf16.ifft, torch.fft.ifft),
    "fft2": (tf.bf16.fft2, torch.fft.fft2),
    "ifft2": (tf.bf16.ifft2, torch.fft.ifft2),
    "fftn": (tf.bf16.fftn, torch.fft.fftn),
    "ifftn": (tf.bf16.ifftn, torch.fft.ifftn),
}


@pytest.mark.parametrize("name", list(BF16_PAIRS))
@pytest.mark.parametrize("norm", [None, "forward", "ortho"])
@pytest.mark.parametrize("shape", [(8, 4096), (1 << 16,), (4, 256, 256), (2, 16, 32, 8)])
def test_bf16_pairs_match_torch(name, norm, shape):
    if name.endswith("2") and len(shape) < 2:
        pytest.skip("a 2D transform of a 1D tensor")
    x, exact = bf16_pairs(shape)
    before = x.clone()
    y = BF16_PAIRS[name][0](x, norm=norm)
    assert y.dtype == torch.bfloat16 and y.shape == x.shape
    ref = BF16_PAIRS[name][1](exact, norm=norm)
    # Packed bf16x2 arithmetic (the default): a few bf16 ulps (unit roundoff 3.9e-3); f32
    # arithmetic (half_arithmetic=False): near the rounding of the output alone.
    packed = rel_err(torch.view_as_complex(y.double()), ref)
    assert packed < 2e-2
    y32 = BF16_PAIRS[name][0](x, norm=norm, half_arithmetic=False)
    f32 = rel_err(torch.view_as_complex(y32.double()), ref)
    assert f32 < 6e-3 and f32 <= packed, (packed, f32)
    # bf16 products on the tensor cores (tensor_cores=True) for the radix-16 stages of
    # transforms and passes of 256 and more, f32 arithmetic elsewhere: between the two.
    ytc = BF16_PAIRS[name][0](x, norm=norm, tensor_cores=True)
    tc = rel_err(torch.view_as_complex(ytc.double()), ref)
    assert tc < 1e-2 and tc <= packed, (packed, f32, tc)
    assert torch.equal(x, before)


def test_bf16_tensor_cores_sit_between_f32_and_bf16x2():
    """``tensor_cores=True`` reaches the tensor-core kernels: on single passes of 256 and 4096
    its error lies strictly between f32 arithmetic's and packed bf16x2's (the CPU model and
    the H200 give about 2.8e-3 / 3.5e-3 against 1.7e-3 and 6-8e-3)."""
    for shape in [(64, 256), (8, 4096)]:
        x, exact = bf16_pairs(shape, seed=3)
        ref = torch.fft.fft(exact)
        err = {}
        for key, kwargs in [("tc", {"tensor_cores": True}), ("f32", {"half_arithmetic": False}),
                            ("packed", {})]:
            y = tf.bf16.fft(x, **kwargs)
            err[key] = rel_err(torch.view_as_complex(y.double()), ref)
        assert 1.2 * err["f32"] < err["tc"] < 0.8 * err["packed"], (shape, err)


def test_bf16_strided_out_padding_and_gradients():
    x, exact = bf16_pairs((64, 32))
    # A transposed view: the pairs stay contiguous, the other strides even (no copy).
    xt = x.transpose(0, 1)
    y = tf.bf16.fft(xt, dim=0)
    ref = torch.fft.fft(exact.transpose(0, 1), dim=0)
    assert rel_err(torch.view_as_complex(y.double()), ref) < 1e-2
    # Pairs split across a non-contiguous last axis are copied first.
    wide = torch.zeros(64, 32, 4, dtype=torch.bfloat16, device="cuda")
    wide[..., ::2] = x
    y = tf.bf16.fft(wide[..., ::2])
    assert rel_err(torch.view_as_complex(y.double()), torch.fft.fft(exact)) < 1e-2
    # out= and n= (zero padding to 64).
    out = torch.empty(64, 64, 2, dtype=torch.bfloat16, device="cuda")
    r = tf.bf16.fft(x, n=64, out=out)
    assert r is out
    assert rel_err(torch.view_as_complex(out.double()), torch.fft.fft(exact, n=64)) < 1e-2
    # Gradients: as torch.fft's in complex64 on the same values, to bf16 accuracy.
    xg = x.clone().requires_grad_(True)
    (torch.view_as_complex(tf.bf16.fft(xg, norm="ortho").float()).abs() ** 2).sum().backward()
    xc = exact.to(torch.complex64).requires_grad_(True)
    (torch.fft.fft(xc, norm="ortho").abs() ** 2).sum().backward()
    assert rel_err(torch.view_as_complex(xg.grad.double()), xc.grad) < 3e-2
    # Views that cannot be seen as 4-byte pairs are copied: an odd storage offset, an odd
    # stride on a size-1 axis.
    flat = torch.view_as_real(rand((1, 4097), torch.complex64)).to(torch.bfloat16).reshape(-1)
    odd = flat[1:8193].view(4096, 2)
    ref = torch.fft.fft(torch.view_as_complex(odd.double()))
    assert rel_err(torch.view_as_complex(tf.bf16.fft(odd).double()), ref) < 1e-2
    one = torch.randn(2, 1, device="cuda").to(torch.bfloat16).t()  # shape (1, 2), strides (1, 1)
    assert torch.equal(tf.bf16.fft(one, dim=0), one)  # a 1-point transform: the identity
    with pytest.raises(TypeError, match="bfloat16"):
        tf.bf16.fft(exact)
    with pytest.raises(ValueError, match="last axis"):
        tf.bf16.fft(torch.zeros(8, 3, dtype=torch.bfloat16, device="cuda"))
