"""Runs complex-to-complex transforms on PyTorch / CuPy GPU arrays through library plans:
zero copy when the axes map onto one plan's layout, on the caller's current stream, with output
and scratch allocated by the caller's framework."""

from __future__ import annotations

from math import prod
from typing import Any, Optional, Sequence, Tuple

from . import _layout
from ._arrays import PRECISION_OF, dtype_name
from ._cache import plan_cache

#: Plan keys whose strided layout the library refused (those calls copy instead).
_REFUSED: set = set()


def native() -> Any:
    """The compiled module (imported on first use, so errors name what is missing)."""
    from . import _tensorfft

    return _tensorfft


def get_plan(device: int, shape: Tuple[int, ...], batch: int, precision: str, normalization: str,
             in_strides: Optional[Tuple[int, int]], out_strides: Optional[Tuple[int, int]]) -> Any:
    """The cached plan of this key (created, and its kernels compiled or loaded, on a miss).
    ``precision`` is a library precision, or ``'bf16:f32'``: BF16 computed in f32 arithmetic
    (``half_arithmetic=False``), or ``'bf16:tc'``: BF16 with radix-16 stages on the tensor
    cores (``tensor_cores=True``)."""
    key = (device, shape, batch, precision, normalization, in_strides, out_strides)
    name, _, arithmetic = precision.partition(":")
    return plan_cache.get(
        key,
        lambda: native().Plan(
            list(shape),
            batch=batch,
            precision=name,
            normalization=normalization,
            input_strides=in_strides,
            output_strides=out_strides,
            device=device,
            half_arithmetic=False if arithmetic == "f32" else None,
            tensor_cores=arithmetic == "tc",
        ),
    )


def _aligned(ops: Any, x: Any) -> bool:
    return ops.ptr(x) % 16 == 0


class DirectCall:
    """A call that went straight to one plan, kept for the fast path of repeated calls with the
    same shape, strides, dtype and arguments: allocate the output, launch."""

    __slots__ = ("ops", "plan", "forward", "in_extent", "out_extent", "shape", "strides",
                 "scratch_bytes", "scratch_elements", "device")

    def __init__(self, ops: Any, plan: Any, forward: bool, in_extent: int, out_extent: int,
                 shape: Tuple[int, ...], strides: Optional[Tuple[int, ...]], precision: str,
                 device: int) -> None:
        self.ops, self.plan, self.forward = ops, plan, forward
        self.in_extent, self.out_extent = in_extent, out_extent
        self.shape, self.strides = shape, strides
        self.scratch_bytes = plan.scratch_bytes
        self.scratch_elements = plan.scratch_bytes // element_bytes(precision)
        self.device = device

    def __call__(self, x: Any) -> Any:
        ops = self.ops
        out = ops.empty(x, self.shape, self.strides)
        scratch = holder = None
        if self.scratch_bytes:
            holder, address = ops.scratch(x, self.scratch_bytes)
            scratch = (address, self.scratch_elements)
        self.plan.execute_raw(self.forward, (ops.ptr(x), self.in_extent),
                              (ops.ptr(out), self.out_extent), scratch, ops.stream(self.device))
        del holder
        return out


def transform(ops: Any, x: Any, dims: Sequence[int], forward: bool, kind: str,
              out: Any = None, record: Optional[list] = None,
              precision: Optional[str] = None) -> Any:
    """The DFT of complex ``x`` over ``dims`` (normalized axes), scaled as ``kind`` says, into
    ``out`` (allocated when ``None``). Axes go to the library in groups of at most three
    neighbouring axes (an n-D DFT is the product of DFTs over its axes); groups after the first
    run in place on the first one's output. ``record`` (a list) receives the
    :class:`DirectCall` of a call that ran as one plan straight on ``x`` into a new output.
    ``precision`` overrides the one of ``x``'s dtype: ``'bf16'`` for complex bfloat16 pairs
    viewed as one 4-byte element each (``tensorfft.bf16``; ``'bf16:f32'`` computes them in f32
    arithmetic, ``'bf16:tc'`` with radix-16 stages on the tensor cores)."""
    shape = ops.shape(x)
    groups = _layout.group_dims(shape, dims)
    if not groups:
        # Only 1-point axes: the DFT is the identity, and every scaling is 1.
        y = ops.copy_contiguous(x)
        return y if out is None else ops.copy_into(out, y)
    if len(groups) == 1 and out is None and record is not None:
        return _run_group(ops, x, groups[0], forward, kind, None, record, precision)
    y = x
    for i, g in enumerate(groups):
        last = i == len(groups) - 1
        target = out if last else None
        if i > 0 and target is None:
            target = y
        y = _run_group(ops, y, g, forward, kind, target, None, precision)
    return y


