"""Arrays of other frameworks: anything that speaks DLPack (``__dlpack__``, e.g. JAX) or the
CUDA array interface (``__cuda_array_interface__``, e.g. Numba). Such an array is viewed without
a copy as an array of a framework the package runs on — a PyTorch tensor, else a CuPy array
(device memory), or a NumPy array (host memory, the upload path) — transformed as that one, and
handed back in the producer's kind where the producer says how to take one: through its array
namespace's ``from_dlpack`` (the array API standard, e.g. ``jax.numpy``), or Numba's
``cuda.as_cuda_array``. Otherwise the result is the viewing framework's array.

DLPack carries the stream contract: the view is made with ``from_dlpack`` of the viewing
framework, which asks the producer to order its pending work before the consumer's current
stream. The CUDA array interface's consumers (``torch.as_tensor``, ``cupy.asarray``) follow
its ``stream`` entry in the same way.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, NamedTuple

#: DLPack device types (dlpack.h): host memory, CUDA device memory, pinned host, managed.
KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_CUDA_MANAGED = 1, 2, 3, 13

_NATIVE = ("torch", "cupy", "numpy")


class Adopted(NamedTuple):
    """A foreign array viewed by a framework the package runs on."""

    #: The view (same memory): a PyTorch tensor, a CuPy array or a NumPy array.
    array: Any
    #: ``'torch'``, ``'cupy'`` or ``'numpy'``.
    framework: str
    #: Hands a result (an array of ``framework``) back in the producer's kind.
    back: Callable[[Any], Any]


def is_foreign(x: Any) -> bool:
    """Whether ``x`` is another framework's array that DLPack or the CUDA array interface can
    view (PyTorch, CuPy and NumPy arrays are not foreign)."""
    if type(x).__module__.split(".")[0] in _NATIVE:
        return False
    return (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")) or hasattr(
        x, "__cuda_array_interface__")


def _device_framework(x: Any) -> Any:
    """The module that views device memory: PyTorch if it is importable, else CuPy."""
    for name in ("torch", "cupy"):
        module = sys.modules.get(name)
        if module is not None:
            return module
    for name in ("torch", "cupy"):
        try:
            return __import__(name)
        except ImportError:
            continue
    raise TypeError(f"{type(x).__name__} arrays on the GPU are taken through PyTorch or CuPy, and "
                    "neither is installed (pip install torch, or cupy-cuda13x)")


def _identity(y: Any) -> Any:
    return y


def _namespace_back(x: Any) -> Callable[[Any], Any]:
    """``from_dlpack`` of the producer's array namespace (array API standard), if it has one."""
    get = getattr(x, "__array_namespace__", None)
    if get is None:
        return _identity
    try:
        namespace = get()
    except Exception:  # a namespace that cannot be had: results stay in the viewing framework
        return _identity
    take = getattr(namespace, "from_dlpack", None)
    return take if callable(take) else _identity


def _numba_back(x: Any) -> Callable[[Any], Any]:
    if type(x).__module__.split(".")[0] != "numba":
        return _identity
    cuda = sys.modules.get("numba.cuda")
    return cuda.as_cuda_array if cuda is not None else _identity


def adopt(x: Any) -> Adopted:
    """Views foreign array ``x`` without a copy (``TypeError`` for memory no framework here can
    reach, or when PyTorch and CuPy are both missing for device memory)."""
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        kind = int(x.__dlpack_device__()[0])
        if kind == KDL_CPU:
            import numpy as np

            return Adopted(np.from_dlpack(x), "numpy", _namespace_back(x))
        if kind in (KDL_CUDA, KDL_CUDA_MANAGED):
            module = _device_framework(x)
            return Adopted(module.from_dlpack(x), module.__name__, _namespace_back(x))
        raise TypeError(f"{type(x).__name__} lives on DLPack device type {kind}; tensorfft takes "
                        "CUDA device memory (or host memory through the NumPy path)")
    if hasattr(x, "__cuda_array_interface__"):
        module = _device_framework(x)
        view = module.as_tensor(x) if module.__name__ == "torch" else module.asarray(x)
        return Adopted(view, module.__name__, _numba_back(x))
    raise TypeError(f"{type(x).__name__} speaks neither DLPack nor the CUDA array interface")


def call_adopted(x: Any, out: Any, run: Callable[[Any], Any]) -> Any:
    """``run`` on the view of foreign ``x``, its result handed back in ``x``'s kind. ``out=``
    is refused for foreign arrays: some producers (JAX) treat their buffers as immutable."""
    if out is not None:
        raise ValueError(f"out= takes PyTorch, CuPy or NumPy arrays; for {type(x).__name__} "
                         "inputs the result comes back as a new array")
    adopted = adopt(x)
    return adopted.back(run(adopted.array))
