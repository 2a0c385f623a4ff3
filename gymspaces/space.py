"""The :class:`Space` base class: shape, dtype, a lazily created RNG and seeding."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import DTypeLike

from gymspaces import seeding
from gymspaces._sample_batch import contains_batch_by_items, generic_placeholder, sample_batch_by_loop, sequence_row

__all__ = ["Space", "MaskNDArray"]

T_cov = TypeVar("T_cov", covariant=True)
# Same alias as numpy.typing.NDArray[np.int8], without importing numpy.typing.
MaskNDArray = np.ndarray[Any, np.dtype[np.int8]]

# Instance attributes where kernels cache derived data: the C view (``bitgen_t*``)
# of ``_np_random`` and per-space tables. They are rebuilt on demand (keyed by the
# identity of what they were derived from) and never pickled or copied.
KERNEL_CACHE_ATTRS = ("_rng_handle", "_kernel_cache", "_shared_memory_plan")

# Compact pickles: an array attribute whose elements are all the same (a Box of
# 0..255 pixels, say) is pickled as this marker, its dtype, shape and one
# element's bytes, and rebuilt element for element (bits included) on load.
UNIFORM_ARRAY_MARK = "gymspaces.uniform-array/1"


def compact_array(value: Any) -> Any:
    """``value`` itself, or a small uniform-array record if every element has the same bytes."""
    if not (type(value) is np.ndarray and value.size > 1 and value.flags.c_contiguous) or value.dtype.hasobject:
        return value
    flat = value.reshape(-1)
    first = flat[:1].tobytes()
    if flat.tobytes() != first * flat.size:
        return value
    return (UNIFORM_ARRAY_MARK, value.dtype, value.shape, first)


def expand_array(value: Any) -> Any:
    """Inverse of :func:`compact_array` (anything else is returned unchanged)."""
    if type(value) is tuple and len(value) == 4 and value[0] == UNIFORM_ARRAY_MARK:
        _, dtype, shape, first = value
        element = np.frombuffer(first, dtype=dtype)
        return np.repeat(element, math.prod(shape)).reshape(shape)
    return value


def is_space(candidate: Any) -> bool:
    """Whether ``candidate`` may be a child of a composite space."""
    return isinstance(candidate, Space)


class Space(Generic[T_cov]):
    """Base class of every observation and action space.

    Parameters
    ----------
    shape : sequence of int, optional
        Shape of array-valued elements.
    dtype : dtype-like, optional
        dtype of array-valued elements.
    seed : int, numpy.random.Generator or None
        An ``int`` seeds the space's own generator through :meth:`seed`; a
        ``Generator`` is used as is (and may be shared); ``None`` defers seeding
        until the first use of :attr:`np_random`.

    Notes
    -----
    Subclasses implement :meth:`sample`, :meth:`contains` and
    :attr:`is_np_flattenable`. The attribute names ``_shape``, ``dtype`` and
    ``_np_random`` are part of the public contract (Gymnasium code reads them).

    Examples
    --------
    A minimal custom space: draw from :attr:`np_random`, test membership.

    >>> from gymspaces import Space
    >>> class Coin(Space):
    ...     def sample(self, mask=None, probability=None):
    ...         return int(self.np_random.integers(2))
    ...     def contains(self, x):
    ...         return x in (0, 1)
    >>> coin = Coin(seed=0)
    >>> [coin.sample() for _ in range(5)]
    [1, 1, 1, 0, 0]
    >>> 1 in coin, 2 in coin, coin.shape
    (True, False, None)
    """

    dtype: np.dtype | None
    _shape: tuple[int, ...] | None
    _np_random: np.random.Generator | None

    def __init__(
        self,
        shape: Sequence[int] | None = None,
        dtype: DTypeLike | None = None,
        # int, Generator or None; composite spaces forward whatever their seed() accepts.
        seed: int | np.random.Generator | Any | None = None,
    ) -> None:
        self._shape = None if shape is None else tuple(shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            if isinstance(seed, np.random.Generator):
                self._np_random = seed
            else:
                self.seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        """The space's generator, seeded from OS entropy on first use if unset.

        Examples
        --------
        Equal seeds give equal streams; a ``Generator`` passed as ``seed`` is
        used as is (so several spaces can share one).

        >>> import numpy as np
        >>> from gymspaces import Discrete
        >>> isinstance(Discrete(5, seed=0).np_random, np.random.Generator)
        True
        >>> Discrete(5, seed=0).np_random.integers(100, size=3)
        array([85, 63, 51])
        >>> rng = np.random.default_rng(0)
        >>> Discrete(5, seed=rng).np_random is rng
        True
        """
        if self._np_random is None:
            self.seed()
        # Composite spaces may leave their own generator unset in seed(None).
        if self._np_random is None:
            self._np_random, _ = seeding.np_random()
        return self._np_random

    @property
    def shape(self) -> tuple[int, ...] | None:
        """Shape of the space's elements (``None`` for non-array spaces).

        Examples
        --------
        >>> from gymspaces import Box, Dict, Discrete
        >>> Box(0, 1, shape=(2, 3)).shape
        (2, 3)
        >>> Discrete(4).shape
        ()
        >>> Dict(a=Discrete(4)).shape is None
        True
        """
        return self._shape

    @property
    def is_np_flattenable(self) -> bool:
        """Whether the space flattens to a single :class:`~gymspaces.Box`.

        Examples
        --------
        Fixed-size spaces flatten; variable-length ones do not.

        >>> from gymspaces import Box, Discrete, Sequence
        >>> Box(0, 1, shape=(2,)).is_np_flattenable
        True
        >>> Sequence(Discrete(3)).is_np_flattenable
        False
        """
        raise NotImplementedError

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> T_cov:
        """Draw a random element, optionally restricted by a mask or weighted by probabilities.

        Subclasses override it; draws should come from :attr:`np_random` so
        that seeding makes them reproducible.

        Examples
        --------
        >>> from gymspaces import Space
        >>> class Die(Space):
        ...     def sample(self, mask=None, probability=None):
        ...         return int(self.np_random.integers(1, 7))
        >>> die = Die(seed=3)
        >>> [die.sample() for _ in range(4)]
        [5, 1, 2, 2]
        """
        raise NotImplementedError

    def sample_batch(
        self, n: int, mask: Any | None = None, probability: Any | None = None, out: Any | None = None
    ) -> Any:
        """Draw ``n`` elements at once (not in Gymnasium): what ``n`` successive :meth:`sample` calls draw.

        Not in Gymnasium. The values and the generator states left behind are
        those of ``[self.sample(...) for _ in range(n)]``; they are stacked as
        :func:`gymspaces.vector.create_empty_array` lays out a batch of ``n``
        (the structure ``batch_space(self, n).sample()`` returns). Fundamental
        spaces fill the whole batch in one compiled call.

        Parameters
        ----------
        n : int
            Number of elements (``>= 0``).
        mask, probability : optional
            Batched arguments of :meth:`sample`: arrays with a leading axis of
            ``n`` rows (row ``i`` for element ``i``; an array without that axis
            applies to every element), tuples/dicts of those for Tuple/Dict
            spaces, a tuple mirroring ``nvec`` for MultiDiscrete, and a
            sequence of ``n`` per-element arguments for other spaces.
        out : optional
            A batch structure (as ``create_empty_array(self, n)`` makes) to
            write into; array leaves must be C-contiguous and of the exact dtype.

        Returns
        -------
        The batch (``out`` when given).

        Examples
        --------
        >>> from gymspaces import Discrete, Text
        >>> a, b = Discrete(3, seed=1), Discrete(3, seed=1)
        >>> a.sample_batch(4).tolist() == [int(b.sample()) for _ in range(4)]
        True

        Spaces without a compiled batch path (here Text) loop over ``sample``:

        >>> Text(4, charset="ab", seed=0).sample_batch(3)
        ('aaab', 'bbb', 'bba')
        """
        return sample_batch_by_loop(self, n, mask, probability, out)

    def contains_batch(self, batch: Any) -> np.ndarray:
        """Membership of every element of a batch, as a bool array (not in Gymnasium).

        Entry ``i`` is ``self.contains(item_i)`` for the ``i``-th item of
        ``batch`` (what :func:`gymspaces.vector.iterate` yields from it when it
        is laid out as ``batch_space(self, n)`` lays a batch out); fundamental
        spaces decide all rows at once, Tuple/Dict spaces child by child.

        Examples
        --------
        Text keeps this default: one answer per item of the batch.

        >>> from gymspaces import Text
        >>> Text(max_length=3).contains_batch(["abc", "abcd", "a"])
        array([ True, False,  True])
        """
        return contains_batch_by_items(self, batch)

    def _batch_row_argument(self, batched: Any, row: int, n: int) -> Any:
        """Sample ``row``'s mask or probability out of a batched one.

        The generic layout is a sequence of ``n`` per-sample arguments; spaces
        whose batched arguments are arrays or trees slice them their own way.
        """
        return sequence_row(self, batched, row, n)

    def _batch_placeholder(self, count: int) -> Any:
        """An ``out`` that lets ``concatenate`` stack ``count`` samples as they are.

        Used when the regular layout cannot hold a loop's samples (see
        :func:`gymspaces._sample_batch.stacking_placeholder`).
        """
        return generic_placeholder(self, count)

    def seed(self, seed: int | None = None) -> int | Any:
        """Replace the space's generator with one seeded from ``seed``; return the seed used.

        Examples
        --------
        Reseeding with the same value replays the same samples.

        >>> from gymspaces import Discrete
        >>> space = Discrete(10)
        >>> space.seed(7)
        7
        >>> first = [int(space.sample()) for _ in range(3)]
        >>> _ = space.seed(7)
        >>> [int(space.sample()) for _ in range(3)] == first
        True
        """
        self._np_random, entropy = seeding.np_random(seed)
        return entropy

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is an element of the space (``x in space`` calls it).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box
        >>> space = Box(0, 1, shape=(2,))
        >>> space.contains(np.array([0.5, 0.5], dtype=np.float32))
        True
        >>> np.array([1.5, 0.5], dtype=np.float32) in space
        False
        """
        raise NotImplementedError

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    # Array attributes pickled compactly when uniform (see compact_array).
    _compact_arrays: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in KERNEL_CACHE_ATTRS:
            state.pop(name, None)
        for name in self._compact_arrays:
            if name in state:
                state[name] = compact_array(state[name])
        return state

    def __copy__(self) -> Space[T_cov]:
        """A shallow copy sharing every attribute object, the generator included,
        as ``copy.copy`` of a Gymnasium space does (only the kernel caches are
        left out, and arrays are not compacted as they are for pickles)."""
        clone = type(self).__new__(type(self))
        state = self.__dict__.copy()
        for name in KERNEL_CACHE_ATTRS:
            state.pop(name, None)
        clone.__setstate__(state)
        return clone

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        """Restore a pickled space, accepting states written by older Gym versions."""
        state = dict(state)
        # Gym renamed these attributes; old pickles still carry the old names.
        if "shape" in state:
            state["_shape"] = state.pop("shape")
        if "np_random" in state:
            state["_np_random"] = state.pop("np_random")
        for name in KERNEL_CACHE_ATTRS:
            state.pop(name, None)
        for name, value in state.items():
            state[name] = expand_array(value)
        self.__dict__.update(state)

    def to_jsonable(self, sample_n: Iterable[T_cov]) -> list[Any] | Any:
        """Convert a batch of samples to JSON-serialisable data (by default, a list of the samples as they are).

        Examples
        --------
        Text keeps the default: its samples are already JSON strings.

        >>> from gymspaces import Text
        >>> Text(5).to_jsonable(("hi", "yo"))
        ['hi', 'yo']
        """
        return list(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> list[T_cov]:
        """Inverse of :meth:`to_jsonable` (identity by default).

        Examples
        --------
        >>> from gymspaces import Text
        >>> space = Text(5)
        >>> space.from_jsonable(space.to_jsonable(("hi", "yo")))
        ['hi', 'yo']
        """
        return sample_n
