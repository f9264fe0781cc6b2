"""How a transform over some axes of a strided array maps onto one library plan.

The library transforms ``batch`` blocks of ``shape`` (1 to 3 extents, row-major), element
``(b, i)`` of a side at ``b * dist + lin(i) * stride`` (``cufftPlanMany``'s layout with the
embedding equal to the shape). A tensor's axes map onto that when the transformed axes, ordered
by stride, form one such block and the other axes collapse into one batch axis of equal
spacing. Everything here is pure Python, so CI tests it without a GPU.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Optional, Sequence, Tuple

#: Most axes one library plan transforms at once.
MAX_RANK = 3


@dataclass(frozen=True)
class Mapping:
    """One library call: ``batch`` transforms of ``shape`` with ``strides`` (``None``: dense)."""

    shape: Tuple[int, ...]
    batch: int
    strides: Optional[Tuple[int, int]]
    #: Elements spanned from the first element (what the buffer must hold).
    extent: int
    #: The tensor's transformed axes, then its batch axes, each slowest first: two sides map
    #: element for element only when their orders agree.
    order: Tuple[int, ...] = ()


def normalize_dims(ndim: int, dims: Optional[Sequence[int]]) -> Tuple[int, ...]:
    """Axes as non-negative indices, in the order given; refuses repeats and out-of-range axes.

    >>> normalize_dims(3, (-1, 0))
    (2, 0)
    """
    if dims is None:
        return tuple(range(ndim))
    out = []
    for d in dims:
        if not isinstance(d, int) or isinstance(d, bool):
            raise TypeError(f"dimension {d!r} is not an integer")
        if not -ndim <= d < ndim:
            raise IndexError(f"dimension {d} out of range for a tensor of {ndim} dimensions")
        d %= ndim
        if d in out:
            raise ValueError(f"dimension {d} repeated in {tuple(dims)}")
        out.append(d)
    return tuple(out)


def extent(shape: Sequence[int], strides: Sequence[int]) -> int:
    """Elements from the first to one past the last element of a view (0 for empty views).

    >>> extent((4, 3), (3, 1))
    12
    """
    if any(s == 0 for s in shape):
        return 0
    return 1 + sum((n - 1) * abs(t) for n, t in zip(shape, strides))


def non_overlapping(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether no two elements of the view share memory (a sufficient test: sorted by stride,
    every axis steps past the whole of the faster ones).

    >>> non_overlapping((4, 3), (3, 1)), non_overlapping((4, 3), (1, 1))
    (True, False)
    """
    axes = sorted(((t, n) for n, t in zip(shape, strides) if n > 1), key=lambda a: a[0])
    span = 1
    for t, n in axes:
        if t < span:
            return False
        span = t * n
    return True


def _block(shape: Sequence[int], strides: Sequence[int], axes: Sequence[int]):
    """``(extents, unit, order)`` when ``axes`` (sorted by decreasing stride: ``order``) form a
    row-major block of spacing ``unit``, else ``None``."""
    order = sorted(axes, key=lambda a: (-strides[a], a))
    if not order:
        return (), 0, ()
    unit = strides[order[-1]]
    if unit <= 0:
        return None
    step = unit
    for a in reversed(order):
        if strides[a] != step:
            return None
        step *= shape[a]
    return tuple(shape[a] for a in order), unit, tuple(order)


def map_axes(
    shape: Sequence[int], strides: Sequence[int], dims: Sequence[int]
) -> Optional[Mapping]:
    """The library call that transforms ``dims`` of a view with ``shape`` and ``strides``
    (elements), or ``None`` when the view needs a copy first. Axes of extent 1 are dropped (a
    1-point DFT is the identity); ``dims`` must hold 1 to 3 axes of extent >= 2.

    >>> map_axes((8, 16), (16, 1), (1,))
    Mapping(shape=(16,), batch=8, strides=None, extent=128, order=(1, 0))
    >>> map_axes((16, 8), (8, 1), (0,))
    Mapping(shape=(16,), batch=8, strides=(8, 1), extent=128, order=(0, 1))
    >>> map_axes((4, 16, 8), (128, 8, 1), (1,)) is None
    True
    """
    dims = [d for d in dims if shape[d] > 1]
    if not 1 <= len(dims) <= MAX_RANK:
        return None
    if not non_overlapping(shape, strides):
        return None
    block = _block(shape, strides, dims)
    if block is None:
        return None
    tshape, stride, torder = block
    rest = [a for a in range(len(shape)) if a not in dims and shape[a] > 1]
    batch_block = _block(shape, strides, rest)
    if batch_block is None:
        return None
    bshape, dist, border = batch_block
    batch = prod(bshape)
    n = prod(tshape)
    if not rest:
        dist = n * stride
    span = extent(shape, strides)
    order = torder + border
    if stride == 1 and (batch == 1 or dist == n):
        return Mapping(tshape, batch, None, span, order)
    return Mapping(tshape, batch, (stride, dist), span, order)


