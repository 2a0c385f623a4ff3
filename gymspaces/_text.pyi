from typing import Any

import numpy as np
from numpy.typing import NDArray

class CharTable:
    @property
    def chars(self) -> tuple[str, ...]: ...
    def __init__(self, chars: tuple[str, ...]) -> None: ...

def text_sample(
    space: Any, length: int | None = None, weights: NDArray[np.float64] | None = None
) -> str: ...
