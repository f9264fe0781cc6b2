"""Number theoretic transforms on PyTorch / CuPy GPU tensors of 32- or 64-bit words (and NumPy
arrays through an upload): the library's GPU NTT, bit for bit.

A batch holds ``batch`` transforms of ``n`` words per RNS limb, one modulus per limb; transform
``t`` uses limb ``t mod len(moduli)``, so a contiguous tensor of shape ``(batch, limbs, n)`` is
one batch (``interleaved=True``: a row-major ``(n, transforms)`` matrix, every transform down a
column, as ZK traces are kept). Words are ``uint32`` / ``int32`` (every prime below 2^32; an
``int32`` word at or above 2^31 reads as negative, its bits are the value) or
``uint64`` / ``int64`` (primes below 2^63, Goldilocks); values must lie in ``[0, p)`` (the
NumPy path checks it; on the GPU it is a precondition).

>>> from tensorfft import ntt
>>> ntt.BABY_BEAR, ntt.GOLDILOCKS
(2013265921, 18446744069414584321)
>>> len(ntt.friendly_primes(50, 1 << 12, 3))
3
"""

from __future__ import annotations

from math import prod
from typing import Any, Optional, Sequence, Union

from . import _layout
from ._arrays import dtype_name, framework_of, ops_for
from ._cache import plan_cache
from ._core import native
from ._foreign import adopt, call_adopted

__all__ = ["NttPlan", "forward", "inverse", "friendly_primes",
           "BABY_BEAR", "KOALA_BEAR", "GOLDILOCKS", "FHE_62", "PRIME_32"]


def _constant(name: str, value: int) -> int:
    try:
        return getattr(native(), name)
    except ImportError:  # pragma: no cover - only without the compiled module
        return value


BABY_BEAR: int = _constant("BABY_BEAR", 2013265921)
KOALA_BEAR: int = _constant("KOALA_BEAR", 2130706433)
GOLDILOCKS: int = _constant("GOLDILOCKS", 18446744069414584321)
FHE_62: int = _constant("FHE_62", 4611686018427365377)
#: 3·2^30 + 1: a prime above 2^31 for uint32 words.
PRIME_32: int = _constant("PRIME_32", 3221225473)

_WORD_OF = {"uint32": "uint32", "int32": "uint32", "uint64": "uint64", "int64": "uint64"}


def friendly_primes(bits: int, n: int, count: int) -> list:
    """``count`` primes ``p ≡ 1 (mod 2n)`` of ``bits`` bits, largest first (FHE limbs).

    >>> all(p % (2 * 4096) == 1 for p in friendly_primes(40, 4096, 2))
    True
    """
    return native().ntt_friendly_primes(bits, n, count)


def _moduli(moduli: Union[int, Sequence[int]]) -> list:
    if isinstance(moduli, int) and not isinstance(moduli, bool):
        return [moduli]
    out = list(moduli)
    if not out or not all(isinstance(p, int) and not isinstance(p, bool) for p in out):
        raise ValueError(f"moduli must be an integer or a non-empty sequence of integers, got {moduli!r}")
    return out