def _run_group(ops: Any, x: Any, group: Tuple[int, ...], forward: bool, kind: str,
               out: Any, record: Optional[list] = None, precision: Optional[str] = None) -> Any:
    device = ops.check_device(x)
    if precision is None:
        precision = PRECISION_OF[dtype_name(x)]
    shape, strides = ops.shape(x), ops.strides(x)
    normalization = _layout.plan_normalization(kind, forward)
    m_in = _layout.map_axes(shape, strides, group) if _aligned(ops, x) else None
    allocated = out is None
    out_strides: Optional[Tuple[int, ...]] = None
    if out is None:
        if m_in is not None and m_in.extent == prod(shape):
            # Dense input: the output takes its strides, so both sides map alike.
            out_strides = strides
            out = ops.empty(x, shape, strides)
            m_out = m_in
        else:
            out = ops.empty(x, shape)
            m_out = _layout.map_axes(shape, _layout.contiguous_strides(shape), group)
    else:
        _check_out(ops, x, out, device)
        m_out = _layout.map_axes(shape, ops.strides(out), group) if _aligned(ops, out) else None
    if m_in is None or m_out is None or m_in.order != m_out.order:
        return _via_copy(ops, x, group, forward, kind, out, precision)
    key = (device, m_in.shape, m_in.batch, precision, normalization, m_in.strides, m_out.strides)
    if key in _REFUSED:
        return _via_copy(ops, x, group, forward, kind, out, precision)
    try:
        plan = get_plan(*key)
    except NotImplementedError:
        if m_in.strides is None and m_out.strides is None:
            raise
        _REFUSED.add(key)
        return _via_copy(ops, x, group, forward, kind, out, precision)
    scratch = None
    holder = None
    if plan.scratch_bytes:
        holder, address = ops.scratch(x, plan.scratch_bytes)
        scratch = (address, plan.scratch_bytes // element_bytes(precision))
    plan.execute_raw(forward, (ops.ptr(x), m_in.extent), (ops.ptr(out), m_out.extent), scratch,
                     ops.stream(device))
    del holder  # returned to the framework's stream-ordered allocator after the launch
    if record is not None and allocated:
        record.append(DirectCall(ops, plan, forward, m_in.extent, m_out.extent, shape, out_strides,
                                 precision, device))
    return out


#: Bytes of one complex element of each library precision (scratch is counted in elements).
ELEMENT_BYTES = {"f16": 4, "f32": 8, "f64": 16, "bf16": 4, "f32split": 8}


def element_bytes(precision: str) -> int:
    """Bytes of one complex element of a plan key's precision (``'bf16:f32'`` and
    ``'bf16:tc'`` store bf16 like ``'bf16'``)."""
    return ELEMENT_BYTES[precision.partition(":")[0]]


def _check_out(ops: Any, x: Any, out: Any, device: int) -> None:
    if ops.shape(out) != ops.shape(x):
        raise ValueError(f"out has shape {ops.shape(out)}, the result {ops.shape(x)}")
    if dtype_name(out) != dtype_name(x):
        raise ValueError(f"out has dtype {out.dtype}, the result {x.dtype}")
    if ops.check_device(out) != device:
        raise ValueError("out is on another device than the input")


def _via_copy(ops: Any, x: Any, group: Tuple[int, ...], forward: bool, kind: str,
              out: Any, precision: str) -> Any:
    """Moves ``group`` to the last axes in a contiguous copy, transforms it in place there
    (a dense plan), and returns it viewed back in the original axis order (or copied into
    ``out``)."""
    nd = len(ops.shape(x))
    last = tuple(range(nd - len(group), nd))
    moved = ops.copy_contiguous(ops.movedim(x, group, last))
    moved = _run_group(ops, moved, last, forward, kind, moved, None, precision)
    y = ops.movedim(moved, last, group)
    return y if out is None else ops.copy_into(out, y)