def contiguous_strides(shape: Sequence[int]) -> Tuple[int, ...]:
    """Row-major strides in elements.

    >>> contiguous_strides((2, 3, 4))
    (12, 4, 1)
    """
    out = []
    step = 1
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def padded_shape(
    shape: Sequence[int], dims: Sequence[int], sizes: Optional[Sequence[int]]
) -> Tuple[int, ...]:
    """The shape after zero-padding or trimming ``dims`` to ``sizes`` (``-1``: unchanged), as
    ``n`` / ``s`` do in ``torch.fft``.

    >>> padded_shape((4, 6), (1,), (8,))
    (4, 8)
    """
    out = list(shape)
    if sizes is None:
        return tuple(out)
    if len(sizes) != len(dims):
        raise ValueError(f"s has {len(sizes)} sizes for {len(dims)} dimensions")
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"invalid number of data points ({n}) specified")
        out[d] = n
    return tuple(out)


def scale_of(norm: Optional[str], forward: bool, n: int) -> Tuple[str, float]:
    """The scaling a ``torch.fft`` norm mode applies to a transform of ``n`` points:
    ``('none' | 'by_n' | 'by_root_n', factor)``.

    >>> scale_of("backward", False, 8)
    ('by_n', 0.125)
    """
    if norm is None or norm == "backward":
        kind = "none" if forward else "by_n"
    elif norm == "forward":
        kind = "by_n" if forward else "none"
    elif norm == "ortho":
        kind = "by_root_n"
    else:
        raise ValueError(f"invalid normalization mode: {norm!r} (expected 'backward', 'forward' or 'ortho')")
    return kind, factor(kind, n)


def factor(kind: str, n: int) -> float:
    """The factor of a scaling kind for ``n`` points.

    >>> factor("by_root_n", 16)
    0.25
    """
    if kind == "none":
        return 1.0
    if kind == "by_n":
        return 1.0 / n
    if kind == "by_root_n":
        return 1.0 / n**0.5
    raise ValueError(f"scaling {kind!r}")


def plan_normalization(kind: str, forward: bool) -> str:
    """The library normalization whose kernels apply scaling ``kind`` in this direction (every
    mode scales inside the kernels, stage by stage, so nothing runs after the transform).

    >>> plan_normalization("by_n", True), plan_normalization("by_n", False)
    ('forward_by_n', 'inverse_by_n')
    """
    if kind == "none":
        return "none"
    if kind == "by_root_n":
        return "ortho"
    if kind == "by_n":
        return "forward_by_n" if forward else "inverse_by_n"
    raise ValueError(f"scaling {kind!r}")


def group_dims(shape: Sequence[int], dims: Sequence[int]) -> Tuple[Tuple[int, ...], ...]:
    """Splits the axes of an n-D transform (extent-1 axes dropped) into groups of at most 3
    neighbouring axes, each one library call; an n-D DFT is the product of DFTs over its axes.

    >>> group_dims((2, 4, 4, 4, 4), (0, 1, 2, 3, 4))
    ((0, 1), (2, 3, 4))
    """
    axes = sorted(d for d in dims if shape[d] > 1)
    runs = []
    for d in axes:
        if runs and runs[-1][-1] == d - 1:
            runs[-1].append(d)
        else:
            runs.append([d])
    groups = []
    for run in runs:
        # Split long runs from the end, so the contiguous (last) axes stay together.
        while len(run) > MAX_RANK:
            groups.append(tuple(run[-MAX_RANK:]))
            run = run[:-MAX_RANK]
        groups.append(tuple(run))
    return tuple(sorted(groups))
