"""The Python package without a GPU: import, argument rules, error types, the no-GPU message,
the plan cache, and (through tests/fake_device.py) the mapping of tensors onto plans."""

import itertools
import json
import random

import numpy as np
import pytest

import tensorfft as tf
from tensorfft import _core, _layout, _tensorfft

from fake_device import FakePlan, NumpyDeviceOps, bf16_decode, bf16_encode
from foreign_arrays import DLPackOnly

HAS_GPU = tf.is_available()


def test_import_and_version():
    assert tf.__version__ == _tensorfft.__version__
    assert set(_tensorfft.supported_precisions()) == {"f16", "f32", "f64", "bf16", "f32split"}
    for name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"):
        assert callable(getattr(tf, name))


@pytest.mark.skipif(HAS_GPU, reason="a GPU is present")
def test_no_gpu_message():
    ok, why = tf.gpu_status()
    assert not ok and "no GPU" in why
    with pytest.raises(RuntimeError, match="no GPU"):
        _tensorfft.Plan([1024])
    with pytest.raises(RuntimeError, match="no GPU"):
        tf.fft(np.ones(8))
    with pytest.raises(RuntimeError, match="no GPU"):
        tf.Plan((64,), "complex64")


def test_planner_errors_are_typed():
    assert "pass" in _tensorfft.plan_schedule([1 << 20], precision="f32").lower()
    with pytest.raises(NotImplementedError, match="power"):
        _tensorfft.plan_schedule([1000])
    with pytest.raises(NotImplementedError):
        _tensorfft.plan_schedule([4, 4, 4, 4])
    with pytest.raises(ValueError):
        _tensorfft.plan_schedule([0])
    with pytest.raises(ValueError):
        _tensorfft.plan_schedule([64], batch=0)
    assert "bf16" in _tensorfft.plan_schedule([1 << 20], precision="bf16").lower()
    # BF16 in packed bf16x2 arithmetic by default (single passes from 256, strided passes on
    # pairs of items); half_arithmetic=False computes in f32.
    assert "half_arithmetic=true" in _tensorfft.plan_schedule([4096], precision="bf16")
    assert "half_arithmetic=false" in _tensorfft.plan_schedule([4096], precision="bf16",
                                                              half_arithmetic=False)
    assert "bf16x2 item pairs" in _tensorfft.plan_schedule([1 << 20], precision="bf16")
    assert "item pairs" not in _tensorfft.plan_schedule([1 << 20], precision="bf16",
                                                        half_arithmetic=False)
    with pytest.raises(NotImplementedError, match="packed half"):
        _tensorfft.plan_schedule([4096], precision="f32", half_arithmetic=True)
    # F32Split: a tensor-core pass of 256 to 16384 along a single axis; every other shape too,
    # with strided passes of 512 and more on the tensor cores and shorter axes in f32.
    assert "f32split" in _tensorfft.plan_schedule([4096], batch=3, precision="f32split").lower()
    assert "tensor_pair=true" in _tensorfft.plan_schedule([256], precision="f32split")
    assert "tensor-cores" in _tensorfft.plan_schedule([1 << 15], precision="f32split")
    assert "tensor-cores" in _tensorfft.plan_schedule([1024, 64], precision="f32split")
    assert "c2c f32 N=128" in _tensorfft.plan_schedule([128], precision="f32split")
    with pytest.raises(ValueError, match="f32split"):
        tf.Plan((4096,), "complex128", precision="f32split")
    # F16 on the tensor cores (opt-in): 256 … 1024 in one warp, 2048 … 16384 the stage pair
    # before Stockham stages with the input staged, refused for other precisions.
    for n in (256, 512, 1024, 4096):
        s = _tensorfft.plan_schedule([n], batch=3, precision="f16", tensor_cores=True)
        assert "tensor_cores=true tensor_pair=true" in s, s
    assert "io=Staged" in _tensorfft.plan_schedule([4096], precision="f16", tensor_cores=True)
    assert "tensor_cores=false" in _tensorfft.plan_schedule([256], precision="f16")
    # Beyond 16384 (32768 is still one pass) and below 256 single passes run on the CUDA cores;
    # longer axes run their strided passes of 512 and more on the tensor cores.
    s = _tensorfft.plan_schedule([32768], precision="f16", tensor_cores=True)
    assert "passes=1" in s and "tensor_cores=false tensor_pair=false half_arithmetic=true" in s, s
    s = _tensorfft.plan_schedule([128], precision="f16", tensor_cores=True)
    assert "passes=1" in s and "tensor_cores=false" in s, s
    assert "tensor-cores" in _tensorfft.plan_schedule([1 << 16], precision="f16", tensor_cores=True)
    with pytest.raises(NotImplementedError, match="tensor-core"):
        _tensorfft.plan_schedule([4096], precision="f32", tensor_cores=True)
    with pytest.raises(ValueError, match="complex32"):
        tf.Plan((256,), "complex64", tensor_cores=True)
    # half_arithmetic: complex32 only (True / False), checked before any device is opened.
    with pytest.raises(ValueError, match="complex32"):
        tf.Plan((256,), "complex64", half_arithmetic=False)
    with pytest.raises(ValueError, match="complex32"):
        tf.Plan((256,), "complex32", half_arithmetic=0)
    if HAS_GPU:  # the argument reaches the library's plan
        assert "half_arithmetic=false" in tf.Plan((256,), "complex32", half_arithmetic=False).schedule
    else:
        with pytest.raises(RuntimeError, match="no GPU"):
            tf.Plan((256,), "complex32", half_arithmetic=False)
    assert "half_arithmetic=false" in _tensorfft.plan_schedule([4096], precision="f16",
                                                              half_arithmetic=False)
    with pytest.raises(ValueError, match="override"):
        tf.Plan((4096,), "complex64", precision="f16")
    with pytest.raises(ValueError, match="precision"):
        _tensorfft.plan_schedule([64], precision="f8")
    with pytest.raises(NotImplementedError, match="overlap"):  # the library's Unsupported
        _tensorfft.plan_schedule([64], batch=4, input_strides=(1, 8))
    # Plan creation refuses bad shapes before it opens a device.
    with pytest.raises(NotImplementedError):
        _tensorfft.Plan([3000])
    with pytest.raises(OverflowError):  # PyO3's refusal of a negative extent
        _tensorfft.Plan([-1])


