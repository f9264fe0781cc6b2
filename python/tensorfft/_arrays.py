"""The few array operations the functions need, for PyTorch tensors and CuPy arrays.

Neither framework is imported here: an array's own module says which one it is, so the package
imports (and its CI tests run) without PyTorch, CuPy or a GPU.
"""

from __future__ import annotations

import sys
from typing import Any, Optional, Sequence, Tuple

#: Complex dtype names (as both frameworks print them) and the library's precision for each.
PRECISION_OF = {"complex32": "f16", "complex64": "f32", "complex128": "f64"}


def framework_of(x: Any) -> str:
    """``'torch'``, ``'cupy'`` or ``'numpy'`` for an array, ``'foreign'`` for another
    framework's array that DLPack or the CUDA array interface can view (``_foreign``), else
    ``TypeError``."""
    module = type(x).__module__.split(".")[0]
    if module in ("torch", "cupy", "numpy"):
        return module
    # Subclasses defined elsewhere (torchvision's tensors, say) are their base framework's.
    for name, base in (("torch", "Tensor"), ("cupy", "ndarray"), ("numpy", "ndarray")):
        framework = sys.modules.get(name)
        if framework is not None and isinstance(x, getattr(framework, base, ())):
            return name
    from ._foreign import is_foreign

    if is_foreign(x):
        return "foreign"
    raise TypeError(f"expected a PyTorch tensor, a CuPy array, a NumPy array or an array that "
                    f"speaks DLPack or the CUDA array interface, got {type(x).__name__}")


def dtype_name(x: Any) -> str:
    """The element type as a bare name (``'complex64'``, ``'float32'``, ...)."""
    return str(x.dtype).rsplit(".", 1)[-1]


class TorchOps:
    """Operations on PyTorch CUDA tensors."""

    name = "torch"

    def __init__(self) -> None:
        self.torch = sys.modules["torch"]
        c = self.torch._C
        self._raw_stream = getattr(c, "_cuda_getCurrentRawStream", None)

    def check_device(self, x: Any) -> int:
        if x.device.type != "cuda":
            raise ValueError(
                f"tensorfft runs on CUDA tensors; this one is on {x.device} "
                "(move it with .cuda(), or pass a NumPy array for the host convenience path)"
            )
        return x.device.index if x.device.index is not None else self.torch.cuda.current_device()

    def shape(self, x: Any) -> Tuple[int, ...]:
        return tuple(x.shape)

    def strides(self, x: Any) -> Tuple[int, ...]:
        return tuple(x.stride())

    def ptr(self, x: Any) -> int:
        return x.data_ptr()

    def stream(self, device: int) -> int:
        if self._raw_stream is not None:
            return self._raw_stream(device)
        return self.torch.cuda.current_stream(device).cuda_stream

    def empty(self, like: Any, shape: Sequence[int], strides: Optional[Sequence[int]] = None) -> Any:
        if strides is None:
            return self.torch.empty(tuple(shape), dtype=like.dtype, device=like.device)
        return self.torch.empty_strided(tuple(shape), tuple(strides), dtype=like.dtype, device=like.device)

    def scratch(self, like: Any, nbytes: int) -> Tuple[Any, int]:
        t = self.torch.empty(nbytes, dtype=self.torch.uint8, device=like.device)
        return t, t.data_ptr()

    def movedim(self, x: Any, src: Sequence[int], dst: Sequence[int]) -> Any:
        return self.torch.movedim(x, tuple(src), tuple(dst))

    def copy_contiguous(self, x: Any) -> Any:
        return x.clone(memory_format=self.torch.contiguous_format)


    def resize(self, x: Any, shape: Sequence[int]) -> Any:
        """Zero-pads or trims each axis to ``shape`` (a view when only trimming)."""
        y = x
        for d, n in enumerate(shape):
            if y.shape[d] > n:
                y = y.narrow(d, 0, n)
        if tuple(y.shape) == tuple(shape):
            return y
        z = self.torch.zeros(tuple(shape), dtype=x.dtype, device=x.device)
        z[tuple(slice(0, m) for m in y.shape)] = y
        return z

    def to_complex(self, x: Any) -> Any:
        t = self.torch
        name = dtype_name(x)
        if name in PRECISION_OF:
            return x
        if name == "float16":
            return x.to(t.complex32)
        if name == "float64":
            return x.to(t.complex128)
        if name == "bfloat16":
            raise TypeError("real bfloat16 tensors have no complex counterpart in PyTorch: hold complex "
                            "bf16 as (real, imaginary) pairs and use tensorfft.bf16")
        if name in ("float32", "bool") or name.startswith(("int", "uint")):
            return x.to(t.complex64)
        raise TypeError(f"unsupported dtype {x.dtype}")

    def copy_into(self, out: Any, y: Any) -> Any:
        out.copy_(y)
        return out


