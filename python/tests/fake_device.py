"""A stand-in for the GPU in CI: NumPy arrays play device tensors (their host addresses play
device pointers) and a plan that executes the library's layout contract with numpy.fft plays
the compiled plan. With them, the package's mapping of axes, strides, groups, copies, output
allocation and scaling onto plans is tested exactly, without a GPU."""

from __future__ import annotations

import ctypes
from math import prod
from typing import Any

import numpy as np

from tensorfft import _layout

DTYPES = {"f32": np.complex64, "f64": np.complex128, "bf16": np.uint32}


def bf16_decode(words: np.ndarray) -> np.ndarray:
    """Complex values of bfloat16 pairs packed one per uint32 (real in the low half)."""
    w = words.astype(np.uint32)
    re = (w << 16).view(np.float32)
    im = (w & np.uint32(0xFFFF0000)).view(np.float32)
    return re.astype(np.float64) + 1j * im.astype(np.float64)


def bf16_encode(z: np.ndarray) -> np.ndarray:
    """Complex values rounded to bfloat16 pairs (to nearest, ties to even), packed as uint32."""

    def half(x):
        b = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
        return ((b + np.uint32(0x7FFF) + ((b >> 16) & np.uint32(1))) >> 16).astype(np.uint32)

    return half(z.real) | (half(z.imag) << 16)


def _poison(dtype):
    return np.uint32(0xFFFFFFFF) if np.dtype(dtype).kind == "u" else np.nan + 1j * np.nan


def address(x: np.ndarray) -> int:
    return x.__array_interface__["data"][0]


def view(addr: int, count: int, dtype: Any) -> np.ndarray:
    size = np.dtype(dtype).itemsize
    buf = (ctypes.c_char * (count * size)).from_address(addr)
    return np.frombuffer(buf, dtype=dtype)


class NumpyDeviceOps:
    """The `_arrays` operations on NumPy arrays, as if they were device tensors."""

    name = "fake"

    def __init__(self) -> None:
        self.launches: list = []

    def check_device(self, x: Any) -> int:
        return 0

    def shape(self, x):
        return tuple(x.shape)

    def strides(self, x):
        return tuple(s // x.itemsize for s in x.strides)

    def ptr(self, x):
        return address(x)

    def stream(self, device):
        return 0

    def empty(self, like, shape, strides=None):
        if strides is None:
            return np.full(shape, _poison(like.dtype), dtype=like.dtype)
        span = max(_layout.extent(shape, strides), 1)
        base = np.full(span, _poison(like.dtype), dtype=like.dtype)
        return np.lib.stride_tricks.as_strided(base, shape, tuple(s * like.itemsize for s in strides))

    def scratch(self, like, nbytes):
        t = np.empty(nbytes, dtype=np.uint8)
        return t, address(t)

    def movedim(self, x, src, dst):
        return np.moveaxis(x, src, dst)

    def copy_contiguous(self, x):
        return np.array(x, order="C", copy=True)


    def copy_into(self, out, y):
        out[...] = y
        return out


class FakePlan:
    """Executes the library's contract: element `(b, i)` of a side at `b·dist + lin(i)·stride`."""

    def __init__(self, shape, *, batch, precision, normalization, input_strides,
                 output_strides, device, log):
        if any(n < 2 or n & (n - 1) for n in shape) or not 1 <= len(shape) <= 3:
            raise NotImplementedError(f"shape {shape}")
        self.shape, self.batch = tuple(shape), batch
        # 'bf16:f32': the same pairs computed in f32 arithmetic (`half_arithmetic=False`).
        name = precision.partition(":")[0]
        self.precision = precision
        self.dtype = DTYPES[name]
        self.pairs = name == "bf16"
        assert normalization in ("none", "inverse_by_n", "forward_by_n", "ortho")
        self.normalization = normalization
        self.input_strides, self.output_strides = input_strides, output_strides
        self.scratch_bytes = 0
        self.log = log

    def _dft(self, data, forward):
        """The library's scaled DFT over the transform axes (axis 0 is the batch)."""
        axes = tuple(range(1, 1 + len(self.shape)))
        n = prod(self.shape)
        y = np.fft.fftn(data, axes=axes) if forward else np.fft.ifftn(data, axes=axes) * n
        scale = {
            "none": 1.0,
            "inverse_by_n": 1.0 if forward else 1.0 / n,
            "forward_by_n": 1.0 / n if forward else 1.0,
            "ortho": n ** -0.5,
        }[self.normalization]
        return y * scale

    def _index(self, strides):
        n = prod(self.shape)
        stride, dist = strides if strides is not None else (1, n)
        return (np.arange(self.batch)[:, None] * dist + np.arange(n)[None, :] * stride)

    def execute_raw(self, forward, input, output, scratch, stream):
        for addr, _ in (input, output):
            assert addr % 16 == 0, "unaligned address reached the plan"
        iidx, oidx = self._index(self.input_strides), self._index(self.output_strides)
        assert iidx.max() < input[1] and oidx.max() < output[1], "a side shorter than its extent"
        if self.input_strides is None:
            assert input[1] == iidx.size, "a dense side must hold exactly the batch"
        src = view(input[0], input[1], self.dtype)
        dst = view(output[0], output[1], self.dtype)
        if self.pairs:
            data = bf16_decode(src[iidx]).reshape((self.batch,) + self.shape)
            dst[oidx] = bf16_encode(self._dft(data, forward).reshape(self.batch, -1))
        else:
            data = src[iidx].reshape((self.batch,) + self.shape).astype(np.complex128)
            dst[oidx] = self._dft(data, forward).reshape(self.batch, -1).astype(self.dtype)
        self.log.append((self.shape, self.batch, self.input_strides, self.output_strides,
                         input[0] == output[0]))

    def execute_host(self, forward, data: bytes) -> bytes:
        x = np.frombuffer(data, dtype=self.dtype).reshape((self.batch,) + self.shape)
        y = self._dft(x, forward)
        self.log.append((self.shape, self.batch, None, None, "host"))
        return y.astype(self.dtype).tobytes()
