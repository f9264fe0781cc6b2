"""tensorfft: fast Fourier transforms on NVIDIA GPUs, as a drop-in for ``torch.fft``.

>>> import torch, tensorfft as tf                                   # doctest: +SKIP
>>> x = torch.randn(64, 4096, dtype=torch.complex64, device="cuda") # doctest: +SKIP
>>> y = tf.fft(x)   # as torch.fft.fft, on the current stream  # doctest: +SKIP
>>> x2 = tf.ifft(y)  # 1/n scaled, as torch.fft.ifft           # doctest: +SKIP

Functions take PyTorch CUDA tensors (complex32 / ``torch.chalf``, complex64, complex128; real
inputs are promoted as ``torch.fft`` does) and CuPy arrays without a copy, wherever the
transformed axes map onto one plan's layout, and NumPy arrays through an upload / download.
Other frameworks' arrays (JAX, Numba: DLPack or the CUDA array interface) are viewed without a
copy and their results handed back in their own kind where the producer has a ``from_dlpack``.
Gradients flow through every function. Plans are cached (``plan_cache``). Complex bfloat16
(real bfloat16 tensors of pairs): :mod:`tensorfft.bf16`. Number theoretic transforms:
:mod:`tensorfft.ntt`.
"""

from __future__ import annotations

import os
from typing import Tuple

from . import bf16, ntt
from ._cache import PlanCache, plan_cache
from ._functions import fft, fft2, fftn, ifft, ifft2, ifftn
from ._plan import Plan

__all__ = [
    "fft",
    "ifft",
    "fft2",
    "ifft2",
    "fftn",
    "ifftn",
    "Plan",
    "bf16",
    "ntt",
    "PlanCache",
    "plan_cache",
    "is_available",
    "gpu_status",
    "load_wisdom",
    "forget_wisdom",
    "__version__",
]


def _version() -> str:
    try:
        from ._tensorfft import __version__ as v

        return v
    except ImportError:  # pragma: no cover - only without the compiled module
        return "unknown"


__version__ = _version()


def gpu_status(device: int = 0) -> Tuple[bool, str]:
    """``(True, '')`` when ``device`` can run transforms (CUDA driver, device and NVRTC present),
    else ``(False, why)``.

    >>> ok, why = gpu_status()
    >>> isinstance(ok, bool) and isinstance(why, str)
    True
    """
    from ._tensorfft import gpu_status as status

    return status(device)


def is_available(device: int = 0) -> bool:
    """Whether ``device`` can run transforms (see :func:`gpu_status` for why not).

    >>> isinstance(is_available(), bool)
    True
    """
    return gpu_status(device)[0]


def load_wisdom(path: "str | os.PathLike[str]") -> int:
    """Makes later plans consult the wisdom file at ``path`` (written by ``tfft tune`` on this
    kind of device: per device name, precision, shape, batch and asked options, the tuning that
    ran fastest at the default's accuracy) and returns how many entries it holds. Plans cached
    before are dropped (``plan_cache.clear()``) so that the next calls plan again. A file that
    cannot be read or parsed raises ``ValueError`` and changes nothing.

    >>> load_wisdom("/nonexistent/wisdom.json")
    Traceback (most recent call last):
    ...
    ValueError: invalid wisdom: /nonexistent/wisdom.json: No such file or directory (os error 2)
    """
    from ._tensorfft import set_wisdom

    count = set_wisdom(os.fspath(path))
    plan_cache.clear()
    return count


def forget_wisdom() -> None:
    """Makes later plans ignore any loaded wisdom (the planner's defaults) and drops cached plans.

    >>> forget_wisdom()
    """
    from ._tensorfft import set_wisdom

    set_wisdom(None)
    plan_cache.clear()
