from typing import Any

import numpy as np
from numpy.typing import NDArray

def multi_binary_sample(
    self: Any,
    mask: NDArray[np.int8] | None = None,
    probability: NDArray[np.float64] | None = None,
) -> NDArray[np.int8]: ...
def multi_binary_sample_batch(
    self: Any, n: int, out: NDArray[np.int8] | None = None
) -> NDArray[np.int8]: ...
def multi_binary_masked_batch(
    self: Any, n: int, mask: Any, out: NDArray[np.int8] | None = None
) -> NDArray[np.int8] | None: ...
def multi_binary_contains(self: Any, x: Any) -> bool: ...
