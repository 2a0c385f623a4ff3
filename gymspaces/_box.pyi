from typing import Any

import numpy as np
from numpy.typing import NDArray

def box_sample(self: Any, mask: None = None, probability: None = None) -> NDArray[Any]: ...
def box_sample_batch(self: Any, n: int, out: NDArray[Any] | None = None) -> NDArray[Any] | None: ...
def box_sample_detached(
    space: Any,
    low: NDArray[Any],
    high: NDArray[Any],
    bounded_below: NDArray[np.bool_],
    bounded_above: NDArray[np.bool_],
) -> NDArray[Any] | None: ...
def box_contains(self: Any, x: Any) -> bool: ...