def test_function_argument_errors():
    with pytest.raises(TypeError):
        tf.fft([1.0, 2.0])
    with pytest.raises(ValueError, match="normalization"):
        tf.fft(np.ones(8), norm="bogus")
    with pytest.raises(IndexError):
        tf.fft(np.ones(8), dim=3)
    with pytest.raises(ValueError, match="repeated"):
        tf.fft2(np.ones((8, 8)), dim=(0, 0))
    with pytest.raises(ValueError):
        tf.fft(np.ones(8), n=0)
    with pytest.raises(ValueError):
        tf.fftn(np.ones((8, 8)), s=(8, 8), dim=(0,))
    with pytest.raises(ValueError):
        tf.Plan((64,), "float32")


def test_scaling_modes():
    assert _layout.scale_of(None, True, 8) == ("none", 1.0)
    assert _layout.scale_of("backward", False, 8) == ("by_n", 0.125)
    assert _layout.scale_of("forward", True, 8) == ("by_n", 0.125)
    assert _layout.scale_of("forward", False, 8) == ("none", 1.0)
    assert _layout.scale_of("ortho", True, 16) == ("by_root_n", 0.25)
    assert _layout.scale_of("ortho", False, 16) == ("by_root_n", 0.25)


def test_group_dims():
    assert _layout.group_dims((4, 1, 8), (0, 1, 2)) == ((0,), (2,))
    assert _layout.group_dims((4, 8, 8), (1, 2)) == ((1, 2),)
    assert _layout.group_dims((2, 2, 2, 2), (0, 1, 2, 3)) == ((0,), (1, 2, 3))
    assert _layout.group_dims((1, 1), (0, 1)) == ()


def _elements(shape, strides):
    """Every element's offset, indexed by the tensor's own multi-index."""
    idx = np.zeros(shape, dtype=np.int64)
    for d, (n, t) in enumerate(zip(shape, strides)):
        sh = [1] * len(shape)
        sh[d] = n
        idx = idx + (np.arange(n) * t).reshape(sh)
    return idx