class NttPlan:
    """An NTT batch planned once: ``batch`` transforms of ``n`` words per limb of ``moduli``,
    ``kind`` ``'cyclic'`` or ``'negacyclic'``, orders ``'natural'`` or ``'bit_reversed'``, the
    inverse scaled by 1/n unless ``scale_inverse=False``; ``word`` ``'uint32'`` or ``'uint64'``
    (default: ``'uint32'`` when every modulus is below 2^31, else ``'uint64'``; ``'uint32'`` takes
    primes up to 2^32). ``coset=g`` (``0 < g < 2^64``, taken modulo each prime): the transforms
    on the coset ``g·H`` (ZK low-degree extensions): the forward transform evaluates at ``g·ω^k``
    (negacyclic: ``g·ψ·ω^k``; its inputs weighted by ``(gψ)^j`` inside the first pass), the
    inverse interpolates back.

    >>> import torch                                                        # doctest: +SKIP
    >>> plan = NttPlan(BABY_BEAR, 1 << 20, batch=64, output_order="bit_reversed")  # doctest: +SKIP
    >>> x = torch.randint(0, BABY_BEAR, (64, 1 << 20), device="cuda").to(torch.uint32)  # doctest: +SKIP
    >>> y = plan.forward(x)                                                 # doctest: +SKIP
    >>> assert torch.equal(plan.inverse(y), x)                              # doctest: +SKIP
    """

    def __init__(self, moduli: Union[int, Sequence[int]], n: int, *, kind: str = "cyclic",
                 batch: int = 1, input_order: str = "natural", output_order: str = "natural",
                 scale_inverse: bool = True, interleaved: bool = False,
                 word: Optional[str] = None, device: int = 0, coset: Optional[int] = None) -> None:
        self.moduli = _moduli(moduli)
        self.n = n
        self.coset = coset
        self._plan = native().NttPlan(self.moduli, n, kind=kind, batch=batch, input_order=input_order,
                                      output_order=output_order, scale_inverse=scale_inverse,
                                      interleaved=interleaved, word=word, device=device, coset=coset)
        self.device = device
        self.word = f"uint{8 * self._plan.word_bytes}"
        self._len = self._plan.len

    def __len__(self) -> int:
        """Words of the whole batch."""
        return self._plan.len

    @property
    def schedule(self) -> str:
        """The forward and inverse schedules of passes."""
        return self._plan.schedule

    def forward(self, x: Any, out: Any = None, *, times: Any = None) -> Any:
        """The forward NTT of ``x`` (contiguous, ``len(plan)`` words) into ``out`` (new when
        ``None``; ``x`` itself: in place). With ``times``, the forward NTT of ``x * times`` (word
        by word modulo each word's limb, as ``multiply``), the product taken as the transform
        reads ``x``: one trip over device memory fewer than ``forward(multiply(x, times))``
        (for a coset, ``NttPlan(..., coset=g)`` needs no ``times``). ``out`` may be
        ``x``, and ``times`` only when ``x`` is ``times`` too (a square in place)."""
        if times is not None:
            return self._product(x, times, out, True)
        return self._run(x, out, True)

    def inverse(self, x: Any, out: Any = None, *, times: Any = None) -> Any:
        """The inverse NTT (scaled by 1/n unless the plan says otherwise). With ``times``, the
        inverse NTT of ``x * times`` in one trip over device memory fewer than
        ``inverse(multiply(x, times))``: the last step of a polynomial product.

        >>> plan = NttPlan(BABY_BEAR, 1 << 10, kind="negacyclic", output_order="bit_reversed")  # doctest: +SKIP
        >>> c = plan.inverse(plan.forward(a), times=plan.forward(b))  # a * b mod X^1024 + 1  # doctest: +SKIP
        """
        if times is not None:
            return self._product(x, times, out, False)
        return self._run(x, out, False)

    def multiply(self, a: Any, b: Any, out: Any = None) -> Any:
        """``a * b`` word by word modulo each word's limb, on the GPU: the step between the
        forward NTTs of two polynomials and the inverse NTT of their product (cyclic or
        negacyclic as the plan is; both factors in the forward output's order). ``a`` and ``b``
        as ``forward`` takes them, of one framework; into ``out`` (new when ``None``; ``a`` or
        ``b`` itself: in place). NumPy arrays: checked (values below their modulus), uploaded,
        multiplied, downloaded. ``inverse(a, times=b)`` fuses the product into the inverse.

        >>> plan = NttPlan(BABY_BEAR, 1 << 10, kind="negacyclic", output_order="bit_reversed")  # doctest: +SKIP
        >>> c = plan.inverse(plan.multiply(plan.forward(a), plan.forward(b)))  # a * b mod X^1024 + 1  # doctest: +SKIP
        """
        return self._binary("multiply", a, b, out, self._plan.pointwise_raw, self._plan.pointwise_host)

    def _product(self, a: Any, b: Any, out: Any, forward: bool) -> Any:
        """The NTT of ``a * b`` in direction ``forward`` (``forward`` / ``inverse`` with
        ``times``)."""
        if out is not None and out is b and a is not b:
            raise ValueError("out may be x, not times: the transform reads times until its first pass ends")
        return self._binary(
            "forward" if forward else "inverse", a, b, out,
            lambda pa, pb, po, stream: self._plan.product_raw(forward, pa, pb, po, stream),
            lambda la, lb: self._plan.product_host(forward, la, lb))

    def _binary(self, name: str, a: Any, b: Any, out: Any, raw: Any, host: Any) -> Any:
        """``raw((a), (b), (out), stream)`` on device tensors (``(address, words)`` each) or
        ``host(a_bytes, b_bytes)`` on NumPy arrays, with the checks both share."""
        framework = framework_of(a)
        if framework_of(b) != framework or (out is not None and framework_of(out) != framework):
            kinds = ", ".join(type(t).__name__ for t in (a, b, out) if t is not None)
            raise TypeError(f"{name} takes arrays of one kind, got {kinds}")
        if framework == "foreign":
            other = adopt(b).array
            return call_adopted(a, out, lambda view: self._binary(name, view, other, None, raw, host))
        if framework == "numpy":
            import numpy as np

            xs = [np.asarray(t) for t in (a, b)]
            for t in xs:
                if _WORD_OF.get(t.dtype.name) != self.word:
                    raise TypeError(f"the plan takes {self.word} words, the array is {t.dtype}")
                if t.size != len(self):
                    raise ValueError(f"the plan takes {len(self)} words, the array holds {t.size}")
            le = [np.ascontiguousarray(t).astype(t.dtype.newbyteorder("<")).tobytes() for t in xs]
            y = np.frombuffer(host(le[0], le[1]), dtype=xs[0].dtype).reshape(xs[0].shape).copy()
            if out is not None:
                if _WORD_OF.get(out.dtype.name) != self.word or out.size != y.size:
                    raise TypeError(f"out must hold {len(self)} {self.word} words, it is {out.dtype} of {out.size}")
                out[...] = y.reshape(out.shape)
                return out
            return y
        ops = ops_for(framework)
        device = ops.check_device(a)
        for t in (a, b) if out is None else (a, b, out):
            if ops.check_device(t) != self.device:
                raise ValueError(f"the plan is for device {self.device}, a tensor is on {ops.check_device(t)}")
            self._check(ops, t)
        if out is None:
            out = ops.empty(a, ops.shape(a))
        n = len(self)
        raw((ops.ptr(a), n), (ops.ptr(b), n), (ops.ptr(out), n), ops.stream(device))
        return out

    def _run(self, x: Any, out: Any, forward: bool) -> Any:
        framework = framework_of(x)
        if framework == "foreign":
            return call_adopted(x, out, lambda view: self._run(view, None, forward))
        if framework == "numpy":
            return self._host(x, out, forward)
        ops = ops_for(framework)
        device = ops.check_device(x)
        if device != self.device:
            raise ValueError(f"the plan is for device {self.device}, the tensor on {device}")
        for t in (x,) if out is None else (x, out):
            self._check(ops, t)
        if out is None:
            out = ops.empty(x, ops.shape(x))
        n = len(self)
        self._plan.execute_raw(forward, (ops.ptr(x), n), (ops.ptr(out), n), ops.stream(device))
        return out

    def _run_fast(self, x: Any, forward: bool) -> Any:
        """A call whose tensor matches the one that first used this plan through the functions
        (same shape, dtype and device; contiguous and aligned, checked by the caller)."""
        ops = ops_for("torch")
        out = ops.empty(x, x.shape)
        n = self._len
        self._plan.execute_raw(forward, (x.data_ptr(), n), (out.data_ptr(), n), ops.stream(self.device))
        return out

    def _check(self, ops: Any, t: Any) -> None:
        name = dtype_name(t)
        if _WORD_OF.get(name) != self.word:
            raise TypeError(f"the plan takes {self.word} words (or the signed type of that size), the tensor is {t.dtype}")
        shape = ops.shape(t)
        if prod(shape) != len(self):
            raise ValueError(f"the plan transforms {len(self)} words, the tensor holds {prod(shape)}")
        if ops.strides(t) != _layout.contiguous_strides(shape):
            raise ValueError("NTT plans take contiguous tensors (call .contiguous())")
        if ops.ptr(t) % 16:
            raise ValueError("NTT plans take 16-byte aligned tensors (clone the view)")

    def _host(self, x: Any, out: Any, forward: bool) -> Any:
        import numpy as np

        x = np.asarray(x)
        if _WORD_OF.get(x.dtype.name) != self.word:
            raise TypeError(f"the plan takes {self.word} words, the array is {x.dtype}")
        if x.size != len(self):
            raise ValueError(f"the plan transforms {len(self)} words, the array holds {x.size}")
        raw = self._plan.execute_host(forward, np.ascontiguousarray(x).astype(x.dtype.newbyteorder("<")).tobytes())
        y = np.frombuffer(raw, dtype=x.dtype).reshape(x.shape).copy()
        if out is not None:
            out[...] = y
            return out
        return y

    def __repr__(self) -> str:
        return repr(self._plan).replace("NttPlan(", "tensorfft.ntt.NttPlan(", 1)


