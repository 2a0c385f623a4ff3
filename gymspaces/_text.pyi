from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Self, disjoint_base

@disjoint_base
class CharTable:
    @property
    def chars(self) -> tuple[str, ...]: ...
    def __new__(cls, chars: tuple[str, ...]) -> Self: ...

def text_sample(
    space: Any, length: int | None = None, weights: NDArray[np.float64] | None = None
) -> str: ...