def test_map_axes_matches_the_layout_contract():
    """Whenever map_axes maps, `b·dist + lin(i)·stride` addresses exactly the tensor's
    elements, with the transformed axes as `i` (slowest first in `order`) and the rest as `b`."""
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        nd = rng.randint(1, 4)
        shape = tuple(rng.choice([1, 2, 4, 8]) for _ in range(nd))
        perm = list(range(nd))
        rng.shuffle(perm)
        # Strides of a permuted contiguous tensor, sometimes sliced (every 2nd element of an axis).
        strides = [0] * nd
        step = 1
        for a in reversed(perm):
            strides[a] = step * rng.choice([1, 1, 2])
            step = strides[a] * shape[a] * rng.choice([1, 1, 2])
        k = rng.randint(1, nd)
        dims = tuple(sorted(rng.sample(range(nd), k)))
        m = _layout.map_axes(shape, strides, dims)
        if m is None:
            continue
        checked += 1
        offsets = _elements(shape, strides)
        t_axes = [a for a in m.order if a in dims]
        b_axes = [a for a in m.order if a not in dims]
        moved = np.transpose(offsets, [a for a in b_axes + t_axes] + [a for a in range(nd) if a not in m.order])
        flat = moved.reshape(m.batch, -1)
        stride, dist = m.strides if m.strides is not None else (1, int(np.prod(m.shape)))
        expect = np.arange(m.batch)[:, None] * dist + np.arange(flat.shape[1])[None, :] * stride
        assert np.array_equal(flat, expect), (shape, strides, dims, m)
        assert m.extent == _layout.extent(shape, strides)
        assert tuple(shape[a] for a in t_axes) == m.shape
    assert checked > 500


def test_overlapping_views_do_not_map():
    assert _layout.map_axes((4, 8), (0, 1), (1,)) is None
    assert _layout.map_axes((4, 8), (4, 1), (1,)) is None


@pytest.fixture
def fake(monkeypatch):
    log = []

    def get_plan(device, shape, batch, precision, normalization, in_strides, out_strides):
        return FakePlan(list(shape), batch=batch, precision=precision, normalization=normalization,
                        input_strides=in_strides, output_strides=out_strides, device=device, log=log)

    monkeypatch.setattr(_core, "get_plan", get_plan)
    import tensorfft._host as host

    monkeypatch.setattr(host, "get_plan", get_plan)
    return NumpyDeviceOps(), log


def _numpy_reference(x, dims, forward, norm):
    f = np.fft.fftn if forward else np.fft.ifftn
    return f(x.astype(np.complex128), axes=dims, norm=norm or "backward")


def _transposed_view(rng, base):
    """``base``'s values in a view whose axes lie in memory in a random order."""
    perm = list(range(base.ndim))
    rng.shuffle(perm)
    return np.ascontiguousarray(np.transpose(base, perm)).transpose(np.argsort(perm))


def _random_call(rng, shape):
    """Random transformed axes, direction and norm for an array of ``shape``, and the kind of
    scaling the package passes to the core."""
    dims = tuple(sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape)))))
    forward = rng.random() < 0.5
    norm = rng.choice([None, "backward", "forward", "ortho"])
    kind, _ = _layout.scale_of(norm, forward, int(np.prod([shape[d] for d in dims])))
    return dims, forward, norm, kind


def _random_view(rng, nrng):
    nd = rng.randint(1, 4)
    shape = [rng.choice([1, 2, 4, 8, 16]) for _ in range(nd)]
    base = (nrng.standard_normal(shape) + 1j * nrng.standard_normal(shape)).astype(rng.choice([np.complex64, np.complex128]))
    kind = rng.choice(["contiguous", "transposed", "sliced", "offset"])
    if kind == "transposed" and nd > 1:
        return _transposed_view(rng, base)
    if kind == "sliced":
        d = rng.randrange(nd)
        big = np.repeat(base, 2, axis=d)
        return big[tuple(slice(None, None, 2) if a == d else slice(None) for a in range(nd))]
    if kind == "offset":
        flat = np.concatenate([np.zeros(1, base.dtype), base.ravel()])
        return flat[1:].reshape(base.shape)  # misaligned by one element: must be copied
    return base


def test_transform_on_fake_device_matches_numpy(fake):
    ops, log = fake
    rng = random.Random(3)
    nrng = np.random.default_rng(3)
    zero_copy = 0
    for case in range(400):
        x = _random_view(rng, nrng)
        dims, forward, norm, kind = _random_call(rng, x.shape)
        before = x.copy()
        log.clear()
        y = _core.transform(ops, x, dims, forward, kind)
        ref = _numpy_reference(before, dims, forward, norm)
        tol = 1e-4 if x.dtype == np.complex64 else 1e-10
        scale = max(1.0, float(np.abs(ref).max()))
        assert y.shape == x.shape and y.dtype == x.dtype
        assert np.allclose(y, ref, atol=tol * scale), (case, x.shape, x.strides, dims, norm)
        assert np.array_equal(x, before), "the input was modified"
        zero_copy += all(entry[4] is False for entry in log) and bool(log)
    assert zero_copy > 100


