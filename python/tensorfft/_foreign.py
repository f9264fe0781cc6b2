"""Arrays of other frameworks: anything that speaks DLPack (``__dlpack__``, e.g. JAX) or the
CUDA array interface (``__cuda_array_interface__``, e.g. Numba). Such an array is viewed without
a copy as an array of a framework the package runs on — a PyTorch tensor, else a CuPy array
(device memory), or a NumPy array (host memory, the upload path) — transformed as that one, and
handed back in the producer's kind where the producer says how to take one: through its array
namespace's ``from_dlpack`` (the array API standard, e.g. ``jax.numpy``), or Numba's
``cuda.as_cuda_array``. Otherwise the result is the viewing framework's array.

DLPack carries the stream contract: the view is made with ``from_dlpack`` of the viewing
framework, which asks the producer to order its pending work before the consumer's current
stream. For the CUDA array interface, CuPy's ``asarray`` follows the ``stream`` entry itself;
with PyTorch (whose ``as_tensor`` ignores it) the current stream is made to wait on that stream
(an event, no host synchronisation). Results whose dtype the producer cannot take (complex32
in JAX or Numba) stay the viewing framework's arrays.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, NamedTuple, Tuple

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


def _usable(module: Any) -> bool:
    """Whether a framework can view CUDA memory (a CPU-only PyTorch build cannot)."""
    if module.__name__ == "torch":
        return bool(module.cuda.is_available())
    return True


def _device_framework(x: Any, names: Tuple[str, ...] = ("torch", "cupy")) -> Any:
    """The module that views device memory: the first of ``names`` already imported and able to,
    else the first importable one."""
    for name in names:
        module = sys.modules.get(name)
        if module is not None and _usable(module):
            return module
    for name in names:
        try:
            module = __import__(name)
        except ImportError:
            continue
        if _usable(module):
            return module
    needs = " or ".join({"torch": "PyTorch (with CUDA)", "cupy": "CuPy"}[n] for n in names)
    hint = ", or ".join({"torch": "pip install torch", "cupy": "pip install cupy-cuda13x"}[n] for n in names)
    raise TypeError(f"{type(x).__name__} arrays on the GPU are taken through {needs}, and none is "
                    f"installed ({hint})")


def _identity(y: Any) -> Any:
    return y


def _or_view(take: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``take``, or the result itself where the producer cannot take it: complex32, which
    neither DLPack consumers like JAX nor the CUDA array interface describe (PyTorch's
    interface property raises KeyError for it), or another dtype the producer refuses."""

    def back(y: Any) -> Any:
        if str(getattr(y, "dtype", "")).rsplit(".", 1)[-1] == "complex32":
            return y
        try:
            return take(y)
        except (TypeError, ValueError, KeyError, BufferError):
            return y

    return back


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
    return _or_view(take) if callable(take) else _identity


def _numba_back(x: Any) -> Callable[[Any], Any]:
    if type(x).__module__.split(".")[0] != "numba":
        return _identity
    cuda = sys.modules.get("numba.cuda")
    return _or_view(cuda.as_cuda_array) if cuda is not None else _identity


def adopt(x: Any) -> Adopted:
    """Views foreign array ``x`` without a copy (``TypeError`` for memory no framework here can
    reach, or when PyTorch and CuPy are both missing for device memory)."""
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        kind = int(x.__dlpack_device__()[0])
        if kind == KDL_CPU:
            import numpy as np

            return Adopted(np.from_dlpack(x), "numpy", _namespace_back(x))
        if kind in (KDL_CUDA, KDL_CUDA_MANAGED):
            # PyTorch's DLPack import knows no managed memory; CuPy's does.
            module = _device_framework(x, ("torch", "cupy") if kind == KDL_CUDA else ("cupy",))
            return Adopted(module.from_dlpack(x), module.__name__, _namespace_back(x))
        raise TypeError(f"{type(x).__name__} lives on DLPack device type {kind}; tensorfft takes "
                        "CUDA device memory (or host memory through the NumPy path)")
    if hasattr(x, "__cuda_array_interface__"):
        module = _device_framework(x)
        if module.__name__ != "torch":
            return Adopted(module.asarray(x), module.__name__, _numba_back(x))
        view = module.as_tensor(x)
        stream = x.__cuda_array_interface__.get("stream")
        if stream:
            # Work the producer queued on its stream comes before ours (cupy.asarray does this).
            # 1 is the legacy default stream (PyTorch's default stream), 2 the per-thread one.
            cuda = module.cuda
            producer = (cuda.default_stream(view.device) if stream == 1
                        else cuda.ExternalStream(stream, device=view.device))
            cuda.current_stream(view.device).wait_stream(producer)
        return Adopted(view, "torch", _numba_back(x))
    raise TypeError(f"{type(x).__name__} speaks neither DLPack nor the CUDA array interface")


def call_adopted(x: Any, out: Any, run: Callable[[Any], Any]) -> Any:
    """``run`` on the view of foreign ``x``, its result handed back in ``x``'s kind. ``out=``
    is refused for foreign arrays: some producers (JAX) treat their buffers as immutable."""
    if out is not None:
        raise ValueError(f"out= takes PyTorch, CuPy or NumPy arrays; for {type(x).__name__} "
                         "inputs the result comes back as a new array")
    adopted = adopt(x)
    return adopted.back(run(adopted.array))
