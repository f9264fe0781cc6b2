"""``tensorfft.Plan``: an explicit plan for users who manage their own (like FFTW's or cuFFT's)."""

from __future__ import annotations

from math import prod
from typing import Any, Optional, Sequence

from . import _layout
from ._arrays import PRECISION_OF, dtype_name, framework_of, ops_for
from ._core import element_bytes, native
from ._foreign import call_adopted


class Plan:
    """Batched complex transforms of ``shape`` (1 to 3 power-of-two extents) over the last
    ``len(shape)`` axes of contiguous CUDA tensors of ``dtype`` (``torch.complex32`` /
    ``'complex32'``, ``complex64``, ``complex128``), created once and executed many times on the
    caller's current stream. ``norm`` is as in ``torch.fft``: the inverse scaled by 1/N
    (``'backward'``), the forward (``'forward'``), or both by 1/√N (``'ortho'``), inside the
    kernels. ``precision='f32split'`` (complex64 only) runs the radix-16 DFTs on the fp16 tensor
    cores with fp32 accuracy (lengths 256 to 16384 along one axis; others raise
    ``NotImplementedError``). ``tensor_cores=True`` (complex32 only) runs the radix-16 stages of
    complex32 transforms on the fp16 tensor cores with f32 accumulation: about 0.4x the error of
    ``torch.fft`` in complex32 (single passes of 256 to 16384 along one axis; 256, 512 and 1024
    in one warp at 84-96% of a device copy on an H200, 2048 to 16384 at 36-78%; shorter lengths
    raise ``NotImplementedError``, and the passes of longer axes, including a single pass of
    32768, run on the CUDA cores). ``half_arithmetic=False`` (complex32 only) computes complex32
    transforms in f32 instead of packed f16x2 arithmetic: errors of 2-4e-4 rather than about
    1e-3, at some speed (the library's ``Tuning::half_arithmetic``).

    >>> import torch, tensorfft as tf                                     # doctest: +SKIP
    >>> plan = tf.Plan((1024,), torch.complex64, batch=64)                 # doctest: +SKIP
    >>> x = torch.randn(64, 1024, dtype=torch.complex64, device="cuda")    # doctest: +SKIP
    >>> y = plan.forward(x)                                                # doctest: +SKIP
    >>> plan.inverse(y, out=y)   # in place                                # doctest: +SKIP
    """

    def __init__(self, shape: Sequence[int], dtype: Any = "complex64", *, batch: int = 1,
                 norm: Optional[str] = None, device: int = 0, precision: Optional[str] = None,
                 tensor_cores: bool = False, half_arithmetic: Optional[bool] = None) -> None:
        name = str(dtype).rsplit(".", 1)[-1]
        if name not in PRECISION_OF:
            raise ValueError(f"dtype {dtype}: expected complex32, complex64 or complex128")
        if precision not in (None, "f32split") or (precision == "f32split" and name != "complex64"):
            raise ValueError(f"precision {precision!r} for {name}: the only override is 'f32split' "
                             "for complex64")
        if tensor_cores and name != "complex32":
            raise ValueError(f"tensor_cores for {name}: the tensor-core kernels take complex32 "
                             "(precision='f32split' is the complex64 one)")
        if half_arithmetic is not None and (not isinstance(half_arithmetic, bool) or name != "complex32"):
            raise ValueError(f"half_arithmetic={half_arithmetic!r} for {name}: None, or True / False "
                             "for complex32")
        self.tensor_cores = bool(tensor_cores)
        self.half_arithmetic = half_arithmetic
        self.shape = tuple(int(n) for n in shape)
        self.dtype_name = name
        self.batch = int(batch)
        self.norm = norm if norm is not None else "backward"
        n = prod(self.shape) if self.shape else 0
        kind, _ = _layout.scale_of(self.norm, True, max(n, 1))
        # One library normalization serves both directions of a torch norm mode.
        normalization = {"none": "inverse_by_n", "by_n": "forward_by_n", "by_root_n": "ortho"}[kind]
        self.precision = precision or PRECISION_OF[name]
        self.device = device
        self._plan = native().Plan(list(self.shape), batch=self.batch, precision=self.precision,
                                   normalization=normalization, device=device,
                                   tensor_cores=self.tensor_cores,
                                   half_arithmetic=half_arithmetic)

    @property
    def scratch_bytes(self) -> int:
        """Scratch an execution takes from the framework's allocator (0 for one pass per axis)."""
        return self._plan.scratch_bytes

    @property
    def schedule(self) -> str:
        """The plan's passes."""
        return self._plan.schedule

    @property
    def from_wisdom(self) -> bool:
        """Whether the plan took its tuning from the loaded wisdom (:func:`tensorfft.load_wisdom`)."""
        return self._plan.from_wisdom

    def forward(self, x: Any, out: Any = None) -> Any:
        """The forward transform of ``x`` into ``out`` (new when ``None``; ``x``: in place)."""
        return self._run(x, out, True)

    def inverse(self, x: Any, out: Any = None) -> Any:
        """The inverse transform of ``x`` into ``out`` (new when ``None``; ``x``: in place)."""
        return self._run(x, out, False)

    def _run(self, x: Any, out: Any, forward: bool) -> Any:
        framework = framework_of(x)
        if framework == "foreign":
            return call_adopted(x, out, lambda view: self._run(view, None, forward))
        if framework == "numpy":
            raise TypeError("Plan.forward / inverse take CUDA arrays (PyTorch, CuPy, or others "
                            "through DLPack); for host arrays use tensorfft.fft and friends")
        ops = ops_for(framework)
        device = ops.check_device(x)
        if device != self.device:
            raise ValueError(f"the plan is for device {self.device}, the tensor on {device}")
        for t in (x,) if out is None else (x, out):
            self._check(ops, t)
        if out is None:
            out = ops.empty(x, ops.shape(x))
        count = prod(ops.shape(x))
        scratch = holder = None
        if self._plan.scratch_bytes:
            holder, address = ops.scratch(x, self._plan.scratch_bytes)
            scratch = (address, self._plan.scratch_bytes // element_bytes(self.precision))
        self._plan.execute_raw(forward, (ops.ptr(x), count), (ops.ptr(out), count), scratch,
                               ops.stream(device))
        del holder
        return out

    def _check(self, ops: Any, t: Any) -> None:
        if dtype_name(t) != self.dtype_name:
            raise ValueError(f"the plan is for {self.dtype_name}, the tensor is {t.dtype}")
        shape = ops.shape(t)
        k = len(self.shape)
        if tuple(shape[len(shape) - k:]) != self.shape or prod(shape[:len(shape) - k]) != self.batch:
            raise ValueError(f"the plan is for {self.batch} transforms of {self.shape}, the tensor has shape {shape}")
        if ops.strides(t) != _layout.contiguous_strides(shape):
            raise ValueError("Plan.forward / inverse take contiguous tensors (call .contiguous())")

    def __repr__(self) -> str:
        return (f"tensorfft.Plan(shape={self.shape}, dtype={self.dtype_name}, batch={self.batch}, "
                f"norm={self.norm!r}, precision={self.precision!r}"
                + (", tensor_cores=True" if self.tensor_cores else "")
                + ("" if self.half_arithmetic is None else f", half_arithmetic={self.half_arithmetic}")
                + ")")
