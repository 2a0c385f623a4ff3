"""The :class:`Discrete` space: integers ``start, ..., start + n - 1``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, overload

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces import _discrete
from gymspaces._sample_batch import (
    array_row,
    batch_count,
    contains_batch_by_items,
    detach_from_out,
    numeric_batch,
    sample_batch_by_loop,
)
from gymspaces._typevars import IntegerT
from gymspaces.space import MaskNDArray, Space

__all__ = ["Discrete"]

class Discrete(Space[IntegerT], Generic[IntegerT]):
    """A finite set of consecutive integers.

    Parameters
    ----------
    n : int or numpy.integer
        Number of elements (positive).
    seed : int, numpy.random.Generator or None
        Seed of the space's generator.
    start : int or numpy.integer
        Smallest element.
    dtype : integer dtype
        dtype of samples (numpy scalars of this type).

    Examples
    --------
    Four actions ``0, 1, 2, 3``; samples are numpy scalars of the dtype:

    >>> import numpy as np
    >>> from gymspaces import Discrete
    >>> space = Discrete(4, seed=0)
    >>> space.sample()
    np.int64(3)
    >>> space.sample(mask=np.array([1, 1, 0, 0], dtype=np.int8))  # only 0 or 1 allowed
    np.int64(1)
    >>> space.contains(3), space.contains(4)
    (True, False)

    ``start`` shifts the range, ``dtype`` picks the integer type:

    >>> space = Discrete(3, start=-1, dtype=np.int8, seed=0)
    >>> space
    Discrete(3, start=-1, dtype=int8)
    >>> space.sample()
    np.int8(0)
    """

    dtype: np.dtype[IntegerT]
    n: IntegerT
    start: IntegerT

    @overload
    def __init__(
        self,
        n: int | np.integer[Any],
        seed: int | np.random.Generator | None = None,
        start: int | np.integer[Any] = 0,
        *,
        dtype: type[IntegerT] | np.dtype[IntegerT],
    ) -> None: ...
    @overload
    def __init__(
        self: Discrete[Any],
        n: int | np.integer[Any],
        seed: int | np.random.Generator | None = None,
        start: int | np.integer[Any] = 0,
        *,
        dtype: str | type[int],
    ) -> None: ...
    @overload
    def __init__(
        self: Discrete[np.int64],
        n: int | np.integer[Any],
        seed: int | np.random.Generator | None = None,
        start: int | np.integer[Any] = 0,
        dtype: type[np.int64] = np.int64,
    ) -> None: ...
    def __init__(
        self,
        n: int | np.integer[Any],
        seed: int | np.random.Generator | None = None,
        start: int | np.integer[Any] = 0,
        dtype: Any = np.int64,
    ) -> None:
        if not np.issubdtype(type(n), np.integer):
            raise TypeError(f"Expects `n` to be an integer, actual dtype: {type(n)}")
        if n <= 0:
            raise ValueError(f"n (counts) have to be positive, actual value: {n}")
        if not np.issubdtype(type(start), np.integer):
            raise TypeError(f"Expects `start` to be an integer, actual type: {type(start)}")
        if dtype is None:
            raise TypeError(f"Invalid Discrete dtype, cannot be {dtype}.")
        self.dtype = np.dtype(dtype)
        if not np.issubdtype(self.dtype, np.integer):
            raise TypeError(f"Invalid Discrete dtype ({self.dtype}), must be an integer dtype")
        self.n = self.dtype.type(n)
        self.start = self.dtype.type(start)
        super().__init__((), self.dtype, seed)

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Discrete spaces flatten to one-hot vectors (always ``True``).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete
        >>> from gymspaces.utils import flatten
        >>> space = Discrete(3, start=-1)
        >>> space.is_np_flattenable
        True
        >>> flatten(space, np.int64(0))
        array([0, 1, 0])
        """
        return True

    if TYPE_CHECKING:

        def sample(
            self, mask: MaskNDArray | None = None, probability: NDArray[np.float64] | None = None
        ) -> IntegerT:
            """A random element, optionally restricted by a mask or weighted by probabilities."""

    else:
        # Compiled: unmasked sampling is the hottest call of the library.
        sample = _discrete.discrete_sample

    # Batched sampling and membership (not in Gymnasium; see Space.sample_batch).

    def sample_batch(self, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
        """Draw ``n`` samples at once (not in Gymnasium): unmasked, or one masked/weighted draw per row, in C.

        ``mask`` (int8) and ``probability`` (float64) have shape ``(n, space.n)``,
        one row per sample, or ``(space.n,)`` for one argument shared by every
        sample. Returns a 1-D array of ``n`` integers of the space's dtype.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete
        >>> Discrete(3, seed=0).sample_batch(5)
        array([2, 1, 1, 0, 0])

        One action mask per row, e.g. the legal moves of each of 4 environments:

        >>> masks = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]], dtype=np.int8)
        >>> Discrete(3, seed=0).sample_batch(4, mask=masks)
        array([0, 1, 2, 1])
        >>> Discrete(3, seed=0).sample_batch(2, probability=np.array([[1.0, 0, 0], [0, 0.5, 0.5]]))
        array([0, 1])
        """

        count = batch_count(n)
        mask, probability = detach_from_out(mask, out), detach_from_out(probability, out)
        drawn = _discrete.discrete_sample_batch(self, count, mask, probability, out)
        if drawn is None:
            return sample_batch_by_loop(self, count, mask, probability, out)
        return drawn

    def contains_batch(self, batch: Any) -> np.ndarray:
        """Membership of every entry of an array of integers (not in Gymnasium).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete
        >>> Discrete(3, start=1).contains_batch(np.array([0, 1, 3, 4]))
        array([False,  True,  True, False])
        >>> Discrete(3).contains_batch(np.array([0.0, 1.0]))  # floats are never elements
        array([False, False])
        """
        if not numeric_batch(batch):
            return contains_batch_by_items(self, batch)
        n = batch.shape[0]
        if batch.ndim != 1 or not np.issubdtype(batch.dtype, np.integer) or not np.can_cast(batch.dtype, self.dtype):
            return np.zeros(n, dtype=np.bool_)  # items are not integer scalars of a castable dtype
        info = np.iinfo(batch.dtype)
        lowest, past = int(self.start), int(self.start) + int(self.n)
        # Exact bounds in the batch's own dtype (clamped so that they are representable).
        if lowest > info.max or past - 1 < info.min or past <= lowest:
            return np.zeros(n, dtype=np.bool_)
        low = batch.dtype.type(max(lowest, info.min))
        high = batch.dtype.type(min(past - 1, info.max))
        return (batch >= low) & (batch <= high)

    def _batch_row_argument(self, batched: Any, row: int, n: int) -> Any:
        return array_row(batched, 1, row, n)  # a mask has one entry per action

    def _batch_placeholder(self, count: int) -> Any:
        # concatenate stacks the samples themselves (np.stack) when out is None.
        return None

    # Compiled: numpy integer scalars (what sample returns) are checked in C.
    contains = _discrete.discrete_contains

    def _contains_general(self, x: Any) -> bool:
        """Membership rules for any input, as Gymnasium applies them."""
        if isinstance(x, int):
            info = np.iinfo(self.dtype)
            if not info.min <= x <= info.max:
                return False
            value: np.generic | np.ndarray[Any, Any] = self.dtype.type(x)
        elif isinstance(x, (np.generic, np.ndarray)) and (
            np.issubdtype(x.dtype, np.integer) and x.shape == ()
        ):
            value = x
        else:
            return False
        start = int(self.start)
        return bool(start <= int(value) < start + int(self.n)) and bool(
            np.can_cast(value.dtype, self.dtype)
        )

    def __repr__(self) -> str:
        parts = [str(self.n)]
        if self.start != 0:
            parts.append(f"start={self.start}")
        if self.dtype != np.int64:
            parts.append(f"dtype={self.dtype}")
        return f"Discrete({', '.join(parts)})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Discrete)
            and self.n == other.n
            and self.start == other.start
            and self.dtype == other.dtype
        )

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        state = dict(state)
        # Pickles from before ``start`` existed.
        state.setdefault("start", np.int64(0))
        super().__setstate__(state)

    def to_jsonable(self, sample_n: Iterable[Any]) -> list[int]:
        """Samples as Python ints.

        Examples
        --------
        >>> from gymspaces import Discrete
        >>> space = Discrete(5, seed=0)
        >>> space.to_jsonable([space.sample(), space.sample()])
        [4, 3]
        """
        return [int(x) for x in sample_n]

    def from_jsonable(self, sample_n: list[int]) -> list[IntegerT]:
        """Python ints back to scalars of the space's dtype (inverse of :meth:`to_jsonable`).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete
        >>> Discrete(5, dtype=np.int32).from_jsonable([4, 0])
        [np.int32(4), np.int32(0)]
        """
        return [self.dtype.type(x) for x in sample_n]