def test_zero_copy_along_axis_zero_and_in_place(fake):
    ops, log = fake
    x = (np.arange(16 * 8 * 4) % 7).astype(np.complex64).reshape(16, 8, 4)
    y = _core.transform(ops, x, (0,), True, "none")
    assert log == [((16,), 32, (32, 1), (32, 1), False)]
    assert np.allclose(y, np.fft.fft(x, axis=0), atol=1e-3)
    log.clear()
    ref = np.fft.ifft2(x, axes=(1, 2))
    z = _core.transform(ops, x, (1, 2), False, "by_n", out=x)
    assert z is x and log == [((8, 4), 16, None, None, True)]
    assert np.allclose(x, ref, atol=1e-5)


def test_middle_axis_copies_once(fake):
    ops, log = fake
    x = np.ones((4, 8, 2), dtype=np.complex64)
    y = _core.transform(ops, x, (1,), True, "none")
    assert len(log) == 1 and log[0][2] is None and log[0][4] is True  # dense, in place on the copy
    assert np.allclose(y[:, 0, :], 8) and np.allclose(y[:, 1:, :], 0)


def test_host_path_and_padding(fake):
    _, log = fake
    x = np.random.default_rng(1).standard_normal((3, 6))
    for norm in (None, "forward", "ortho"):
        got = tf.fft(x, n=8, norm=norm)
        assert got.dtype == np.complex128
        assert np.allclose(got, np.fft.fft(x, n=8, norm=norm))
        got = tf.ifft2(x.astype(np.float32), s=(4, 4), norm=norm)
        assert got.dtype == np.complex64
        assert np.allclose(got, np.fft.ifft2(x, s=(4, 4), norm=norm), atol=1e-5)
    square = np.random.default_rng(2).standard_normal((4, 8))
    got = tf.fftn(square, dim=None)
    assert np.allclose(got, np.fft.fftn(square))
    assert all(entry[4] == "host" for entry in log)


def test_plan_cache():
    cache = tf.PlanCache(max_size=3)
    for k in range(5):
        cache.get(k, lambda k=k: k * 10)
    assert cache.size == 3 and 4 in cache and 1 not in cache
    cache.get(2, lambda: None)  # a hit refreshes
    cache.get(9, lambda: 90)
    assert 2 in cache and 3 not in cache
    cache.max_size = 1
    assert cache.size == 1 and 9 in cache
    cache.clear()
    assert cache.size == 0
    with pytest.raises(ValueError):
        cache.max_size = -1
    assert tf.plan_cache.max_size == 4096


def test_all_norms_and_directions_are_listed():
    for norm, forward in itertools.product([None, "backward", "forward", "ortho"], [True, False]):
        kind, f = _layout.scale_of(norm, forward, 64)
        assert kind in ("none", "by_n", "by_root_n") and f == _layout.factor(kind, 64)


def test_recorded_direct_call_repeats_the_transform(fake):
    ops, log = fake
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((8, 64)) + 1j * rng.standard_normal((8, 64))).astype(np.complex64)
    record = []
    y = _core.transform(ops, x, (1,), True, "by_root_n", record=record)
    assert len(record) == 1
    x2 = (rng.standard_normal((8, 64)) + 0j).astype(np.complex64)
    y2 = record[0](x2)
    assert np.allclose(y, np.fft.fft(x, norm="ortho"), atol=1e-5)
    assert np.allclose(y2, np.fft.fft(x2, norm="ortho"), atol=1e-5)
    record.clear()
    _core.transform(ops, x, (0, 1), True, "none", out=np.empty_like(x), record=record)
    assert record == []  # a caller-supplied output is never a fast path


def test_docstring_examples():
    import doctest

    import tensorfft._cache
    import tensorfft._layout

    for module in (tensorfft._layout, tensorfft._cache, tf):
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__