def _cached(x: Any, moduli: Union[int, Sequence[int]], kind: str, input_order: str,
            output_order: str, scale_inverse: bool) -> NttPlan:
    framework = framework_of(x)
    shape = tuple(x.shape)
    if not shape:
        raise IndexError("an NTT needs at least one dimension (the input is a scalar)")
    mods = _moduli(moduli)
    n = shape[-1]
    transforms = prod(shape[:-1])
    if transforms % len(mods):
        raise ValueError(f"{transforms} transforms are not a whole number of {len(mods)} limbs")
    name = dtype_name(x) if framework != "numpy" else x.dtype.name
    word = _WORD_OF.get(name)
    if word is None:
        raise TypeError(f"NTT words are uint32, int32, uint64 or int64, not {x.dtype}")
    device = ops_for(framework).check_device(x) if framework != "numpy" else 0
    key = ("ntt", device, tuple(mods), n, kind, transforms // len(mods), input_order, output_order,
           scale_inverse, word)
    return plan_cache.get(key, lambda: NttPlan(mods, n, kind=kind, batch=transforms // len(mods),
                                               input_order=input_order, output_order=output_order,
                                               scale_inverse=scale_inverse, word=word, device=device))


#: Repeated function calls on contiguous, 16-byte aligned PyTorch tensors: (shape, dtype, device,
#: moduli, kind, orders, scaling) -> the plan that served the first one (cleared with the cache).
_fast: dict = {}
plan_cache.add_listener(_fast.clear)


