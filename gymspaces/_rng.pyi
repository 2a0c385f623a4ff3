from typing import Literal

import numpy as np
from typing_extensions import Self, disjoint_base

DEBUG_BUILD: bool
BUILD_CYTHON: str
BUILD_NUMPY: str
COMPILER: str
FREE_THREADED_BUILD: bool
PCG64_PATH: Literal["int128", "msvc", "portable"]
PCG64_INLINE: bool
PCG64_STATE_COPY: bool
PCG64_FALLBACK_REASON: str | None

@disjoint_base
class RNGHandle:
    """C view (``bitgen_t*`` and lock) of one numpy Generator."""

    @property
    def generator(self) -> np.random.Generator: ...
    @property
    def lock(self) -> object: ...
    @property
    def uses_inline_pcg64(self) -> bool: ...
    def __new__(cls, generator: np.random.Generator) -> Self: ...

def copy_generator_state(source: np.random.Generator, target: np.random.Generator) -> bool: ...
def advance_by_one_double(space: object) -> None: ...
