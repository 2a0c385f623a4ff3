"""The :class:`MultiBinary` space: arrays of zeros and ones."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces import _multi_binary
from gymspaces._sample_batch import (
    all_rows,
    array_row,
    contains_batch_by_items,
    numeric_batch,
    sample_batch_compiled,
)
from gymspaces.space import Space

__all__ = ["MultiBinary"]


class MultiBinary(Space[np.ndarray[Any, np.dtype[np.int8]]]):
    """Binary arrays of a fixed shape, stored as ``int8``.

    Parameters
    ----------
    n : int or sequence of int
        Length of a 1-D space, or the shape of a multi-dimensional one. A numpy
        integer is rejected, as in Gymnasium.
    seed : int, numpy.random.Generator or None
        Seed of the space's generator.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import MultiBinary
    >>> space = MultiBinary(4, seed=0)  # e.g. four on/off switches
    >>> space.sample()
    array([0, 1, 1, 1], dtype=int8)
    >>> space.contains(np.array([1, 0, 0, 1])), space.contains(np.array([1, 2, 0, 1]))
    (True, False)
    >>> MultiBinary([2, 3], seed=0).sample()
    array([[0, 1, 1],
           [1, 1, 1]], dtype=int8)
    """

    dtype: np.dtype
    n: int | tuple[int, ...]

    def __init__(
        self,
        n: NDArray[np.integer] | Sequence[int] | int,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        if isinstance(n, int):
            self.n = n = int(n)
            shape: tuple[int, ...] = (n,)
        elif isinstance(n, (Sequence, np.ndarray)):
            self.n = shape = tuple(int(i) for i in n)
        else:
            raise ValueError(f"Expected n to be an int or a sequence of ints, actual type: {type(n)}")
        if not (np.asarray(shape) > 0).all():
            raise ValueError(f"n (counts) have to be positive, got {n}")
        super().__init__(shape, np.int8, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of the space's elements (``(n,)`` for an int ``n``).

        Examples
        --------
        >>> from gymspaces import MultiBinary
        >>> MultiBinary(5).shape, MultiBinary([2, 3]).shape
        ((5,), (2, 3))
        """
        return self._shape  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """MultiBinary spaces flatten to 1-D int8 vectors (always ``True``).

        Examples
        --------
        >>> from gymspaces import MultiBinary
        >>> from gymspaces.utils import flatten_space
        >>> space = MultiBinary([2, 3])
        >>> space.is_np_flattenable
        True
        >>> flatten_space(space)
        Box(0, 1, (6,), int8)
        """
        return True

    # Compiled: numpy's 8-bit bounded fill on the space's bit generator.
    sample = _multi_binary.multi_binary_sample

    # Batched sampling and membership (not in Gymnasium; see Space.sample_batch).

    def sample_batch(self, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
        """Draw ``n`` samples at once (not in Gymnasium): unmasked batches in one compiled call.

        Returns an int8 array of shape ``(n, *space.shape)``. A mask (int8, 0 or
        1 forces the bit, 2 leaves it random) or a probability of the bit being 1
        has shape ``(n, *space.shape)`` or ``space.shape`` (shared by every row);
        masked batches are drawn in C, probabilities sample by sample.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import MultiBinary
        >>> MultiBinary(3, seed=0).sample_batch(2)
        array([[0, 1, 1],
               [1, 1, 0]], dtype=int8)
        >>> mask = np.array([[0, 1, 2], [1, 0, 2]], dtype=np.int8)
        >>> MultiBinary(3, seed=0).sample_batch(2, mask=mask)
        array([[0, 1, 1],
               [1, 0, 0]], dtype=int8)
        """

        return sample_batch_compiled(
            self, n, mask, probability, out,
            _multi_binary.multi_binary_sample_batch, _multi_binary.multi_binary_masked_batch,
        )

    def contains_batch(self, batch: Any) -> np.ndarray:
        """Membership of every row (not in Gymnasium): shape and 0/1 entries checked at once.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import MultiBinary
        >>> MultiBinary(3).contains_batch(np.array([[0, 1, 1], [0, 2, 1]], dtype=np.int8))
        array([ True, False])
        """
        # A 0-d self's items are numpy scalars, which contains rejects (it wants arrays).
        if not numeric_batch(batch) or self.shape == ():
            return contains_batch_by_items(self, batch)
        if batch.shape[1:] != self.shape:
            return np.zeros(batch.shape[0], dtype=np.bool_)
        return all_rows(batch, np.logical_or(batch == 0, batch == 1))

    def _batch_row_argument(self, batched: Any, row: int, n: int) -> Any:
        return array_row(batched, len(self.shape), row, n)

    def _batch_placeholder(self, count: int) -> Any:
        # concatenate stacks the samples themselves (np.stack) when out is None.
        return None

    contains = _multi_binary.multi_binary_contains

    def to_jsonable(self, sample_n: Iterable[NDArray[np.int8]]) -> list[Any]:
        """Samples as nested lists of ints.

        Examples
        --------
        >>> from gymspaces import MultiBinary
        >>> space = MultiBinary(3, seed=0)
        >>> space.to_jsonable([space.sample(), space.sample()])
        [[0, 1, 1], [1, 1, 0]]
        """
        return np.array(list(sample_n)).tolist()

    def from_jsonable(self, sample_n: list[Any]) -> list[NDArray[np.int8]]:
        """Nested lists back to int8 arrays (inverse of :meth:`to_jsonable`).

        Examples
        --------
        >>> from gymspaces import MultiBinary
        >>> MultiBinary(3).from_jsonable([[0, 1, 1], [1, 0, 0]])
        [array([0, 1, 1], dtype=int8), array([1, 0, 0], dtype=int8)]
        """
        return [np.asarray(sample, self.dtype) for sample in sample_n]

    def __repr__(self) -> str:
        return f"MultiBinary({self.n})"

    def __eq__(self, other: object) -> bool:
        # ``n`` is compared as given: MultiBinary(5) != MultiBinary([5])
        # (quirk Q17, docs/quirks.md).
        return isinstance(other, MultiBinary) and self.n == other.n
