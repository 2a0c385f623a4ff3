"""The :class:`Sequence` space: finite sequences of elements of one feature space."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces import _batching
from gymspaces.space import Space, is_space
from gymspaces._composite import SUBSEED_BOUND, chosen_kind

__all__ = ["Sequence"]

# Success probability of the geometric distribution of default lengths (mean 4).
_LENGTH_P = 0.25

class Sequence(Space[Any]):
    """Tuples of any length whose items all belong to ``space``.

    Parameters
    ----------
    space : Space
        The feature space of every item.
    seed : int, pair of seeds, numpy.random.Generator or None
        An ``int`` seeds the Sequence's generator (used for lengths), which
        also draws the feature space's seed; a pair seeds both directly.
    stack : bool
        Return samples stacked into one batch (e.g. an array of shape
        ``(length, *feature_shape)`` for a Box) instead of a tuple.

    Examples
    --------
    >>> from gymspaces import Box, Discrete, Sequence
    >>> space = Sequence(Box(0, 1), seed=0)
    >>> len(space.sample())
    3
    >>> Sequence(Box(0, 1), stack=True, seed=0).sample().shape
    (3, 1)
    >>> Sequence(Discrete(4)).contains((1, 3, 0)), Sequence(Discrete(4)).contains((1, 4))
    (True, False)
    """

    feature_space: Space[Any]
    stack: bool
    stacked_feature_space: Space[Any]

    def __init__(
        self,
        space: Space[Any],
        seed: int | tuple[Any, Any] | np.random.Generator | None = None,
        stack: bool = False,
    ) -> None:
        if not is_space(space):
            raise TypeError(
                "Expects the feature space to be instance of a gym Space, "
                f"actual type: {type(space)}"
            )
        self.feature_space, self.stack = space, stack
        if stack:
            # Only stacked sequences carry the batched feature space; building
            # it reads (and may lazily seed) the feature space's generator.
            self.stacked_feature_space = _batching.batch_space(space, 1)
        super().__init__(shape=None, dtype=None, seed=seed)

    def seed(self, seed: int | tuple[Any, Any] | list[Any] | None = None) -> tuple[Any, Any]:
        """Seed the Sequence's generator and the feature space; return both seeds.

        ``None`` reseeds both from OS entropy. An ``int`` seeds the Sequence,
        draws the feature space's seed from it, then reseeds the Sequence with
        the same ``int`` (so it ends as if seeded directly). A pair
        ``(sequence_seed, feature_seed)`` seeds each one.

        Raises
        ------
        ValueError
            If a list/tuple of seeds does not hold exactly two entries.
        TypeError
            For any other seed type.

        Examples
        --------
        An ``int`` returns ``(int, derived feature seed)``; reseeding replays
        the same lengths and items:

        >>> from gymspaces import Discrete, Sequence
        >>> space = Sequence(Discrete(4))
        >>> space.seed(42)
        (42, 191664963)
        >>> first = space.sample()
        >>> _ = space.seed(42)
        >>> space.sample() == first
        True
        >>> space.seed((1, 2))  # (length seed, feature seed)
        (1, 2)
        """
        feature = self.feature_space
        if seed is None:
            return Space.seed(self, None), feature.seed(None)
        if isinstance(seed, int):
            own = Space.seed(self, seed)
            feature_seed = int(self.np_random.integers(SUBSEED_BOUND))
            Space.seed(self, seed)  # back to the state a direct int seed gives
            return own, feature.seed(feature_seed)
        if not isinstance(seed, (list, tuple)):
            raise TypeError(f"Expected None, int, tuple of ints, actual type: {type(seed)}")
        if len(seed) == 2:
            return Space.seed(self, seed[0]), feature.seed(seed[1])
        raise ValueError(
            "Expects the seed to have two elements for the Sequence and feature space, "
            f"actual length: {len(seed)}"
        )

    @property
    def is_np_flattenable(self) -> Literal[False]:
        """Sequences have no fixed size, so they never flatten to a Box.

        Examples
        --------
        >>> from gymspaces import Box, Sequence
        >>> Sequence(Box(0, 1, shape=(2,))).is_np_flattenable
        False
        """
        return False

    def sample(
        self, mask: tuple[Any, Any] | None = None, probability: tuple[Any, Any] | None = None
    ) -> Any:
        """Draw a length, then that many feature samples.

        Parameters
        ----------
        mask : tuple (length_mask, feature_mask), optional
            ``length_mask`` is ``None`` (geometric length with p=0.25), an
            integer (that length) or a 1-D integer array (a length chosen
            uniformly among its values); ``feature_mask`` is passed as ``mask``
            to every feature sample.
        probability : tuple (length_mask, feature_probability), optional
            As ``mask``, with ``feature_probability`` passed as ``probability``.

        Returns
        -------
        tuple or stacked batch
            A tuple of feature samples, or with ``stack=True`` their
            concatenation (which raises ``ValueError`` for length 0,
            :quirk:`Q20`).

        Examples
        --------
        Three items, each masked to action 1 or 2; then a length of 1 or 2:

        >>> import numpy as np
        >>> from gymspaces import Discrete, Sequence
        >>> space = Sequence(Discrete(4), seed=0)
        >>> space.sample(mask=(3, np.array([0, 1, 1, 0], dtype=np.int8)))
        (np.int64(1), np.int64(2), np.int64(2))
        >>> space.sample(mask=(np.array([1, 2]), None))
        (np.int64(0), np.int64(1))
        >>> space.sample(probability=(2, np.array([0, 0, 0, 1.0])))
        (np.int64(3), np.int64(3))
        """
        feature = self.feature_space
        if mask is None and probability is None:
            length = self.np_random.geometric(_LENGTH_P)
            items = tuple([feature.sample() for _ in range(length)])
        else:
            kind, pair = chosen_kind(mask, probability)
            length = self.generate_sample_length(pair[0], kind)
            # The feature entry is looked up per item: never for an empty sample.
            items = tuple([feature.sample(**{kind: pair[1]}) for _ in range(length)])
        if not self.stack:
            return items
        return _batching.concatenate(feature, items, _batching.create_empty_array(feature, len(items)))

    def generate_sample_length(
        self, length_mask: None | int | np.integer | NDArray[np.integer], mask_type: None | str
    ) -> int:
        """The length of a masked sample.

        ``None`` draws a geometric length, an integer is returned as is (after
        checking it is not negative) and a 1-D integer array yields one of its
        entries, chosen uniformly.

        Raises
        ------
        TypeError
            For any other kind of ``length_mask``.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, Sequence
        >>> space = Sequence(Discrete(4), seed=0)
        >>> space.generate_sample_length(5, "mask")
        5
        >>> space.generate_sample_length(np.array([1, 2, 3]), "mask")
        np.int64(3)
        >>> space.generate_sample_length(2.5, "mask")
        Traceback (most recent call last):
            ...
        TypeError: Expects the type of length_mask of `mask` to be an integer or a np.ndarray, ...
        """
        if length_mask is None:
            return self.np_random.geometric(_LENGTH_P)
        if np.issubdtype(type(length_mask), np.integer):  # Python and numpy ints, not bools
            assert length_mask >= 0, (
                f"Expects the length mask of `{mask_type}` to be greater than or equal to zero, "
                f"actual value: {length_mask}"
            )
            return length_mask  # type: ignore[return-value]
        if not isinstance(length_mask, np.ndarray):
            raise TypeError(
                f"Expects the type of length_mask of `{mask_type}` to be an integer or a "
                f"np.ndarray, actual type: {type(length_mask)}"
            )
        assert length_mask.ndim == 1, (
            f"Expects the shape of the length mask of `{mask_type}` to be 1-dimensional, "
            f"actual shape: {length_mask.shape}"
        )
        assert np.all(length_mask >= 0), (
            f"Expects all values in the length_mask of `{mask_type}` to be greater than or "
            f"equal to zero, actual values: {length_mask}"
        )
        assert np.issubdtype(length_mask.dtype, np.integer), (
            f"Expects the length mask array of `{mask_type}` to have dtype of np.integer, "
            f"actual type: {length_mask.dtype}"
        )
        return self.np_random.choice(length_mask)

    def contains(self, x: Any) -> bool:
        """Whether every item of ``x`` belongs to the feature space.

        Unstacked samples must be tuples; stacked ones are split along their
        first axis (a non-iterable ``x`` raises ``TypeError``,
        :quirk:`Q27`).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box, Discrete, Sequence
        >>> space = Sequence(Discrete(4))
        >>> space.contains((1, 3)), space.contains(()), space.contains([1, 3])  # a list is no tuple
        (True, True, False)
        >>> Sequence(Box(0, 1, shape=(2,)), stack=True).contains(np.zeros((5, 2), dtype=np.float32))
        True
        """
        feature = self.feature_space
        if not self.stack:
            return isinstance(x, tuple) and all(feature.contains(item) for item in x)
        items = _batching.iterate(self.stacked_feature_space, x)
        return all(item in feature for item in items)

    def __repr__(self) -> str:
        feature, stack = self.feature_space, self.stack
        return f"Sequence({feature}, stack={stack})"

    def to_jsonable(self, sample_n: Iterable[Any]) -> list[Any]:
        """A batch of samples as JSON-able lists.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, Sequence
        >>> Sequence(Discrete(4)).to_jsonable([(np.int64(1), np.int64(3)), ()])
        [[1, 3], []]
        """
        if not self.stack:
            feature = self.feature_space
            return [feature.to_jsonable(sample) for sample in sample_n]
        return self.stacked_feature_space.to_jsonable(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> list[Any]:
        """Inverse of :meth:`to_jsonable`.

        Examples
        --------
        >>> from gymspaces import Discrete, Sequence
        >>> Sequence(Discrete(4)).from_jsonable([[1, 3], []])
        [(np.int64(1), np.int64(3)), ()]
        """
        if not self.stack:
            feature = self.feature_space
            return [tuple(feature.from_jsonable(sample)) for sample in sample_n]
        return self.stacked_feature_space.from_jsonable(sample_n)

    def __eq__(self, other: object, /) -> bool:
        if not isinstance(other, Sequence):
            return False
        return self.feature_space == other.feature_space and self.stack == other.stack
