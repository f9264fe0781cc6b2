"""``torch.fft``-style functions: same names, arguments, dtypes and output shapes."""

from __future__ import annotations

import sys
from math import prod
from typing import Any, Optional, Sequence, Tuple, Union

from . import _layout
from ._arrays import framework_of, ops_for
from ._cache import plan_cache
from ._core import transform
from ._foreign import call_adopted

Dims = Optional[Union[int, Sequence[int]]]

_autograd_functions: dict = {}


def autograd_c2c(run: Any) -> Any:
    """The autograd function of the transform ``run(x, dims, forward, kind)`` (defined on first
    use, so the package imports without PyTorch; one per ``run``). The adjoint of a DFT with a
    scale is the DFT of the opposite direction with the same scale (as ``torch.fft``'s own
    backward), whatever layout ``run`` takes its complex values in."""
    fn = _autograd_functions.get(run)
    if fn is None:
        torch = sys.modules["torch"]

        class C2C(torch.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any, dims: Tuple[int, ...], forward: bool, kind: str) -> Any:
                ctx.dims, ctx.direction, ctx.kind = dims, forward, kind
                return run(x, dims, forward, kind)

            @staticmethod
            def backward(ctx: Any, grad: Any) -> Any:
                return C2C.apply(grad.contiguous(), ctx.dims, not ctx.direction, ctx.kind), None, None, None

        fn = _autograd_functions[run] = C2C
    return fn


def _complex_transform(x: Any, dims: Tuple[int, ...], forward: bool, kind: str) -> Any:
    return transform(ops_for("torch"), x, dims, forward, kind)


def _resolve_dims(ndim: int, s: Optional[Sequence[int]], dim: Dims, default: Optional[Tuple[int, ...]]) -> Tuple[int, ...]:
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    if dim is None:
        if default is not None:
            dim = default
        elif s is not None:
            dim = tuple(range(ndim - len(s), ndim))
    if ndim == 0:
        raise IndexError("a transform needs at least one dimension (the input is a scalar)")
    return _layout.normalize_dims(ndim, dim)


#: Repeated calls: (shape, strides, dtype, device, dim, norm, direction, alignment) of a complex
#: PyTorch tensor -> the DirectCall that served it (cleared with the plan cache).
_fast: dict = {}
_FAST_MAX = 4096
_torch_tensor: Any = None


def _clear_fast() -> None:
    _fast.clear()


plan_cache.add_listener(_clear_fast)


def _c2c(x: Any, s: Optional[Sequence[int]], dim: Dims, norm: Optional[str], forward: bool,
         out: Any, default: Optional[Tuple[int, ...]]) -> Any:
    global _torch_tensor
    fast_key = None
    if out is None and s is None and type(x) is _torch_tensor:
        fast_key = (x.shape, x.stride(), x.dtype, x.device,
                    tuple(dim) if isinstance(dim, list) else dim, norm, forward,
                    x.data_ptr() & 15 == 0)
        call = _fast.get(fast_key)
        if call is not None and not (x.requires_grad and sys.modules["torch"].is_grad_enabled()):
            return call(x)
    framework = framework_of(x)
    if framework == "foreign":
        return call_adopted(x, out, lambda view: _c2c(view, s, dim, norm, forward, None, default))
    if framework == "numpy":
        if out is not None:
            raise ValueError("out= is not supported for NumPy inputs")
        from ._host import host_c2c

        return host_c2c(x, s, dim, norm, forward, default)
    ops = ops_for(framework)
    ops.check_device(x)
    dims = _resolve_dims(len(ops.shape(x)), s, dim, default)
    if s is not None:
        if len(s) != len(dims):
            raise ValueError(f"s has {len(s)} sizes for {len(dims)} dimensions")
    complex_input = ops.to_complex(x)
    if complex_input is not x:
        fast_key = None
    x = complex_input
    target = _layout.padded_shape(ops.shape(x), dims, s)
    if target != ops.shape(x):
        x = ops.resize(x, target)
    n = prod(target[d] for d in dims)
    kind, _ = _layout.scale_of(norm, forward, n)
    if framework == "torch":
        torch = sys.modules["torch"]
        if torch.is_grad_enabled() and x.requires_grad:
            if out is not None:
                raise RuntimeError("out= does not support automatic differentiation (as in torch.fft)")
            return autograd_c2c(_complex_transform).apply(x, dims, forward, kind)
        if _torch_tensor is None:
            _torch_tensor = torch.Tensor
        if fast_key is None and out is None and s is None and type(x) is torch.Tensor:
            fast_key = (x.shape, x.stride(), x.dtype, x.device,
                        tuple(dim) if isinstance(dim, list) else dim, norm, forward,
                        x.data_ptr() & 15 == 0)
        if fast_key is not None and plan_cache.max_size > 0:
            record: list = []
            y = transform(ops, x, dims, forward, kind, None, record)
            if record:
                if len(_fast) >= _FAST_MAX:
                    _fast.clear()
                _fast[fast_key] = record[0]
            return y
    return transform(ops, x, dims, forward, kind, out)


