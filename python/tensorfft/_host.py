"""The NumPy convenience path: upload, transform on device 0, download (one round trip per
group of axes; for speed keep data on the GPU as PyTorch or CuPy arrays)."""

from __future__ import annotations

from math import prod
from typing import Any, Optional, Sequence, Tuple

from . import _layout
from ._core import get_plan

_PRECISION = {"complex64": "f32", "complex128": "f64"}


def host_c2c(x: Any, s: Optional[Sequence[int]], dim: Any, norm: Optional[str], forward: bool,
             default: Optional[Tuple[int, ...]]) -> Any:
    import numpy as np

    from ._functions import _resolve_dims

    x = np.asarray(x)
    dims = _resolve_dims(x.ndim, s, dim, default)
    if x.dtype == np.complex64 or x.dtype == np.float32 or x.dtype == np.float16:
        x = x.astype(np.complex64, copy=False)
    else:
        x = x.astype(np.complex128, copy=False)
    target = _layout.padded_shape(x.shape, dims, s)
    if target != x.shape:
        y = np.zeros(target, dtype=x.dtype)
        src = x[tuple(slice(0, min(a, b)) for a, b in zip(target, x.shape))]
        y[tuple(slice(0, m) for m in src.shape)] = src
        x = y
    n = prod(target[d] for d in dims)
    kind, _ = _layout.scale_of(norm, forward, n)
    groups = _layout.group_dims(x.shape, dims)
    if not groups:
        return x.copy()
    precision = _PRECISION[x.dtype.name]
    for group in groups:
        last = tuple(range(x.ndim - len(group), x.ndim))
        moved = np.ascontiguousarray(np.moveaxis(x, group, last))
        tshape = tuple(moved.shape[d] for d in last)
        batch = moved.size // prod(tshape)
        plan = get_plan(0, tshape, batch, precision, _layout.plan_normalization(kind, forward),
                        None, None)
        raw = plan.execute_host(forward, moved.tobytes())
        result = np.frombuffer(raw, dtype=x.dtype).reshape(moved.shape).copy()
        x = np.moveaxis(result, last, group)
    return x