def test_ntt_without_a_gpu():
    from tensorfft import ntt

    assert (ntt.BABY_BEAR, ntt.KOALA_BEAR, ntt.GOLDILOCKS) == (2013265921, 2130706433, 2**64 - 2**32 + 1)
    primes = ntt.friendly_primes(40, 1 << 12, 3)
    assert len(primes) == 3 and all(p % (1 << 13) == 1 and p < 2**40 for p in primes)
    assert primes == sorted(primes, reverse=True)
    with pytest.raises(ValueError):
        ntt.friendly_primes(40, 1000, 1)
    with pytest.raises(ValueError, match="prime"):
        ntt.NttPlan(2013265920, 1024)
    with pytest.raises(ValueError, match="order"):
        ntt.NttPlan(ntt.BABY_BEAR, 1024, input_order="reversed")
    with pytest.raises(ValueError, match="kind"):
        ntt.NttPlan(ntt.BABY_BEAR, 1024, kind="twisted")
    with pytest.raises(ValueError):
        ntt.NttPlan(ntt.BABY_BEAR, 1000)
    with pytest.raises(ValueError):
        ntt.NttPlan([], 1024)
    with pytest.raises(ValueError, match="coset"):
        ntt.NttPlan(ntt.BABY_BEAR, 1024, coset=2 * ntt.BABY_BEAR)  # g ≡ 0
    with pytest.raises((ValueError, NotImplementedError)):
        ntt.NttPlan(ntt.GOLDILOCKS, 1024, word="uint32")
    with pytest.raises(TypeError):
        ntt.forward(np.ones(8, dtype=np.float32), ntt.BABY_BEAR)
    with pytest.raises(ValueError, match="limbs"):
        ntt.forward(np.ones((3, 8), dtype=np.uint32), [ntt.BABY_BEAR, ntt.KOALA_BEAR])
    assert ntt.PRIME_32 == 3 * 2**30 + 1
    with pytest.raises(NotImplementedError, match="2\\^32"):
        ntt.NttPlan(2**32 + 15, 2, word="uint32")  # a prime above every uint32 word
    if not HAS_GPU:
        with pytest.raises(RuntimeError, match="no GPU"):
            ntt.NttPlan(ntt.BABY_BEAR, 1024)
        # A prime above 2^31 in uint32 words is a plan, not a refusal: only the GPU is missing.
        with pytest.raises(RuntimeError, match="no GPU"):
            ntt.NttPlan(ntt.PRIME_32, 1024, word="uint32")
        # A coset is a plan too.
        with pytest.raises(RuntimeError, match="no GPU"):
            ntt.NttPlan(ntt.GOLDILOCKS, 1024, coset=7)