def fft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
        out: Any = None) -> Any:
    """One-dimensional DFT along ``dim`` (``torch.fft.fft``): ``n`` zero-pads or trims,
    ``norm`` is ``'backward'`` (default: unscaled), ``'forward'`` (1/n) or ``'ortho'``.

    >>> import torch, tensorfft as tf                                   # doctest: +SKIP
    >>> x = torch.randn(8, 4096, dtype=torch.complex64, device="cuda")  # doctest: +SKIP
    >>> torch.allclose(tf.fft(x), torch.fft.fft(x), atol=1e-3)          # doctest: +SKIP
    True
    """
    return _c2c(input, None if n is None else (n,), (dim,), norm, True, out, None)


def ifft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
         out: Any = None) -> Any:
    """One-dimensional inverse DFT along ``dim`` (``torch.fft.ifft``; ``'backward'``: 1/n).

    >>> y = tf.ifft(tf.fft(x))                                          # doctest: +SKIP
    """
    return _c2c(input, None if n is None else (n,), (dim,), norm, False, out, None)


def fft2(input: Any, s: Optional[Sequence[int]] = None, dim: Sequence[int] = (-2, -1),
         norm: Optional[str] = None, *, out: Any = None) -> Any:
    """Two-dimensional DFT over ``dim`` (``torch.fft.fft2``).

    >>> img = torch.randn(16, 512, 512, dtype=torch.complex64, device="cuda")  # doctest: +SKIP
    >>> spectrum = tf.fft2(img)                                                # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, True, out, None)


def ifft2(input: Any, s: Optional[Sequence[int]] = None, dim: Sequence[int] = (-2, -1),
          norm: Optional[str] = None, *, out: Any = None) -> Any:
    """Two-dimensional inverse DFT over ``dim`` (``torch.fft.ifft2``).

    >>> img2 = tf.ifft2(tf.fft2(img))                                   # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, False, out, None)


def fftn(input: Any, s: Optional[Sequence[int]] = None, dim: Dims = None,
         norm: Optional[str] = None, *, out: Any = None) -> Any:
    """N-dimensional DFT over ``dim`` (``torch.fft.fftn``: every axis when ``dim`` and ``s``
    are ``None``, the last ``len(s)`` axes when only ``s`` is given).

    >>> vol = torch.randn(128, 128, 128, dtype=torch.complex64, device="cuda")  # doctest: +SKIP
    >>> spectrum = tf.fftn(vol)                                                 # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, True, out, None)


def ifftn(input: Any, s: Optional[Sequence[int]] = None, dim: Dims = None,
          norm: Optional[str] = None, *, out: Any = None) -> Any:
    """N-dimensional inverse DFT over ``dim`` (``torch.fft.ifftn``).

    >>> vol2 = tf.ifftn(tf.fftn(vol))                                   # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, False, out, None)
