"""Type stubs of the compiled module ``tensorfft._tensorfft``."""

import os
from typing import List, Optional, Tuple, Union

__version__: str

def gpu_status(ordinal: int = 0) -> Tuple[bool, str]: ...
def device_name(ordinal: int = 0) -> Tuple[str, Tuple[int, int]]: ...
def set_wisdom(path: Optional[Union[str, "os.PathLike[str]"]] = None) -> int: ...
def supported_precisions() -> List[str]: ...
def plan_schedule(
    shape: List[int],
    *,
    batch: int = 1,
    precision: str = "f32",
    input_strides: Optional[Tuple[int, int]] = None,
    output_strides: Optional[Tuple[int, int]] = None,
    tensor_cores: bool = False,
    half_arithmetic: Optional[bool] = None,
) -> str: ...

class Plan:
    def __init__(
        self,
        shape: List[int],
        *,
        batch: int = 1,
        precision: str = "f32",
        normalization: str = "none",
        input_strides: Optional[Tuple[int, int]] = None,
        output_strides: Optional[Tuple[int, int]] = None,
        device: int = 0,
        tensor_cores: bool = False,
        half_arithmetic: Optional[bool] = None,
    ) -> None: ...
    def execute_raw(
        self,
        forward: bool,
        input: Tuple[int, int],
        output: Tuple[int, int],
        scratch: Optional[Tuple[int, int]],
        stream: int,
    ) -> None: ...
    def execute_host(self, forward: bool, input: bytes) -> bytes: ...
    @property
    def scratch_bytes(self) -> int: ...
    @property
    def input_extent(self) -> int: ...
    @property
    def output_extent(self) -> int: ...
    @property
    def shape(self) -> List[int]: ...
    @property
    def batch(self) -> int: ...
    @property
    def precision(self) -> str: ...
    @property
    def normalization(self) -> str: ...
    @property
    def schedule(self) -> str: ...
    @property
    def creation_ms(self) -> float: ...
    @property
    def from_wisdom(self) -> bool: ...

BABY_BEAR: int
KOALA_BEAR: int
GOLDILOCKS: int
FHE_62: int
PRIME_32: int

def ntt_friendly_primes(bits: int, n: int, count: int) -> List[int]: ...

class NttPlan:
    def __init__(
        self,
        moduli: List[int],
        n: int,
        *,
        kind: str = "cyclic",
        batch: int = 1,
        input_order: str = "natural",
        output_order: str = "natural",
        scale_inverse: bool = True,
        interleaved: bool = False,
        word: Optional[str] = None,
        device: int = 0,
        coset: Optional[int] = None,
    ) -> None: ...
    def execute_raw(
        self, forward: bool, input: Tuple[int, int], output: Tuple[int, int], stream: int
    ) -> None: ...
    def execute_host(self, forward: bool, input: bytes) -> bytes: ...
    def pointwise_raw(
        self, a: Tuple[int, int], b: Tuple[int, int], out: Tuple[int, int], stream: int
    ) -> None: ...
    def pointwise_host(self, a: bytes, b: bytes) -> bytes: ...
    def product_raw(
        self,
        forward: bool,
        a: Tuple[int, int],
        b: Tuple[int, int],
        out: Tuple[int, int],
        stream: int,
    ) -> None: ...
    def product_host(self, forward: bool, a: bytes, b: bytes) -> bytes: ...
    @property
    def len(self) -> int: ...
    @property
    def word_bytes(self) -> int: ...
    @property
    def schedule(self) -> str: ...