class FakeNttProducts:
    """The native NTT plan's pointwise entry points in NumPy: words of ``moduli`` (limb
    ``t mod len(moduli)`` for contiguous transform ``t`` of ``n`` words), from bytes or from the
    addresses of NumPy arrays playing device tensors. The transforms of products
    (``product_*``) play the transform by the identity: what they check is the plumbing (the
    direction, the factors, ``out``), the GPU tests check the transforms."""

    def __init__(self, moduli, n, transforms, log):
        self.moduli, self.n, self.len, self.word_bytes, self.log = moduli, n, n * transforms, 4, log

    def _product(self, a, b):
        limb = (np.arange(self.len) // self.n) % len(self.moduli)
        p = np.array(self.moduli, dtype=np.uint64)[limb]
        return (a.astype(np.uint64) * b.astype(np.uint64) % p).astype(np.uint32)

    def pointwise_host(self, a, b):
        self.log.append("host")
        return self._product(np.frombuffer(a, "<u4"), np.frombuffer(b, "<u4")).tobytes()

    def pointwise_raw(self, a, b, out, stream):
        from fake_device import view

        assert a[1] == b[1] == out[1] == self.len and all(x[0] % 16 == 0 for x in (a, b, out))
        self.log.append("raw")
        view(out[0], self.len, np.uint32)[:] = self._product(view(a[0], self.len, np.uint32).copy(),
                                                             view(b[0], self.len, np.uint32).copy())

    def product_host(self, forward, a, b):
        self.log.append(("product host", forward))
        return self._product(np.frombuffer(a, "<u4"), np.frombuffer(b, "<u4")).tobytes()

    def product_raw(self, forward, a, b, out, stream):
        from fake_device import view

        assert a[1] == b[1] == out[1] == self.len and all(x[0] % 16 == 0 for x in (a, b, out))
        assert out[0] != b[0] or a[0] == b[0], "the output is the factor b only in a square in place"
        self.log.append(("product raw", forward))
        view(out[0], self.len, np.uint32)[:] = self._product(view(a[0], self.len, np.uint32).copy(),
                                                             view(b[0], self.len, np.uint32).copy())


def fake_ntt_plan(log):
    """An NttPlan of BabyBear and KoalaBear limbs, 4 transforms of 8 words, whose native plan is
    FakeNttProducts; two random factors (p - 1 in every transform's first word) and their
    product."""
    from tensorfft import ntt

    moduli, n, transforms = [ntt.BABY_BEAR, ntt.KOALA_BEAR], 8, 4
    plan = object.__new__(ntt.NttPlan)
    plan.moduli, plan.n, plan.device, plan.word = moduli, n, 0, "uint32"
    plan._plan = FakeNttProducts(moduli, n, transforms, log)
    plan._len = n * transforms
    rng = np.random.default_rng(9)
    a = np.stack([rng.integers(0, moduli[t % 2], n, dtype=np.uint64) for t in range(transforms)]).astype(np.uint32)
    b = np.stack([rng.integers(0, moduli[t % 2], n, dtype=np.uint64) for t in range(transforms)]).astype(np.uint32)
    a[:, 0] = [moduli[t % 2] - 1 for t in range(transforms)]
    want = np.array([[int(x) * int(y) % moduli[t % 2] for x, y in zip(a[t], b[t])] for t in range(transforms)],
                    dtype=np.uint32)
    return plan, a, b, want


def test_ntt_multiply_on_fake_device(monkeypatch):
    """NttPlan.multiply's branches without a GPU: the NumPy path (bytes to the core and back,
    ``out``, dtype and size checks) and the device path (addresses to the core, a new output or
    ``out`` = a factor), with the native plan played by NumPy."""
    from tensorfft import ntt

    log = []
    plan, a, b, want = fake_ntt_plan(log)
    assert np.array_equal(plan.multiply(a, b), want) and log == ["host"]
    out = np.zeros_like(a)
    assert plan.multiply(a, b, out=out) is out and np.array_equal(out, want)
    with pytest.raises(TypeError):
        plan.multiply(a, b, out=np.zeros(a.shape, dtype=np.float32))
    with pytest.raises(ValueError):
        plan.multiply(a[:1], b[:1])
    with pytest.raises(TypeError):
        plan.multiply(a.astype(np.uint64), b.astype(np.uint64))
    # The device path, with NumPy arrays playing tensors.
    monkeypatch.setattr(ntt, "framework_of", lambda x: "fake")
    monkeypatch.setattr(ntt, "ops_for", lambda name: NumpyDeviceOps())
    log.clear()
    c = plan.multiply(a, b)
    assert np.array_equal(c, want) and log == ["raw"]
    assert plan.multiply(a, b, out=a) is a and np.array_equal(a, want)


def test_ntt_transform_of_product_on_fake_device(monkeypatch):
    """forward / inverse with ``times`` reach the native transform of a product with their
    direction and both factors: the NumPy path (``out``, dtype and size checks) and the device
    path (a new output, ``out`` = the first factor), with the native plan played by NumPy."""
    from tensorfft import ntt

    log = []
    plan, a, b, want = fake_ntt_plan(log)
    assert np.array_equal(plan.inverse(a, times=b), want) and log == [("product host", False)]
    out = np.zeros_like(a)
    assert plan.forward(a, times=b, out=out) is out and np.array_equal(out, want)
    assert log[-1] == ("product host", True)
    with pytest.raises(TypeError):
        plan.inverse(a, times=b.astype(np.uint64))
    with pytest.raises(ValueError):
        plan.forward(a, times=b[:1])
    with pytest.raises(TypeError, match="one kind"):
        plan.inverse(a, times=DLPackOnly(b))
    with pytest.raises(ValueError, match="not times"):
        plan.inverse(a, times=b, out=b)
    monkeypatch.setattr(ntt, "framework_of", lambda x: "fake")
    monkeypatch.setattr(ntt, "ops_for", lambda name: NumpyDeviceOps())
    log.clear()
    c = plan.forward(a, times=b)
    assert np.array_equal(c, want) and log == [("product raw", True)]
    assert plan.inverse(a, times=b, out=a) is a and np.array_equal(a, want)
    assert log[-1] == ("product raw", False)
    square = want.astype(np.uint64) ** 2 % np.array([[m] for m in plan.moduli * 2], dtype=np.uint64)
    assert plan.forward(a, times=a, out=a) is a and np.array_equal(a, square.astype(np.uint32))


def test_bf16_pairs_on_fake_device(fake):
    """Complex bfloat16 pairs (one packed 4-byte element each, as tensorfft.bf16 passes them)
    through the same mapping onto plans, with precision 'bf16'."""
    ops, log = fake
    rng = random.Random(5)
    nrng = np.random.default_rng(5)
    for case in range(120):
        # Cases in f32 arithmetic (tensorfft.bf16's half_arithmetic=False) and on the tensor
        # cores (tensor_cores=True) between the default ones.
        precision = ("bf16", "bf16:f32", "bf16:tc")[case % 3]
        nd = rng.randint(1, 3)
        shape = [rng.choice([1, 2, 4, 8, 16]) for _ in range(nd)]
        z = nrng.standard_normal(shape) + 1j * nrng.standard_normal(shape)
        packed = bf16_encode(z).reshape(shape)
        if nd > 1 and rng.random() < 0.5:
            packed = _transposed_view(rng, packed)
        exact = bf16_decode(packed)
        dims, forward, norm, kind = _random_call(rng, packed.shape)
        before = packed.copy()
        y = _core.transform(ops, packed, dims, forward, kind, precision=precision)
        assert y.dtype == np.uint32 and y.shape == packed.shape
        got = bf16_decode(y)
        ref = _numpy_reference(exact, dims, forward, norm)
        err = np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-30)
        assert err < 1e-2, (case, shape, dims, norm, err)
        assert np.array_equal(packed, before), "the input was modified"


