"""The :class:`OneOf` space: an element of exactly one of several spaces."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic

import numpy as np

from gymspaces import _graph
from gymspaces._typevars import T_cov
from gymspaces.space import Space
from gymspaces._composite import SUBSEED_BOUND, checked_children, chosen_kind

__all__ = ["OneOf"]


# Gymnasium annotates elements as ``tuple[int, T]``; sample() gives an ``np.int64`` index.
class OneOf(Space[tuple[int | np.int64, T_cov]], Generic[T_cov]):
    """Pairs ``(index, value)`` where ``value`` belongs to ``spaces[index]``.

    Parameters
    ----------
    spaces : iterable of Space
        The alternatives (at least one).
    seed : int, tuple of seeds, numpy.random.Generator or None
        An ``int`` seeds the OneOf's generator (used for the index), which
        also draws one seed per sub-space; a tuple ``(own, *subseeds)`` seeds
        each one directly.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Discrete, OneOf
    >>> space = OneOf((Discrete(2), Box(-1, 1, shape=(2,))), seed=123)
    >>> space.sample()
    (np.int64(0), np.int64(0))
    >>> len(space), space[1]
    (2, Box(-1.0, 1.0, (2,), float32))
    >>> (0, np.int64(1)) in space, (0, np.int64(2)) in space  # Discrete(2) holds 0 and 1
    (True, False)
    """

    spaces: tuple[Space[T_cov], ...]

    def __init__(
        self,
        spaces: Iterable[Space[T_cov]],
        seed: int | tuple[Any, ...] | np.random.Generator | None = None,
    ) -> None:
        if not isinstance(spaces, Iterable):
            raise TypeError(f"{spaces} is not an iterable")
        children = checked_children(spaces)
        if len(children) == 0:
            raise ValueError("Empty `OneOf` spaces are not supported.")
        self.spaces = children
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        """True when every sub-space flattens to a Box.

        Examples
        --------
        >>> from gymspaces import Box, Discrete, OneOf, Sequence
        >>> OneOf((Discrete(3), Box(-1, 1, shape=(2,)))).is_np_flattenable
        True
        >>> OneOf((Discrete(3), Sequence(Discrete(2)))).is_np_flattenable
        False
        """
        return all(child.is_np_flattenable for child in self.spaces)

    def seed(self, seed: int | tuple[Any, ...] | list[Any] | None = None) -> tuple[Any, ...]:
        """Seed the OneOf's generator and every sub-space; return all seeds.

        ``None`` reseeds everything from OS entropy. An ``int`` seeds the OneOf,
        draws one sub-seed per sub-space from it, then reseeds the OneOf with
        the same ``int``. A list/tuple holds the OneOf's seed followed by one
        seed per sub-space.

        Raises
        ------
        ValueError
            If a list/tuple of seeds does not have ``len(spaces) + 1`` entries.
        TypeError
            For any other seed type.

        Examples
        --------
        An ``int`` returns ``(int, one derived seed per sub-space)``;
        reseeding replays the same samples:

        >>> from gymspaces import Discrete, MultiBinary, OneOf
        >>> space = OneOf((Discrete(3), MultiBinary(2)))
        >>> space.seed(2)
        (2, 1798679647, 561807779)
        >>> space.sample(), space.sample()
        ((np.int64(1), array([1, 1], dtype=int8)), (np.int64(0), np.int64(1)))
        >>> _ = space.seed(2)
        >>> space.sample()
        (np.int64(1), array([1, 1], dtype=int8))
        >>> space.seed((1, 2, 3))  # (index seed, Discrete seed, MultiBinary seed)
        (1, 2, 3)
        """
        children = self.spaces
        if seed is None:
            own = Space.seed(self, None)
            return (own, *[child.seed(None) for child in children])
        if isinstance(seed, int):
            own = Space.seed(self, seed)
            drawn = self.np_random.integers(SUBSEED_BOUND, size=len(children))
            Space.seed(self, seed)  # back to the state a direct int seed gives
            return (own, *[child.seed(int(value)) for child, value in zip(children, drawn)])
        if not isinstance(seed, (list, tuple)):
            raise TypeError(f"Expected None, int, or tuple of ints, actual type: {type(seed)}")
        if len(seed) != 1 + len(children):
            raise ValueError(
                "Expects that the subspaces of seeds equals the number of subspaces + 1. "
                f"Actual length of seeds: {len(seed)}, length of subspaces: {len(children)}"
            )
        own = Space.seed(self, seed[0])
        return (own, *[child.seed(value) for child, value in zip(children, seed[1:])])

    def sample(
        self, mask: tuple[Any, ...] | None = None, probability: tuple[Any, ...] | None = None
    ) -> tuple[np.int64, T_cov]:
        """Choose a sub-space uniformly, then sample it.

        Parameters
        ----------
        mask, probability : tuple, optional
            One entry per sub-space; only the chosen sub-space's entry is used.

        Notes
        -----
        The index is drawn before the arguments are checked, so even a call
        that raises consumes it (:quirk:`Q7`).

        Examples
        --------
        Whichever sub-space is chosen, its own mask applies:

        >>> import numpy as np
        >>> from gymspaces import Discrete, MultiBinary, OneOf
        >>> space = OneOf((Discrete(3), MultiBinary(2)), seed=1)
        >>> mask = (np.array([0, 0, 1], dtype=np.int8), np.array([1, 1], dtype=np.int8))
        >>> space.sample(mask=mask)
        (np.int64(0), np.int64(2))
        >>> space.sample(mask=mask)
        (np.int64(1), array([1, 1], dtype=int8))
        """
        index = np.int64(_graph.integers_below(self, len(self.spaces)))
        chosen = self.spaces[index]
        if mask is None and probability is None:
            return index, chosen.sample()
        kind, parts = chosen_kind(mask, probability)
        assert isinstance(parts, tuple), (
            f"Expected type of `{kind}` is tuple, actual type: {type(parts)}"
        )
        assert len(parts) == len(self.spaces), (
            f"Expected length of `{kind}` is {len(self.spaces)}, actual length: {len(parts)}"
        )
        return index, chosen.sample(**{kind: parts[index]})

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is ``(index, value)`` with a valid index and ``value`` in that sub-space.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, MultiBinary, OneOf
        >>> space = OneOf((Discrete(3), MultiBinary(2)))
        >>> space.contains((1, np.array([0, 1], dtype=np.int8)))
        True
        >>> space.contains((0, np.array([0, 1], dtype=np.int8)))  # not an element of Discrete(3)
        False
        >>> space.contains((np.int32(0), 1))  # the index must be an int or np.int64
        False
        """
        if not isinstance(x, tuple) or len(x) != 2:
            return False
        index, value = x
        # Other numpy integer types are rejected, as in Gymnasium.
        # As in Gymnasium, an np.int64 index out of range gives np.False_ (not a bool).
        return (
            isinstance(index, (int, np.int64))  # type: ignore[return-value]
            and 0 <= index < len(self.spaces)
            and self.spaces[index].contains(value)
        )

    def __repr__(self) -> str:
        inner = ", ".join(str(child) for child in self.spaces)
        return f"OneOf({inner})"

    def to_jsonable(self, sample_n: Iterable[tuple[Any, Any]]) -> list[Any]:
        """Each sample as ``[index, jsonable value]``.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, MultiBinary, OneOf
        >>> space = OneOf((Discrete(3), MultiBinary(2)))
        >>> samples = [(np.int64(0), np.int64(2)), (np.int64(1), np.array([1, 0], dtype=np.int8))]
        >>> space.to_jsonable(samples)
        [[0, 2], [1, [1, 0]]]
        """
        return [[int(i), self.spaces[i].to_jsonable([value])[0]] for i, value in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[tuple[Any, Any]]:
        """Inverse of :meth:`to_jsonable`; indices come back as ``np.int64``.

        Examples
        --------
        >>> from gymspaces import Discrete, MultiBinary, OneOf
        >>> space = OneOf((Discrete(3), MultiBinary(2)))
        >>> space.from_jsonable([[0, 2], [1, [1, 0]]])
        [(np.int64(0), np.int64(2)), (np.int64(1), array([1, 0], dtype=int8))]
        """
        return [
            (np.int64(i), self.spaces[i].from_jsonable([value])[0]) for i, value in sample_n
        ]

    def __getitem__(self, index: int) -> Space[T_cov]:
        """The sub-space at ``index``."""
        children = self.spaces
        return children[index]

    def __len__(self) -> int:
        children = self.spaces
        return len(children)

    def __eq__(self, other: object, /) -> bool:
        if not isinstance(other, OneOf):
            return False
        return self.spaces == other.spaces
