from typing import Any

import numpy as np
from numpy.typing import NDArray

def discrete_sample(
    self: Any,
    mask: NDArray[np.int8] | None = None,
    probability: NDArray[np.float64] | None = None,
) -> np.integer[Any]: ...
def multi_discrete_sample(space: Any) -> NDArray[np.integer[Any]] | np.integer[Any]: ...
def multi_discrete_leaf(
    space: Any, sub_mask: Any, sub_nvec: Any, sub_start: Any, weighted: bool
) -> Any: ...
def discrete_contains_scalar(space: Any, x: Any) -> bool | None: ...
