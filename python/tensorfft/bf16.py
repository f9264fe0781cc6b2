"""Complex bfloat16 transforms on PyTorch tensors of real bfloat16 pairs.

PyTorch has no complex bfloat16 dtype, so a complex bf16 array is held as a real ``bfloat16``
tensor whose last axis has size 2 (real, imaginary), the layout of ``torch.view_as_real``. The
functions here take and return that layout; ``dim`` and ``s`` refer to the complex axes (the
trailing 2 is not one of them). The library stores bf16 (``Precision::BF16``) and computes in
packed bf16x2 arithmetic where the kernels allow it (single passes of 128 and more, strided passes
on pairs of neighbouring items; 98-99% of a device copy up to 8192 on an H200): relative errors
about 5e-3 to 1.2e-2, a few bf16 ulps. ``half_arithmetic=False`` computes in f32 instead: errors
of 1.7-4e-3 (near the rounding of the output to bf16) at up to about twice the time (``None``, the
default, or ``True``: the library's choice). ``tensor_cores=True`` (with ``half_arithmetic``
left at ``None``) runs the radix-16 stages of contiguous single passes (a 1D transform, or the
last axis of a 2D / 3D one) of 256 to 16384 points as bf16 products on the
tensor cores with f32 accumulation (``mma.sync``; everything else in f32, strided passes too):
errors between the two (2.8-3.5e-3 for one pass on an H200), at 96% of a device copy for 256
and 512 points, 75% at 4096 and 58% at 8192 (faster than f32 arithmetic there, slower than
the default). No other FFT library
offers bf16: the data of bf16 models (FFT convolutions, neural operators) go in without a cast.

The pairs are viewed as one 4-byte element each (no copy) when the last axis is contiguous and
every other stride is even; otherwise they are copied first. Autograd works as for the complex
functions (the adjoint of a scaled DFT is the opposite DFT with the same scale).

>>> import torch, tensorfft as tf                                            # doctest: +SKIP
>>> x = torch.randn(8, 4096, 2, device="cuda").to(torch.bfloat16)             # doctest: +SKIP
>>> y = tf.bf16.fft(x)                        # (8, 4096, 2) bfloat16 pairs   # doctest: +SKIP
>>> ref = torch.fft.fft(torch.view_as_complex(x.float()))                     # doctest: +SKIP
>>> rel = (torch.view_as_complex(y.float()) - ref).norm() / ref.norm()       # doctest: +SKIP
>>> bool(rel < 1e-2)                                                          # doctest: +SKIP
True
"""

from __future__ import annotations

import sys
from math import prod
from typing import Any, Optional, Sequence, Tuple

from . import _layout
from ._arrays import framework_of, ops_for
from ._core import transform
from ._functions import Dims, _resolve_dims, autograd_c2c

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"]


def _check_pairs(x: Any) -> Any:
    """``torch`` for a CUDA bfloat16 tensor of pairs, else the matching exception."""
    framework = framework_of(x)
    if framework != "torch":
        raise TypeError(
            "tensorfft.bf16 takes PyTorch bfloat16 tensors of (real, imaginary) pairs "
            f"(CuPy and NumPy have no bfloat16); got a {type(x).__name__}"
        )
    torch = sys.modules["torch"]
    if x.dtype != torch.bfloat16:
        raise TypeError(f"tensorfft.bf16 takes bfloat16 tensors, got {x.dtype} "
                        "(complex tensors go to tensorfft.fft and friends)")
    if x.dim() < 2 or x.shape[-1] != 2:
        raise ValueError(f"expected a last axis of 2 (real, imaginary), got shape {tuple(x.shape)}")
    ops_for("torch").check_device(x)
    return torch


def packable(x: Any) -> bool:
    """Whether ``x``'s pairs can be viewed as 4-byte elements: a contiguous last axis, an even
    storage offset and even strides on every other axis (size-1 axes included, as
    ``Tensor.view(dtype)`` checks them)."""
    return x.stride(-1) == 1 and x.storage_offset() % 2 == 0 and all(s % 2 == 0 for s in x.stride()[:-1])


def pack(x: Any) -> Any:
    """The pairs of ``x`` (``bfloat16``, last axis 2) as one ``int32`` element each: a view
    when :func:`packable`, else a view of a fresh contiguous copy (``contiguous()`` would keep
    an odd storage offset or an odd stride on a size-1 axis)."""
    torch = sys.modules["torch"]
    if not packable(x):
        x = x.clone(memory_format=torch.contiguous_format)
    return x.view(torch.int32).squeeze(-1)


def unpack(p: Any) -> Any:
    """The inverse of :func:`pack`: ``int32`` elements as ``bfloat16`` pairs (a view)."""
    torch = sys.modules["torch"]
    return p.unsqueeze(-1).view(torch.bfloat16)


def _resize_pairs(torch: Any, x: Any, target: Tuple[int, ...]) -> Any:
    """Trims (a view) or zero-pads each complex axis of pairs ``x`` to ``target``, with
    differentiable operations (``narrow``, ``pad``) so autograd sees through it."""
    y = x
    for d, n in enumerate(target):
        if y.shape[d] > n:
            y = y.narrow(d, 0, n)
    if tuple(y.shape[:-1]) == tuple(target):
        return y
    pad = [0, 0]  # the pair axis, then the complex axes from the last one back
    for d in reversed(range(len(target))):
        pad += [0, target[d] - y.shape[d]]
    return torch.nn.functional.pad(y, pad)


def _run(x: Any, dims: Tuple[int, ...], forward: bool, kind: str, out: Any = None,
         precision: str = "bf16") -> Any:
    ops = ops_for("torch")
    packed_out = None
    if out is not None:
        _check_pairs(out)
        if not packable(out):
            raise ValueError("out must have a contiguous last axis, an even storage offset and even "
                             "strides (it is written in place)")
        packed_out = pack(out)
    y = transform(ops, pack(x), dims, forward, kind, packed_out, precision=precision)
    return out if out is not None else unpack(y)