def test_bf16_f32_arithmetic_reaches_the_library_plan(monkeypatch):
    """``'bf16:f32'`` (``tensorfft.bf16``'s ``half_arithmetic=False``) creates a BF16 library plan
    with ``half_arithmetic=False``, cached apart from the packed one."""
    made = []

    class RecordingNative:
        @staticmethod
        def Plan(shape, **kwargs):
            made.append((tuple(shape), kwargs))
            return object()

    monkeypatch.setattr(_core, "native", lambda: RecordingNative)
    _core.plan_cache.clear()
    for precision in ("bf16:f32", "bf16", "bf16:f32", "bf16:tc", "bf16:tc"):
        _core.get_plan(0, (64,), 3, precision, "none", None, None)
    assert [(k["precision"], k["half_arithmetic"], k["tensor_cores"]) for _, k in made] == [
        ("bf16", False, False), ("bf16", None, False), ("bf16", None, True)]
    _core.plan_cache.clear()


def test_element_bytes_of_every_plan_key():
    """Scratch is counted in elements of the key's storage: the arithmetic suffixes of
    ``tensorfft.bf16`` (``'bf16:f32'``, ``'bf16:tc'``) store bf16 pairs of 4 bytes."""
    assert [_core.element_bytes(p) for p in ("f16", "f32", "f64", "f32split")] == [4, 8, 16, 8]
    assert [_core.element_bytes(p) for p in ("bf16", "bf16:f32", "bf16:tc")] == [4, 4, 4]


def test_bf16_tensor_cores_argument_rules():
    """``tensorfft.bf16``'s ``tensor_cores`` is a bool and chooses the arithmetic itself; the
    library plans BF16 radix-16 stages on the tensor cores when asked (no GPU needed)."""
    from tensorfft import bf16

    assert "tensor_cores=true" in _tensorfft.plan_schedule([4096], precision="bf16",
                                                           tensor_cores=True)
    assert "tensor_cores=false" in _tensorfft.plan_schedule([4096], precision="bf16")
    # The keyword arguments are checked before the tensor.
    with pytest.raises(TypeError, match="tensor_cores must be"):
        bf16.fft(None, tensor_cores=1)
    with pytest.raises(ValueError, match="leave half_arithmetic"):
        bf16.fft2(None, tensor_cores=True, half_arithmetic=False)
    with pytest.raises(TypeError, match="PyTorch bfloat16"):
        bf16.fftn(np.zeros((4, 2), np.float32), tensor_cores=True)


def test_plan_passes_half_arithmetic_to_the_library(monkeypatch):
    """``tf.Plan(..., half_arithmetic=...)`` reaches the library plan's keyword arguments."""
    from tensorfft import _plan

    made = []

    class RecordingNative:
        @staticmethod
        def Plan(shape, **kwargs):
            made.append(kwargs)
            return object()

    monkeypatch.setattr(_plan, "native", lambda: RecordingNative)
    for h in (None, False, True):
        p = tf.Plan((1024,), "complex32", half_arithmetic=h)
        assert ("half_arithmetic" in repr(p)) == (h is not None)
    assert [k["half_arithmetic"] for k in made] == [None, False, True]
    assert all(k["precision"] == "f16" for k in made)


def test_bf16_functions_take_torch_bfloat16_pairs_only():
    assert callable(tf.bf16.fft) and set(tf.bf16.__all__) == {"fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"}
    with pytest.raises(TypeError, match="bfloat16"):
        tf.bf16.fft(np.zeros((8, 2), np.float32))
    with pytest.raises(TypeError):
        tf.bf16.fft2([[1.0, 0.0]])


class DeviceForeign:
    """A foreign array on a CUDA device (DLPack device type 2) or an OpenCL one (4)."""

    def __init__(self, kind):
        self.kind = kind

    def __dlpack__(self, *args, **kwargs):
        raise AssertionError("never viewed in these tests")

    def __dlpack_device__(self):
        return (self.kind, 0)


