"""The :class:`MultiDiscrete` space: arrays of independent discrete choices."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, overload

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces._arguments import check_mask_or_probability
from gymspaces import _multi_discrete
from gymspaces._sample_batch import (
    all_rows,
    array_row,
    contains_batch_by_items,
    numeric_batch,
    sample_batch_compiled,
)
from gymspaces._warnings import warn
from gymspaces.discrete import Discrete
from gymspaces._typevars import IntegerT
from gymspaces.space import MaskNDArray, Space

__all__ = ["MultiDiscrete"]


def _mask_row(batched: Any, nvec: np.ndarray, row: int, n: int) -> Any:
    """Row ``row`` of a batched mask: a tuple mirroring ``nvec`` whose leaves have a batch axis."""
    if nvec.ndim == 0:
        return array_row(batched, 1, row, n)  # a leaf mask has one entry per action
    if not isinstance(batched, tuple) or len(batched) != len(nvec):
        raise TypeError(f"a batched MultiDiscrete mask must be a tuple of {len(nvec)} entries")
    return tuple(_mask_row(part, sub, row, n) for part, sub in zip(batched, nvec))


class MultiDiscrete(Space[np.ndarray[Any, np.dtype[IntegerT]]], Generic[IntegerT]):
    """Arrays whose entry ``i`` lies in ``start[i], ..., start[i] + nvec[i] - 1``.

    Parameters
    ----------
    nvec : array_like of int
        Number of choices per entry (any shape, all positive).
    dtype : integer dtype
        dtype of samples.
    seed : int, numpy.random.Generator or None
        Seed of the space's generator.
    start : array_like of int, optional
        Smallest value per entry (zeros by default).

    Examples
    --------
    A gamepad with a 5-way arrow pad and two buttons:

    >>> import numpy as np
    >>> from gymspaces import MultiDiscrete
    >>> space = MultiDiscrete([5, 2, 2], seed=0)
    >>> space
    MultiDiscrete([5 2 2])
    >>> space.sample()
    array([3, 0, 0])
    >>> space.contains(np.array([4, 0, 1])), space.contains(np.array([5, 0, 1]))
    (True, False)

    ``start`` offsets each entry, and ``nvec`` may have any shape:

    >>> MultiDiscrete([3, 3], start=[-1, 10], seed=0).sample()
    array([ 0, 10])
    >>> MultiDiscrete([[2, 3], [4, 5]], seed=0).sample().shape
    (2, 2)
    """

    dtype: np.dtype[IntegerT]
    nvec: NDArray[IntegerT]
    start: NDArray[IntegerT]

    @overload
    def __init__(
        self: MultiDiscrete[np.int64],
        nvec: NDArray[np.integer[Any]] | list[int],
        dtype: type[np.int64] = np.int64,
        seed: int | np.random.Generator | None = None,
        start: NDArray[np.integer[Any]] | list[int] | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self,
        nvec: NDArray[np.integer[Any]] | list[int],
        dtype: type[IntegerT] | np.dtype[IntegerT],
        seed: int | np.random.Generator | None = None,
        start: NDArray[np.integer[Any]] | list[int] | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: MultiDiscrete[Any],
        nvec: NDArray[np.integer[Any]] | list[int],
        dtype: str | type[int],
        seed: int | np.random.Generator | None = None,
        start: NDArray[np.integer[Any]] | list[int] | None = None,
    ) -> None: ...
    def __init__(
        self,
        nvec: NDArray[np.integer[Any]] | list[int],
        dtype: Any = np.int64,
        seed: int | np.random.Generator | None = None,
        start: NDArray[np.integer[Any]] | list[int] | None = None,
    ) -> None:
        if dtype is None:
            raise ValueError("MultiDiscrete dtype must be explicitly provided, cannot be None.")
        self.dtype = np.dtype(dtype)
        if not np.issubdtype(self.dtype, np.integer):
            raise ValueError(f"Invalid MultiDiscrete dtype ({self.dtype}), must be an integer dtype")
        self.nvec = np.array(nvec, dtype=dtype, copy=True)
        if start is not None:
            self.start = np.array(start, dtype=dtype, copy=True)
        else:
            self.start = np.zeros(self.nvec.shape, dtype=dtype)
        if self.start.shape != self.nvec.shape:
            raise ValueError(
                "start and nvec (counts) should have the same shape, "
                f"got {self.start.shape} and {self.nvec.shape}"
            )
        if not (self.nvec > 0).all():
            raise ValueError("nvec (counts) have to be positive")
        super().__init__(self.nvec.shape, self.dtype, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of the space's elements (that of ``nvec``).

        Examples
        --------
        >>> from gymspaces import MultiDiscrete
        >>> MultiDiscrete([[2, 3, 4], [5, 6, 7]]).shape
        (2, 3)
        """
        return self._shape  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """MultiDiscrete spaces flatten to concatenated one-hot vectors (always ``True``).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import MultiDiscrete
        >>> from gymspaces.utils import flatten
        >>> space = MultiDiscrete([3, 2])
        >>> space.is_np_flattenable
        True
        >>> flatten(space, np.array([2, 1]))
        array([0, 0, 1, 0, 1])
        """
        return True

    if TYPE_CHECKING:

        def sample(
            self,
            mask: tuple[MaskNDArray, ...] | None = None,
            probability: tuple[NDArray[np.float64], ...] | None = None,
        ) -> NDArray[IntegerT]:
            """A random element; ``mask``/``probability`` mirror ``nvec`` (tuples of arrays)."""

    else:
        # Compiled entry point: unmasked samples go straight to the kernel.
        sample = _multi_discrete.multi_discrete_sample_entry

    def _sample_masked(self, mask: Any, probability: Any) -> NDArray[Any]:
        """Masked or weighted sampling (see :meth:`sample`), leaf by leaf."""
        check_mask_or_probability(mask, probability)
        # Called through MultiDiscrete, not looked up on ``self``: patch mode runs
        # this on Gymnasium's class, from which another thread's unpatch() may
        # remove the helper while this call runs.
        leaves = MultiDiscrete._sample_leaves
        if mask is not None:
            return np.array(leaves(self, mask, self.nvec, self.start, False), dtype=self.dtype)
        return np.array(leaves(self, probability, self.nvec, self.start, True), dtype=self.dtype)

    def _sample_leaves(self, sub_mask: Any, sub_nvec: Any, sub_start: Any, weighted: bool) -> Any:
        """Walk the mask tree alongside ``nvec``; leaves are drawn depth-first (C order)."""
        if isinstance(sub_nvec, np.ndarray):
            assert isinstance(sub_mask, tuple), (
                f"Expects the mask to be a tuple for sub_nvec ({sub_nvec}), "
                f"actual type: {type(sub_mask)}"
            )
            assert len(sub_mask) == len(sub_nvec), (
                "Expects the mask length to be equal to the number of actions, "
                f"mask length: {len(sub_mask)}, nvec length: {len(sub_nvec)}"
            )
            assert isinstance(sub_start, np.ndarray)
            return [
                MultiDiscrete._sample_leaves(self, leaf_mask, leaf_nvec, leaf_start, weighted)
                for leaf_mask, leaf_nvec, leaf_start in zip(sub_mask, sub_nvec, sub_start, strict=True)
            ]
        return _multi_discrete.multi_discrete_leaf(self, sub_mask, sub_nvec, sub_start, weighted)

    # Uniform ``nvec``/``start`` pickle as one element each.
    _compact_arrays = ("nvec", "start")

    # Batched sampling and membership (not in Gymnasium; see Space.sample_batch).

    def sample_batch(self, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
        """Draw ``n`` samples at once (not in Gymnasium): unmasked batches in one compiled call.

        Returns an array of shape ``(n, *nvec.shape)``. A mask (or probability)
        is a tuple mirroring ``nvec`` whose leaves have shape ``(n, k)`` (one row
        per sample) or ``(k,)`` (shared by every sample); unmasked and masked batches
        are drawn in C, probabilities sample by sample.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import MultiDiscrete
        >>> MultiDiscrete([2, 3], seed=0).sample_batch(3)
        array([[1, 0],
               [0, 0],
               [1, 2]])

        Per-row masks for the first entry, one shared mask (only 2) for the second:

        >>> first = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.int8)
        >>> second = np.array([0, 0, 1], dtype=np.int8)
        >>> MultiDiscrete([2, 3], seed=0).sample_batch(3, mask=(first, second))
        array([[0, 2],
               [1, 2],
               [1, 2]])
        """

        return sample_batch_compiled(
            self, n, mask, probability, out,
            _multi_discrete.multi_discrete_sample_batch, _multi_discrete.multi_discrete_masked_batch,
        )

    def contains_batch(self, batch: Any) -> np.ndarray:
        """Membership of every row (not in Gymnasium): shape, castability and range checked at once.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import MultiDiscrete
        >>> MultiDiscrete([2, 3]).contains_batch(np.array([[1, 2], [2, 0], [0, 0]]))
        array([ True, False,  True])
        """
        # A 0-d nvec's items are numpy scalars, which contains rejects (it wants arrays).
        if not numeric_batch(batch) or self.shape == ():
            return contains_batch_by_items(self, batch)
        if batch.shape[1:] != self.shape or not np.can_cast(batch.dtype, self.dtype):
            return np.zeros(batch.shape[0], dtype=np.bool_)
        return all_rows(batch, (self.start <= batch) & (batch <= self.start + (self.nvec - 1)))

    def _batch_row_argument(self, batched: Any, row: int, n: int) -> Any:
        return _mask_row(batched, self.nvec, row, n)

    def _batch_placeholder(self, count: int) -> Any:
        # concatenate stacks the samples themselves (np.stack) when out is None.
        return None

    # Compiled: integer arrays are checked in C.
    contains = _multi_discrete.multi_discrete_contains

    def _contains_general(self, x: Any) -> bool:
        """Membership rules for any input, as Gymnasium applies them."""
        if isinstance(x, Sequence):
            x = np.array(x)
        return bool(
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and np.can_cast(x.dtype, self.dtype)
            and np.all(self.start <= x)
            and np.all(x <= self.start + (self.nvec - 1))
        )

    def to_jsonable(self, sample_n: Iterable[NDArray[Any]]) -> list[Any]:
        """Samples as nested lists.

        Examples
        --------
        >>> from gymspaces import MultiDiscrete
        >>> space = MultiDiscrete([3, 2], seed=0)
        >>> space.to_jsonable([space.sample(), space.sample()])
        [[1, 0], [0, 0]]
        """
        return [sample.tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[NDArray[Any]]:
        """Nested lists back to arrays of the space's dtype (inverse of :meth:`to_jsonable`).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import MultiDiscrete
        >>> MultiDiscrete([3, 2], dtype=np.int32).from_jsonable([[2, 1], [0, 0]])
        [array([2, 1], dtype=int32), array([0, 0], dtype=int32)]
        """
        return [np.array(sample, dtype=self.dtype) for sample in sample_n]

    def __repr__(self) -> str:
        if np.any(self.start != 0):
            return f"MultiDiscrete({self.nvec}, start={self.start})"
        return f"MultiDiscrete({self.nvec})"

    def __getitem__(self, index: int | tuple[int, ...]) -> Discrete[IntegerT] | MultiDiscrete[IntegerT]:
        """The sub-space at ``index``; it continues this space's random stream.

        The sub-space gets a copy of this space's generator state, so it replays
        the draws this space makes next (:quirk:`Q28`).
        """
        nvec = self.nvec[index]
        start = self.start[index]
        if nvec.ndim == 0:
            subspace: Discrete[IntegerT] | MultiDiscrete[IntegerT] = Discrete(nvec, start=start, dtype=self.dtype)
        else:
            subspace = MultiDiscrete(nvec, start=start, dtype=self.dtype)
        subspace.np_random.bit_generator.state = self.np_random.bit_generator.state
        return subspace

    def __len__(self) -> int:
        if self.nvec.ndim >= 2:
            warn("Getting the length of a multi-dimensional MultiDiscrete space.")
        return len(self.nvec)

    def __eq__(self, other: object) -> bool:
        return bool(
            isinstance(other, MultiDiscrete)
            and self.dtype == other.dtype
            and self.shape == other.shape
            and np.all(self.nvec == other.nvec)
            and np.all(self.start == other.start)
        )

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        state = dict(state)
        # Pickles from before ``start`` existed.
        if "start" not in state:
            state["start"] = np.zeros(state["_shape"], dtype=state["dtype"])
        super().__setstate__(state)