def _fast_key(x: Any, moduli: Union[int, Sequence[int]], kind: str, input_order: str,
              output_order: str, scale: bool) -> Any:
    if type(x).__module__ != "torch" or not x.is_contiguous() or x.data_ptr() & 15:
        return None
    mods = moduli if isinstance(moduli, int) else tuple(moduli)
    return (x.shape, x.dtype, x.device, mods, kind, input_order, output_order, scale)


def _apply(x: Any, moduli: Union[int, Sequence[int]], kind: str, input_order: str,
           output_order: str, scale: bool, forward: bool) -> Any:
    if framework_of(x) == "foreign":
        return call_adopted(x, None, lambda view: _apply(view, moduli, kind, input_order,
                                                         output_order, scale, forward))
    key = _fast_key(x, moduli, kind, input_order, output_order, scale)
    plan = _fast.get(key) if key is not None else None
    if plan is not None:
        return plan._run_fast(x, forward)
    x = _contiguous(x)
    plan = _cached(x, moduli, kind, input_order, output_order, scale)
    if key is not None and plan_cache.max_size > 0:
        _fast[key] = plan
    return plan.forward(x) if forward else plan.inverse(x)


def _contiguous(x: Any) -> Any:
    framework = framework_of(x)
    if framework == "numpy":
        return x
    ops = ops_for(framework)
    if ops.strides(x) != _layout.contiguous_strides(ops.shape(x)) or ops.ptr(x) % 16:
        return ops.copy_contiguous(x)
    return x


def forward(x: Any, moduli: Union[int, Sequence[int]], *, kind: str = "cyclic",
            input_order: str = "natural", output_order: str = "natural") -> Any:
    """The forward NTT along the last axis of ``x`` (transform ``t`` of the flattened leading
    axes uses limb ``t mod len(moduli)``), with a cached plan.

    >>> import torch                                                          # doctest: +SKIP
    >>> x = torch.randint(0, BABY_BEAR, (3, 1024), device="cuda")            # doctest: +SKIP
    >>> y = forward(x, BABY_BEAR, kind="negacyclic")                          # doctest: +SKIP
    """
    return _apply(x, moduli, kind, input_order, output_order, True, True)


def inverse(x: Any, moduli: Union[int, Sequence[int]], *, kind: str = "cyclic",
            input_order: str = "natural", output_order: str = "natural",
            scale: bool = True) -> Any:
    """The inverse of :func:`forward` with the same moduli, kind and orders (so it reads
    ``output_order`` and writes ``input_order``), scaled by 1/n unless ``scale=False``:
    ``inverse(forward(x, p), p)`` is ``x``.

    >>> z = inverse(y, BABY_BEAR, kind="negacyclic")                          # doctest: +SKIP
    """
    return _apply(x, moduli, kind, input_order, output_order, scale, False)