def _run_f32(x: Any, dims: Tuple[int, ...], forward: bool, kind: str, out: Any = None) -> Any:
    """:func:`_run` in f32 arithmetic (``half_arithmetic=False``)."""
    return _run(x, dims, forward, kind, out, precision="bf16:f32")


def _run_tensor_cores(x: Any, dims: Tuple[int, ...], forward: bool, kind: str, out: Any = None) -> Any:
    """:func:`_run` with radix-16 stages on the tensor cores (``tensor_cores=True``)."""
    return _run(x, dims, forward, kind, out, precision="bf16:tc")


def _c2c(x: Any, s: Optional[Sequence[int]], dim: Dims, norm: Optional[str], forward: bool,
         out: Any, default: Optional[Tuple[int, ...]], half_arithmetic: Optional[bool],
         tensor_cores: bool = False) -> Any:
    if half_arithmetic is not None and not isinstance(half_arithmetic, bool):
        raise TypeError(f"half_arithmetic must be None, True or False, got {half_arithmetic!r}")
    if not isinstance(tensor_cores, bool):
        raise TypeError(f"tensor_cores must be True or False, got {tensor_cores!r}")
    if tensor_cores and half_arithmetic is not None:
        raise ValueError("tensor_cores=True chooses the arithmetic (bf16 products on the tensor "
                         "cores, f32 elsewhere): leave half_arithmetic at None")
    run = _run_tensor_cores if tensor_cores else _run_f32 if half_arithmetic is False else _run
    torch = _check_pairs(x)
    complex_shape = tuple(x.shape[:-1])
    dims = _resolve_dims(len(complex_shape), s, dim, default)
    if s is not None and len(s) != len(dims):
        raise ValueError(f"s has {len(s)} sizes for {len(dims)} dimensions")
    target = _layout.padded_shape(complex_shape, dims, s)
    if target != complex_shape:
        x = _resize_pairs(torch, x, target)
    n = prod(target[d] for d in dims)
    kind, _ = _layout.scale_of(norm, forward, n)
    if torch.is_grad_enabled() and x.requires_grad:
        if out is not None:
            raise RuntimeError("out= does not support automatic differentiation (as in torch.fft)")
        return autograd_c2c(run).apply(x, dims, forward, kind)
    return run(x, dims, forward, kind, out)


def fft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
        out: Any = None, half_arithmetic: Optional[bool] = None, tensor_cores: bool = False) -> Any:
    """One-dimensional DFT along complex axis ``dim`` of bfloat16 pairs (as
    ``tensorfft.fft``).

    >>> y = tf.bf16.fft(x, norm="ortho")                                # doctest: +SKIP
    """
    return _c2c(input, None if n is None else (n,), (dim,), norm, True, out, None, half_arithmetic, tensor_cores)


def ifft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
         out: Any = None, half_arithmetic: Optional[bool] = None, tensor_cores: bool = False) -> Any:
    """One-dimensional inverse DFT of bfloat16 pairs (``'backward'``: 1/n).

    >>> x2 = tf.bf16.ifft(tf.bf16.fft(x))                               # doctest: +SKIP
    """
    return _c2c(input, None if n is None else (n,), (dim,), norm, False, out, None, half_arithmetic, tensor_cores)


def fft2(input: Any, s: Optional[Sequence[int]] = None, dim: Sequence[int] = (-2, -1),
         norm: Optional[str] = None, *, out: Any = None,
         half_arithmetic: Optional[bool] = None, tensor_cores: bool = False) -> Any:
    """Two-dimensional DFT over complex axes ``dim`` of bfloat16 pairs.

    >>> img = torch.randn(16, 256, 256, 2, device="cuda").to(torch.bfloat16)  # doctest: +SKIP
    >>> spectrum = tf.bf16.fft2(img)                                          # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, True, out, None, half_arithmetic, tensor_cores)


def ifft2(input: Any, s: Optional[Sequence[int]] = None, dim: Sequence[int] = (-2, -1),
          norm: Optional[str] = None, *, out: Any = None,
          half_arithmetic: Optional[bool] = None, tensor_cores: bool = False) -> Any:
    """Two-dimensional inverse DFT of bfloat16 pairs.

    >>> img2 = tf.bf16.ifft2(tf.bf16.fft2(img))                         # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, False, out, None, half_arithmetic, tensor_cores)


def fftn(input: Any, s: Optional[Sequence[int]] = None, dim: Dims = None,
         norm: Optional[str] = None, *, out: Any = None,
         half_arithmetic: Optional[bool] = None, tensor_cores: bool = False) -> Any:
    """N-dimensional DFT of bfloat16 pairs (every complex axis when ``dim`` and ``s`` are
    ``None``).

    >>> vol = torch.randn(64, 64, 64, 2, device="cuda").to(torch.bfloat16)   # doctest: +SKIP
    >>> spectrum = tf.bf16.fftn(vol)                                         # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, True, out, None, half_arithmetic, tensor_cores)


def ifftn(input: Any, s: Optional[Sequence[int]] = None, dim: Dims = None,
          norm: Optional[str] = None, *, out: Any = None,
          half_arithmetic: Optional[bool] = None, tensor_cores: bool = False) -> Any:
    """N-dimensional inverse DFT of bfloat16 pairs.

    >>> vol2 = tf.bf16.ifftn(tf.bf16.fftn(vol))                         # doctest: +SKIP
    """
    return _c2c(input, s, dim, norm, False, out, None, half_arithmetic, tensor_cores)
