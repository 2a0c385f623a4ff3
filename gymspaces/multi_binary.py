"""The :class:`MultiBinary` space: arrays of zeros and ones."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces import _batching, _multi_binary
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
    >>> from gymspaces import MultiBinary
    >>> MultiBinary([2, 3], seed=0).sample().shape
    (2, 3)
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
        """Shape of the space's elements."""
        return self._shape  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """MultiBinary spaces flatten to 1-D int8 vectors."""
        return True

    # Compiled: numpy's 8-bit bounded fill on the space's bit generator.
    sample = _multi_binary.multi_binary_sample

    # Batched sampling and membership (not in Gymnasium; see Space.sample_batch).
    sample_batch = _batching.multi_binary_sample_batch
    contains_batch = _batching.multi_binary_contains_batch

    def contains(self, x: Any) -> bool:
        """Whether ``x`` (an array, or a list/tuple converted to one) has the shape and only 0s and 1s."""
        if isinstance(x, Sequence):
            x = np.array(x)
        return bool(
            isinstance(x, np.ndarray)
            and self.shape == x.shape
            and np.all(np.logical_or(x == 0, x == 1))
        )

    def to_jsonable(self, sample_n: Iterable[NDArray[np.int8]]) -> list[Any]:
        """Samples as nested lists of ints."""
        return np.array(list(sample_n)).tolist()

    def from_jsonable(self, sample_n: list[Any]) -> list[NDArray[np.int8]]:
        """Nested lists back to int8 arrays."""
        return [np.asarray(sample, self.dtype) for sample in sample_n]

    def __repr__(self) -> str:
        return f"MultiBinary({self.n})"

    def __eq__(self, other: object) -> bool:
        # ``n`` is compared as given: MultiBinary(5) != MultiBinary([5]) (quirk Q17).
        return isinstance(other, MultiBinary) and self.n == other.n