class CupyOps:
    """Operations on CuPy arrays (no autograd)."""

    name = "cupy"

    def __init__(self) -> None:
        self.cp = sys.modules["cupy"]

    def check_device(self, x: Any) -> int:
        return x.device.id

    def shape(self, x: Any) -> Tuple[int, ...]:
        return tuple(x.shape)

    def strides(self, x: Any) -> Tuple[int, ...]:
        size = x.itemsize
        for s in x.strides:
            if s % size:
                raise ValueError(f"stride of {s} bytes is not a whole number of {size}-byte elements")
        return tuple(s // size for s in x.strides)

    def ptr(self, x: Any) -> int:
        return x.data.ptr

    def stream(self, device: int) -> int:
        return self.cp.cuda.get_current_stream(device).ptr

    def empty(self, like: Any, shape: Sequence[int], strides: Optional[Sequence[int]] = None) -> Any:
        cp = self.cp
        with cp.cuda.Device(like.device.id):
            if strides is None:
                return cp.empty(tuple(shape), dtype=like.dtype)
            size = like.itemsize
            from . import _layout

            span = max(_layout.extent(shape, strides), 1)
            base = cp.empty(span, dtype=like.dtype)
            return cp.lib.stride_tricks.as_strided(base, tuple(shape), tuple(s * size for s in strides))

    def scratch(self, like: Any, nbytes: int) -> Tuple[Any, int]:
        with self.cp.cuda.Device(like.device.id):
            t = self.cp.empty(nbytes, dtype=self.cp.uint8)
        return t, t.data.ptr

    def movedim(self, x: Any, src: Sequence[int], dst: Sequence[int]) -> Any:
        return self.cp.moveaxis(x, tuple(src), tuple(dst))

    def copy_contiguous(self, x: Any) -> Any:
        return x.copy(order="C")


    def resize(self, x: Any, shape: Sequence[int]) -> Any:
        y = x[tuple(slice(0, min(n, m)) for n, m in zip(shape, x.shape))]
        if tuple(y.shape) == tuple(shape):
            return y
        with self.cp.cuda.Device(x.device.id):
            z = self.cp.zeros(tuple(shape), dtype=x.dtype)
        z[tuple(slice(0, m) for m in y.shape)] = y
        return z

    def to_complex(self, x: Any) -> Any:
        cp = self.cp
        name = dtype_name(x)
        if name in PRECISION_OF:
            return x
        if name == "float64":
            return x.astype(cp.complex128)
        if name == "float16":
            raise TypeError("CuPy has no complex32: convert float16 arrays to complex64, or use PyTorch's chalf")
        if name in ("float32", "bool") or name.startswith(("int", "uint")):
            return x.astype(cp.complex64)
        raise TypeError(f"unsupported dtype {x.dtype}")

    def copy_into(self, out: Any, y: Any) -> Any:
        out[...] = y
        return out


_OPS: dict = {}


def ops_for(framework: str) -> Any:
    """The (cached) operations object of a framework."""
    ops = _OPS.get(framework)
    if ops is None:
        ops = {"torch": TorchOps, "cupy": CupyOps}[framework]()
        _OPS[framework] = ops
    return ops
