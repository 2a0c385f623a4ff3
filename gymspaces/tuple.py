"""The :class:`Tuple` space: the cartesian product of a fixed list of spaces."""

from __future__ import annotations

import collections.abc
import typing
from collections.abc import Iterable
from typing import Any, overload

import numpy as np

from gymspaces import _contains, _jsonable
from gymspaces._composite import (
    SUBSEED_BOUND,
    checked_children,
    chosen_kind,
    combined_contains_batch,
    direct_sample_batch,
    sample_children_batch,
)
from gymspaces._sample_batch import row_argument, sample_batch_by_loop, stacking_placeholder
from gymspaces._typevars import T_cov
from gymspaces.space import Space

__all__ = ["Tuple"]

# ``typing.Sequence`` (not ``collections.abc.Sequence``) puts ``Generic`` right
# after the Sequence ABC in the MRO, as in Gymnasium's Tuple.
class Tuple(Space[tuple[T_cov, ...]], typing.Sequence[Space[T_cov]]):
    """Tuples whose ``i``-th entry is an element of the ``i``-th sub-space.

    Parameters
    ----------
    spaces : iterable of Space
        The factors of the product, in order.
    seed : int, list/tuple of seeds, numpy.random.Generator or None
        An ``int`` seeds the Tuple's generator, which then draws one seed per
        sub-space; a list or tuple gives each sub-space its own seed.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Discrete, Tuple
    >>> space = Tuple((Discrete(2), Box(-1, 1, shape=(2,))), seed=42)
    >>> space
    Tuple(Discrete(2), Box(-1.0, 1.0, (2,), float32))
    >>> space.sample() in space
    True
    >>> space[0], len(space)
    (Discrete(2), 2)
    >>> (1, np.array([0.0, 2.0], dtype=np.float32)) in space  # 2.0 is above the Box's high
    False
    """

    spaces: tuple[Space[T_cov], ...]

    def __init__(
        self,
        spaces: Iterable[Space[T_cov]],
        seed: int | collections.abc.Sequence[Any] | np.random.Generator | None = None,
    ) -> None:
        self.spaces = checked_children(spaces)
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        """True when every sub-space flattens to a Box.

        Examples
        --------
        >>> from gymspaces import Box, Discrete, Sequence, Tuple
        >>> Tuple((Discrete(2), Box(0, 1, shape=(3,)))).is_np_flattenable
        True
        >>> Tuple((Discrete(2), Sequence(Discrete(2)))).is_np_flattenable
        False
        """
        return all(child.is_np_flattenable for child in self.spaces)

    def seed(self, seed: int | collections.abc.Sequence[Any] | None = None) -> tuple[Any, ...]:
        """Seed the sub-spaces and return their seeds as a tuple.

        ``None`` reseeds each sub-space from OS entropy. An ``int`` seeds the
        Tuple's own generator and draws one sub-seed per sub-space from it (the
        generator stays advanced past those draws). A list or tuple holds one
        seed per sub-space and leaves the Tuple's generator untouched.

        Raises
        ------
        ValueError
            If a list/tuple of seeds has the wrong length.
        TypeError
            For any other seed type.

        Examples
        --------
        An ``int`` yields one derived ``int`` seed per sub-space, and
        reseeding replays the same samples:

        >>> from gymspaces import Box, Discrete, Tuple
        >>> space = Tuple((Discrete(3), Box(0, 1, shape=(2,))))
        >>> space.seed(42)
        (191664963, 1662057957)
        >>> space.sample()
        (np.int64(0), array([0.30042136, 0.6082492 ], dtype=float32))
        >>> _ = space.seed(42)
        >>> space.sample()
        (np.int64(0), array([0.30042136, 0.6082492 ], dtype=float32))

        A list or tuple seeds each sub-space directly:

        >>> space.seed([1, 2])
        (1, 2)
        """
        if seed is None:
            seeds = [child.seed(None) for child in self.spaces]
        elif isinstance(seed, int):
            Space.seed(self, seed)
            # The own generator is left advanced past these draws (quirk Q3, docs/quirks.md).
            drawn = self.np_random.integers(SUBSEED_BOUND, size=len(self.spaces))
            seeds = [child.seed(int(value)) for child, value in zip(self.spaces, drawn, strict=True)]
        elif isinstance(seed, (list, tuple)):
            if len(seed) != len(self):
                raise ValueError(
                    "Expects that the subspaces of seeds equals the number of subspaces. "
                    f"Actual length of seeds: {len(seed)}, length of subspaces: {len(self)}"
                )
            seeds = [child.seed(value) for child, value in zip(self.spaces, seed, strict=True)]
        else:
            raise TypeError(
                "Expected seed type: list, tuple, int or None, "
                f"actual type: {type(seed)}"
            )
        return tuple(seeds)

    def sample(
        self, mask: tuple[Any, ...] | None = None, probability: tuple[Any, ...] | None = None
    ) -> tuple[T_cov, ...]:
        """Sample every sub-space in order.

        Parameters
        ----------
        mask, probability : tuple, optional
            One entry (possibly ``None``) per sub-space, handed to that
            sub-space's ``sample``. At most one of the two may be given.

        Examples
        --------
        Mask the Discrete child to action 2 and leave the MultiBinary free:

        >>> import numpy as np
        >>> from gymspaces import Discrete, MultiBinary, Tuple
        >>> space = Tuple((Discrete(3), MultiBinary(2)), seed=0)
        >>> space.sample(mask=(np.array([0, 0, 1], dtype=np.int8), None))
        (np.int64(2), array([1, 1], dtype=int8))
        >>> space.sample(probability=(np.array([0, 0, 1.0]), np.array([1.0, 0.0])))
        (np.int64(2), array([1, 0], dtype=int8))
        """
        if mask is None and probability is None:
            return tuple([child.sample() for child in self.spaces])
        kind, parts = chosen_kind(mask, probability)
        assert isinstance(parts, tuple), (
            f"Expected type of `{kind}` to be tuple, actual type: {type(parts)}"
        )
        assert len(parts) == len(self.spaces), (
            f"Expected length of `{kind}` to be {len(self.spaces)}, actual length: {len(parts)}"
        )
        return tuple(
            [child.sample(**{kind: part}) for child, part in zip(self.spaces, parts, strict=True)]
        )

    # Batched sampling and membership (not in Gymnasium; see Space.sample_batch).

    def sample_batch(self, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
        """Draw ``n`` samples at once (not in Gymnasium): a tuple of the children's batches.

        ``mask``/``probability`` is a tuple holding each child's batched argument
        (or ``None``). The result equals ``n`` successive :meth:`Tuple.sample`
        calls, stacked child by child.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, MultiBinary, Tuple
        >>> space = Tuple((Discrete(3), MultiBinary(2)), seed=0)
        >>> actions, bits = space.sample_batch(3)
        >>> actions.shape, bits.shape
        ((3,), (3, 2))
        >>> rows = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0]], dtype=np.int8)
        >>> space.sample_batch(3, mask=(rows, None))[0]  # one Discrete mask per row
        array([2, 1, 0])
        """
        children = self.spaces
        direct = direct_sample_batch(self, children, n, mask, probability, out)
        if direct is not None:
            return direct

        def matches(parts: Any) -> bool:
            return isinstance(parts, tuple) and len(parts) == len(children)

        batches = sample_children_batch(self, n, mask, probability, out, list(enumerate(children)), matches, matches)
        if batches is None:
            return sample_batch_by_loop(self, n, mask, probability, out)
        return tuple(batches)

    def contains_batch(self, batch: Any) -> np.ndarray:
        """Membership of every row (not in Gymnasium): the children's answers, combined row by row.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, MultiBinary, Tuple
        >>> space = Tuple((Discrete(3), MultiBinary(2)))
        >>> space.contains_batch((np.array([0, 3]), np.array([[0, 1], [1, 1]], dtype=np.int8)))
        array([ True, False])
        """
        if not isinstance(batch, tuple) or len(batch) != len(self.spaces):
            raise TypeError(f"a batch of a Tuple space must be a tuple of {len(self.spaces)} child batches")
        return combined_contains_batch(self, batch, zip(self.spaces, batch))

    def _batch_row_argument(self, batched: Any, row: int, n: int) -> Any:
        if not isinstance(batched, tuple) or len(batched) != len(self.spaces):
            raise TypeError(
                f"a batched Tuple mask must be a tuple of {len(self.spaces)} entries, actual: {type(batched)}"
            )
        return tuple(row_argument(child, part, row, n) for child, part in zip(self.spaces, batched))

    def _batch_placeholder(self, count: int) -> Any:
        return tuple(stacking_placeholder(child, count) for child in self.spaces)

    # Compiled: the whole tree is walked in one call (children's built-in checks in C).
    contains = _contains.tuple_contains

    def __repr__(self) -> str:
        inner = ", ".join(str(child) for child in self.spaces)
        return f"Tuple({inner})"

    def to_jsonable(self, sample_n: Iterable[tuple[Any, ...]]) -> list[Any]:
        """A batch of samples as one JSON-able list per sub-space.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, MultiBinary, Tuple
        >>> space = Tuple((Discrete(3), MultiBinary(2)))
        >>> samples = [(np.int64(1), np.array([0, 1], dtype=np.int8)),
        ...            (np.int64(2), np.array([1, 1], dtype=np.int8))]
        >>> space.to_jsonable(samples)
        [[1, 2], [[0, 1], [1, 1]]]
        """
        if type(self.spaces) is tuple:
            # Columns of built-in leaves are converted in C (same objects).
            return _jsonable.tuple_to_jsonable(self.spaces, sample_n)
        columns = []
        for index, child in enumerate(self.spaces):
            columns.append(child.to_jsonable([sample[index] for sample in sample_n]))
        return columns

    def from_jsonable(self, sample_n: list[Any]) -> list[tuple[Any, ...]]:
        """Inverse of :meth:`to_jsonable`: a list of tuples.

        Examples
        --------
        >>> from gymspaces import Discrete, MultiBinary, Tuple
        >>> space = Tuple((Discrete(3), MultiBinary(2)))
        >>> space.from_jsonable([[1, 2], [[0, 1], [1, 1]]])
        [(np.int64(1), array([0, 1], dtype=int8)), (np.int64(2), array([1, 1], dtype=int8))]
        """
        columns = [child.from_jsonable(sample_n[i]) for i, child in enumerate(self.spaces)]
        return list(zip(*columns, strict=True))

    @overload
    def __getitem__(self, index: int) -> Space[T_cov]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Space[T_cov], ...]: ...

    def __getitem__(self, index: int | slice) -> Space[T_cov] | tuple[Space[T_cov], ...]:
        """The sub-space at ``index`` (a tuple of sub-spaces for a slice)."""
        children = self.spaces
        return children[index]

    def __len__(self) -> int:
        children = self.spaces
        return len(children)

    def __eq__(self, other: object, /) -> bool:
        if not isinstance(other, Tuple):
            return False
        return self.spaces == other.spaces