def test_foreign_arrays_are_viewed_and_handed_back(fake):
    from tensorfft import _foreign

    _, log = fake
    x = np.random.default_rng(3).standard_normal((4, 16)) + 0j
    got = tf.fft(DLPackOnly(x, np.from_dlpack), norm="ortho")
    assert isinstance(got, DLPackOnly)
    assert np.allclose(got.array, np.fft.fft(x, norm="ortho"))
    # No namespace: the result stays the viewing framework's array.
    got = tf.ifft2(DLPackOnly(x))
    assert isinstance(got, np.ndarray) and np.allclose(got, np.fft.ifft2(x))
    assert all(entry[4] == "host" for entry in log)
    # The view shares the producer's memory (no copy on the way in).
    adopted = _foreign.adopt(DLPackOnly(x))
    assert adopted.framework == "numpy" and np.shares_memory(adopted.array, x)
    with pytest.raises(ValueError, match="out="):
        tf.fft(DLPackOnly(x), out=np.empty_like(x))
    assert not _foreign.is_foreign(x) and _foreign.is_foreign(DLPackOnly(x))


def test_foreign_arrays_that_cannot_be_reached(monkeypatch):
    with pytest.raises(TypeError, match="device type 4"):
        tf.fft(DeviceForeign(4))
    # Device memory is viewed through PyTorch or CuPy; without both, a TypeError says so.
    monkeypatch.setitem(__import__("sys").modules, "torch", None)
    monkeypatch.setitem(__import__("sys").modules, "cupy", None)
    with pytest.raises(TypeError, match=r"PyTorch \(with CUDA\) or CuPy"):
        tf.fft(DeviceForeign(2))
    with pytest.raises(TypeError, match="through CuPy"):  # managed memory: CuPy only
        tf.fft(DeviceForeign(13))

    class Interface:
        __cuda_array_interface__ = {"shape": (8,), "typestr": "<c8", "data": (0, False), "version": 3}

    with pytest.raises(TypeError, match="or CuPy"):
        tf.fft(Interface())
    with pytest.raises(TypeError, match="DLPack or the CUDA array interface"):
        tf.fft(object())


class Measured(np.ndarray):
    """A NumPy subclass defined outside NumPy (as astropy's quantities are)."""


def test_subclasses_and_plans_of_host_arrays(fake):
    from tensorfft._arrays import framework_of

    x = (np.random.default_rng(4).standard_normal((2, 8)) + 0j).view(Measured)
    assert framework_of(x) == "numpy"  # NumPy's path, not a foreign view through DLPack
    assert np.allclose(tf.fft(x), np.fft.fft(np.asarray(x)))
    with pytest.raises(TypeError, match="CUDA arrays"):
        tf.Plan.__new__(tf.Plan)._run(DLPackOnly(np.asarray(x)), None, True)


def test_results_the_producer_cannot_take_stay_views():
    from tensorfft import _foreign

    class Half:
        dtype = "torch.complex32"

    def refuse(y):
        raise TypeError("no such dtype")

    def explode(y):
        raise ZeroDivisionError

    half = Half()
    assert _foreign._or_view(explode)(half) is half  # complex32 is never handed over
    plain = np.ones(2, np.complex64)
    assert _foreign._or_view(refuse)(plain) is plain
    with pytest.raises(ZeroDivisionError):  # real failures are not hidden
        _foreign._or_view(explode)(plain)


def test_wisdom_files_without_a_gpu(tmp_path):
    entry = {
        "key": {"device": "NVIDIA H200", "precision": "f32", "dims": [64, 64], "batch": 4,
                "asked": {}},
        "tuning": {"items_per_tile": 4},
        "ms": 0.01, "default_ms": 0.011, "rel_l2": 1e-7, "default_rel_l2": 1e-7, "plan": "",
    }
    good = tmp_path / "wisdom.json"
    good.write_text(json.dumps({"version": 1, "entries": [entry]}))
    tf.plan_cache.get("cached", lambda: 1)
    assert tf.load_wisdom(good) == 1
    assert "cached" not in tf.plan_cache  # plans made before are dropped
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "entries": [entry, entry]}))
    with pytest.raises(ValueError, match="two entries"):
        tf.load_wisdom(bad)
    bad.write_text("{")
    with pytest.raises(ValueError, match="invalid wisdom"):
        tf.load_wisdom(bad)
    with pytest.raises(ValueError, match="version"):
        bad.write_text(json.dumps({"version": 7, "entries": []}))
        tf.load_wisdom(bad)
    tf.forget_wisdom()
