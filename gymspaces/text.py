"""The :class:`Text` space: strings over a character set."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces._arguments import check_mask_or_probability
from gymspaces import _text
from gymspaces.space import Space

__all__ = ["Text", "alphanumeric"]

alphanumeric: frozenset[str] = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)


class Text(Space[str]):
    """Strings of ``min_length`` to ``max_length`` characters drawn from ``charset``.

    Parameters
    ----------
    max_length : int
        Longest allowed string.
    min_length : int
        Shortest allowed string (keyword only, default 1).
    charset : str, set or frozenset of single characters
        Sets are sampled in sorted order; strings and other iterables in
        first-occurrence order.
    seed : int, numpy.random.Generator or None
        Seed of the space's generator.

    Examples
    --------
    >>> from gymspaces import Text
    >>> space = Text(5, charset="abc", seed=0)
    >>> space
    Text(1, 5, charset=abc)
    >>> space.sample()
    'aaacc'
    >>> space.contains("cab"), space.contains("abcabc"), space.contains("dog")
    (True, False, False)

    The default charset is ASCII letters and digits; ``min_length`` may be 0:

    >>> Text(8, min_length=0).contains("")
    True
    """

    def __init__(
        self,
        max_length: int,
        *,
        min_length: int = 1,
        charset: frozenset[str] | str = alphanumeric,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        if not np.issubdtype(type(min_length), np.integer):
            raise TypeError(f"Expects the min_length to be an integer, actual type: {type(min_length)}")
        if not np.issubdtype(type(max_length), np.integer):
            raise TypeError(f"Expects the max_length to be an integer, actual type: {type(max_length)}")
        if min_length < 0:
            raise ValueError(f"Minimum text length must be non-negative, actual value: {min_length}")
        if min_length > max_length:
            raise ValueError(
                "The min_length must be less than or equal to the max_length, "
                f"min_length: {min_length}, max_length: {max_length}"
            )
        self.min_length: int = int(min_length)
        self.max_length: int = int(max_length)

        if isinstance(charset, (set, frozenset)):
            chars = sorted(charset)
        else:
            chars = list(dict.fromkeys(charset))
        invalid = [char for char in chars if len(char) != 1]
        if invalid:
            raise ValueError(
                "Expects all charset elements to be a single character, "
                f"actual invalid elements: {invalid}"
            )
        self._char_set: frozenset[str] = frozenset(chars)
        self._char_list: tuple[str, ...] = tuple(chars)
        self._char_index: dict[str, np.int32] = {c: np.int32(i) for i, c in enumerate(chars)}
        self._char_str: str = "".join(sorted(chars))
        super().__init__(dtype=str, seed=seed)

    def sample(
        self,
        mask: tuple[int | None, NDArray[np.int8] | None] | None = None,
        probability: tuple[int | None, NDArray[np.float64] | None] | None = None,
    ) -> str:
        """Draw a string, optionally with a fixed length and per-character mask or weights.

        Parameters
        ----------
        mask : tuple (length, char_mask), optional
            ``length`` (or ``None`` to draw it) and an int8 0/1 array over
            :attr:`character_list` (or ``None`` for all characters).
        probability : tuple (length, char_probability), optional
            As ``mask`` with float64 weights summing to one.

        Returns
        -------
        str

        Raises
        ------
        ValueError
            If both ``mask`` and ``probability`` are given, or if no character
            can be drawn while ``min_length > 0``.
        AssertionError
            If the length or the character array is malformed (wrong type,
            dtype, shape or values).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Text
        >>> space = Text(5, charset="abc", seed=0)
        >>> space.sample(mask=(3, None))  # fixed length, any character
        'baa'
        >>> space.sample(mask=(5, np.array([1, 0, 1], dtype=np.int8)))  # no 'b'
        'acccc'
        >>> space.sample(probability=(5, np.array([0.0, 0.5, 0.5])))  # 'b' or 'c', evenly
        'cccbc'
        """
        check_mask_or_probability(mask, probability)
        if mask is None and probability is None:
            return _text.text_sample(self, None, None)
        if mask is not None:
            length, weights = self._validate_mask(mask, np.int8, "mask")
            if weights is not None:
                assert np.all(np.logical_or(weights == 0, weights == 1)), (
                    f"Expects all mask values to 0 or 1, actual values: {weights}"
                )
                total = np.sum(weights)
                if total > 0:
                    weights = weights / total
        else:
            length, weights = self._validate_mask(probability, np.float64, "probability")
            if weights is not None:
                assert np.all(np.logical_and(weights >= 0, weights <= 1)), (
                    f"Expects all probability mask values to be within 0 and 1, actual values: {weights}"
                )
                assert np.isclose(np.sum(weights), 1), (
                    f"Expects the sum of the probability mask to be 1, actual sum: {np.sum(weights)}"
                )
        return _text.text_sample(self, length, weights)

    def _validate_mask(
        self, mask: Any, expected_dtype: type[np.generic], mask_type: str
    ) -> tuple[int | None, NDArray[Any] | None]:
        assert isinstance(mask, tuple), (
            f"Expects the `{mask_type}` type to be a tuple, actual type: {type(mask)}"
        )
        assert len(mask) == 2, f"Expects the `{mask_type}` length to be two, actual length: {len(mask)}"
        length, weights = mask
        if length is not None:
            assert np.issubdtype(type(length), np.integer), (
                f"Expects the Text sample length to be an integer, actual type: {type(length)}"
            )
            assert self.min_length <= length <= self.max_length, (
                f"Expects the Text sample length be between {self.min_length} and "
                f"{self.max_length}, actual length: {length}"
            )
        if weights is not None:
            assert isinstance(weights, np.ndarray), (
                f"Expects the Text sample `{mask_type}` to be an np.ndarray, actual type: {type(weights)}"
            )
            assert weights.dtype == expected_dtype, (
                f"Expects the Text sample `{mask_type}` to be type {expected_dtype}, "
                f"actual dtype: {weights.dtype}"
            )
            assert weights.shape == (len(self.character_set),), (
                f"expects the Text sample `{mask_type}` to be {(len(self.character_set),)}, "
                f"actual shape: {weights.shape}"
            )
        return length, weights

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a string of allowed length made of charset characters.

        Examples
        --------
        >>> from gymspaces import Text
        >>> space = Text(4, min_length=2, charset="01")
        >>> space.contains("0110"), space.contains("0"), space.contains("012"), space.contains(101)
        (True, False, False, False)
        """
        if isinstance(x, str) and self.min_length <= len(x) <= self.max_length:
            return all(c in self._char_set for c in x)
        return False

    def __repr__(self) -> str:
        return f"Text({self.min_length}, {self.max_length}, charset={self.characters})"

    def __eq__(self, other: object) -> bool:
        # The character *set* is compared, not its order (quirk Q19, docs/quirks.md).
        return (
            isinstance(other, Text)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
            and self.character_set == other.character_set
        )

    @property
    def character_set(self) -> frozenset[str]:
        """The allowed characters, as a frozenset.

        Examples
        --------
        >>> from gymspaces import Text
        >>> sorted(Text(3, charset="hello").character_set)
        ['e', 'h', 'l', 'o']
        """
        return self._char_set

    @property
    def character_list(self) -> tuple[str, ...]:
        """The allowed characters in sampling (and flattening) order.

        A string charset keeps its first-occurrence order; a set is sorted.

        Examples
        --------
        >>> from gymspaces import Text
        >>> Text(3, charset="cab").character_list
        ('c', 'a', 'b')
        >>> Text(3, charset={"c", "a", "b"}).character_list
        ('a', 'b', 'c')
        """
        return self._char_list

    def character_index(self, char: str) -> np.int32:
        """Position of ``char`` in :attr:`character_list` (``KeyError`` if absent).

        This is the value :func:`~gymspaces.utils.flatten` stores for ``char``.

        Examples
        --------
        >>> from gymspaces import Text
        >>> space = Text(3, charset="cab")
        >>> space.character_index("c"), space.character_index("b")
        (np.int32(0), np.int32(2))
        >>> space.character_index("z")
        Traceback (most recent call last):
            ...
        KeyError: 'z'
        """
        return self._char_index[char]

    @property
    def characters(self) -> str:
        """The allowed characters, sorted, as one string (what the repr shows).

        Examples
        --------
        >>> from gymspaces import Text
        >>> Text(3, charset="cab").characters
        'abc'
        """
        return self._char_str

    @property
    def is_np_flattenable(self) -> bool:
        """Text flattens to a fixed-length vector of character indices (always ``True``).

        Shorter strings are padded with ``len(character_list)``.

        Examples
        --------
        >>> from gymspaces import Text
        >>> from gymspaces.utils import flatten
        >>> space = Text(4, charset="ab")
        >>> space.is_np_flattenable
        True
        >>> flatten(space, "ba")
        array([1, 0, 2, 2], dtype=int32)
        """
        return True
