from typing import Any

import numpy as np
from numpy.typing import NDArray

def discrete_sample(
    self: Any,
    mask: NDArray[np.int8] | None = None,
    probability: NDArray[np.float64] | None = None,
) -> np.integer[Any]: ...
def discrete_sample_batch(
    space: Any,
    n: int,
    mask: NDArray[np.int8] | None = None,
    probability: NDArray[np.float64] | None = None,
    out: NDArray[Any] | None = None,
) -> NDArray[np.integer[Any]] | None: ...
def discrete_batch_sample_detached(space: Any, n: int) -> NDArray[np.integer[Any]] | None: ...
def discrete_contains(self: Any, x: Any) -> bool: ...
