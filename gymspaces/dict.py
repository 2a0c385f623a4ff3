"""The :class:`Dict` space: a cartesian product of spaces addressed by key."""

from __future__ import annotations

import collections.abc
from collections import OrderedDict
from collections.abc import Iterable, Iterator, KeysView
from typing import Any, Generic

import numpy as np

from gymspaces import _contains, _jsonable
from gymspaces._composite import (
    SUBSEED_BOUND,
    chosen_kind,
    combined_contains_batch,
    direct_sample_batch,
    sample_children_batch,
)
from gymspaces._sample_batch import row_argument, sample_batch_by_loop, stacking_placeholder
from gymspaces._typevars import T_cov
from gymspaces.space import Space, is_space

__all__ = ["Dict"]

def _ordered_spaces(spaces: Any, sort_keys: bool) -> dict[Any, Any]:
    """The key order Gymnasium gives a ``spaces`` argument, as a builtin dict.

    An OrderedDict or a sequence of pairs keeps its order; another mapping is
    sorted when ``sort_keys`` is set, unless its keys cannot be compared.
    """
    if spaces is not None and not isinstance(
        spaces, (collections.abc.Mapping, collections.abc.Sequence)
    ):
        raise TypeError(
            "Unexpected Dict space input, expecting dict, OrderedDict or Sequence, "
            f"actual type: {type(spaces)}"
        )
    if spaces is None:
        return {}
    if not isinstance(spaces, collections.abc.Mapping):
        return dict(spaces)  # a sequence of (key, space) pairs
    pairs = list(spaces.items())
    if sort_keys and not isinstance(spaces, OrderedDict):
        # Items, not keys, are sorted: with unique keys it is the same order.
        try:
            pairs = sorted(pairs)
        except TypeError:
            pass  # e.g. int and str keys: keep the insertion order
    return dict(pairs)


class Dict(
    Space[dict[str, Any]],
    collections.abc.Mapping[str, Space[T_cov]],
    Generic[T_cov],
):
    """Dictionaries whose value at each key is an element of that key's sub-space.

    Parameters
    ----------
    spaces : mapping or sequence of (key, Space) pairs, optional
        The sub-spaces. A mapping is sorted by key when ``sort_keys`` is true
        (an ``OrderedDict`` or a sequence of pairs keeps its order).
    seed : int, dict of seeds, numpy.random.Generator or None
        An ``int`` seeds the Dict's generator, which draws one seed per key in
        key order; a dict gives each key its own seed.
    sort_keys : bool
        Whether to sort the keys of a mapping other than an ``OrderedDict``.
    **spaces_kwargs : Space
        More sub-spaces, appended after ``spaces`` in keyword order.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> space = Dict({"position": Box(-1, 1, shape=(2,)), "color": Discrete(3)}, seed=42)
    >>> space
    Dict('color': Discrete(3), 'position': Box(-1.0, 1.0, (2,), float32))
    >>> list(space.sample())
    ['color', 'position']
    >>> space["color"]
    Discrete(3)
    >>> {"color": 5, "position": np.zeros(2, dtype=np.float32)} in space  # 5 is not in Discrete(3)
    False
    """

    spaces: dict[Any, Space[T_cov]]
    sort_keys: bool

    def __init__(
        self,
        spaces: collections.abc.Mapping[Any, Space[T_cov]]
        | collections.abc.Sequence[tuple[Any, Space[T_cov]]]
        | None = None,
        seed: dict[Any, Any] | int | np.random.Generator | None = None,
        *,
        sort_keys: bool = True,
        **spaces_kwargs: Space[T_cov],
    ) -> None:
        self.sort_keys: bool = sort_keys
        children = _ordered_spaces(spaces, sort_keys)
        for key, child in spaces_kwargs.items():
            if key in children:
                raise ValueError(
                    f"Dict space keyword '{key}' already exists "
                    "in the spaces dictionary."
                )
            children[key] = child  # keywords go last, unsorted (quirk Q21b, docs/quirks.md)
        for key, child in children.items():
            if not is_space(child):
                raise TypeError(
                    "Dict space element is not an instance of Space: "
                    f"key='{key}', space={child}"
                )
        self.spaces = children
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        """True when every sub-space flattens to a Box.

        Examples
        --------
        >>> from gymspaces import Box, Dict, Discrete, Sequence
        >>> Dict(pos=Box(-1, 1, shape=(2,)), action=Discrete(4)).is_np_flattenable
        True
        >>> Dict(history=Sequence(Discrete(4))).is_np_flattenable
        False
        """
        return all(child.is_np_flattenable for child in self.spaces.values())

    def seed(self, seed: int | dict[Any, Any] | None = None) -> dict[Any, Any]:
        """Seed the sub-spaces and return their seeds keyed like the space.

        ``None`` reseeds every sub-space from OS entropy. An ``int`` seeds the
        Dict's own generator and draws one sub-seed per key, in key order (the
        generator stays advanced). A ``dict`` must have exactly the space's keys;
        the result then follows the seed dict's key order.

        Raises
        ------
        ValueError
            If a seed dict's keys differ from the space's.
        TypeError
            For any other seed type (lists included).

        Examples
        --------
        An ``int`` yields a dict of derived ``int`` seeds, and reseeding
        replays the same samples:

        >>> from gymspaces import Box, Dict, Discrete
        >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)})
        >>> space.seed(42)
        {'action': 191664963, 'pos': 1662057957}
        >>> space.sample()
        {'action': np.int64(0), 'pos': array([-0.3991573 ,  0.21649833], dtype=float32)}
        >>> _ = space.seed(42)
        >>> space.sample()
        {'action': np.int64(0), 'pos': array([-0.3991573 ,  0.21649833], dtype=float32)}

        A dict seeds each key directly:

        >>> space.seed({"pos": 1, "action": 2})
        {'pos': 1, 'action': 2}
        """
        children = self.spaces
        if seed is None:
            return {key: child.seed(None) for key, child in children.items()}
        if isinstance(seed, int):
            Space.seed(self, seed)
            # The own generator is left advanced past these draws (quirk Q3, docs/quirks.md).
            drawn = self.np_random.integers(SUBSEED_BOUND, size=len(children))
            pairs = zip(children.items(), drawn, strict=True)
            return {key: child.seed(int(value)) for (key, child), value in pairs}
        if not isinstance(seed, dict):
            raise TypeError(f"Expected seed type: dict, int or None, actual type: {type(seed)}")
        if children.keys() != seed.keys():
            raise ValueError(
                f"The seed keys: {seed.keys()} are not identical to "
                f"space keys: {children.keys()}"
            )
        return {key: children[key].seed(seed[key]) for key in seed}

    def sample(
        self, mask: dict[Any, Any] | None = None, probability: dict[Any, Any] | None = None
    ) -> dict[Any, Any]:
        """Sample every sub-space, in key order, into a new dict.

        Parameters
        ----------
        mask, probability : dict, optional
            One entry (possibly ``None``) per key, handed to that key's
            sub-space. At most one of the two may be given.

        Examples
        --------
        Only actions 2 and 3 are allowed; the Box takes no mask (``None``):

        >>> import numpy as np
        >>> from gymspaces import Box, Dict, Discrete
        >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)}, seed=0)
        >>> mask = {"pos": None, "action": np.array([0, 0, 1, 1], dtype=np.int8)}
        >>> space.sample(mask=mask)
        {'action': np.int64(2), 'pos': array([ 0.65423167, -0.4485111 ], dtype=float32)}
        >>> [int(space.sample(mask=mask)["action"]) for _ in range(5)]
        [3, 3, 2, 2, 2]
        """
        children = self.spaces
        if mask is None and probability is None:
            return {key: child.sample() for key, child in children.items()}
        kind, parts = chosen_kind(mask, probability)
        label = "mask" if kind == "mask" else "probability mask"
        assert isinstance(parts, dict), (
            f"Expected sample {label} to be a dict, actual type: {type(parts)}"
        )
        assert parts.keys() == children.keys(), (
            f"Expected sample {label} keys to be same as space keys, "
            f"mask keys: {parts.keys()}, space keys: {children.keys()}"
        )
        return {key: child.sample(**{kind: parts[key]}) for key, child in children.items()}

    # Batched sampling and membership (not in Gymnasium; see Space.sample_batch).

    def sample_batch(self, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
        """Draw ``n`` samples at once (not in Gymnasium): a dict of the children's batches.

        ``mask``/``probability`` is a dict with the space's keys whose values are
        the children's batched arguments (or ``None``). The result equals ``n``
        successive :meth:`Dict.sample` calls, stacked key by key.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box, Dict, Discrete
        >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)}, seed=0)
        >>> batch = space.sample_batch(2)
        >>> batch["action"], batch["pos"].shape
        (array([1, 2]), (2, 2))

        A mask shared by both rows restricts the action to 2 or 3:

        >>> _ = space.seed(0)
        >>> mask = {"pos": None, "action": np.array([0, 0, 1, 1], dtype=np.int8)}
        >>> space.sample_batch(2, mask=mask)["action"]
        array([2, 3])
        """
        children = self.spaces
        direct = direct_sample_batch(self, children, n, mask, probability, out)
        if direct is not None:
            return direct
        keys = set(children)
        batches = sample_children_batch(
            self,
            n,
            mask,
            probability,
            out,
            list(self.spaces.items()),
            lambda parts: isinstance(parts, collections.abc.Mapping) and set(parts) == keys,
            lambda parts: isinstance(parts, collections.abc.Mapping) and set(parts) >= keys,
        )
        if batches is None:
            return sample_batch_by_loop(self, n, mask, probability, out)
        result = {} if out is None else out  # an out dict is filled and returned itself
        result.update(zip(self.spaces, batches))
        return result

    def contains_batch(self, batch: Any) -> np.ndarray:
        """Membership of every row (not in Gymnasium): the children's answers, combined row by row.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box, Dict, Discrete
        >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)})
        >>> pos = np.array([[0, 0], [2, 0], [0, 0]], dtype=np.float32)
        >>> space.contains_batch({"pos": pos, "action": np.array([1, 1, 7])})  # bad pos, bad action
        array([ True, False, False])
        """
        answers = _contains.dict_contains_batch(self, batch)  # only decides batches with exactly the keys
        if answers is not None:
            return answers
        if not isinstance(batch, collections.abc.Mapping):
            raise TypeError(f"a batch of a Dict space must be a mapping, actual type: {type(batch)}")
        # A batch is laid out as batch_space lays it out: one entry per key, like
        # a Tuple batch has one part per child (its length is checked likewise).
        if batch.keys() != self.spaces.keys():
            raise TypeError(
                f"a batch of a Dict space must have exactly its keys {list(self.spaces)}, actual keys: {list(batch)}"
            )
        return combined_contains_batch(self, batch, ((child, batch[key]) for key, child in self.spaces.items()))

    def _batch_row_argument(self, batched: Any, row: int, n: int) -> Any:
        if not isinstance(batched, collections.abc.Mapping):
            raise TypeError(f"a batched Dict mask must be a mapping, actual type: {type(batched)}")
        return {key: row_argument(child, batched.get(key), row, n) for key, child in self.spaces.items()}

    def _batch_placeholder(self, count: int) -> Any:
        return {key: stacking_placeholder(child, count) for key, child in self.spaces.items()}

    # Compiled: the whole tree is walked in one call (children's built-in checks in C).
    contains = _contains.dict_contains

    def __getitem__(self, key: Any) -> Space[T_cov]:
        """The sub-space stored under ``key``."""
        children = self.spaces
        return children[key]

    def keys(self) -> KeysView[Any]:
        """A view of the keys, in order.

        Examples
        --------
        A builtin dict is sorted by key; keyword arguments keep their order.

        >>> from gymspaces import Dict, Discrete
        >>> list(Dict({"b": Discrete(2), "a": Discrete(3)}).keys())
        ['a', 'b']
        >>> list(Dict(b=Discrete(2), a=Discrete(3)).keys())
        ['b', 'a']
        """
        children = self.spaces
        return KeysView(children)

    def __setitem__(self, key: Any, value: Space[Any]) -> None:
        """Store a sub-space under ``key`` (``TypeError`` if it is not a Space)."""
        if is_space(value):
            self.spaces[key] = value
            return
        raise TypeError(
            f"Trying to set {key} to Dict space with value that is not a gymnasium space, "
            f"actual type: {type(value)}"
        )

    def __iter__(self) -> Iterator[Any]:
        return iter(self.spaces)

    def __len__(self) -> int:
        children = self.spaces
        return len(children)

    def __repr__(self) -> str:
        inner = ", ".join(f"{key!r}: {child}" for key, child in self.spaces.items())
        return f"Dict({inner})"

    def __eq__(self, other: object) -> bool:
        # Builtin dicts compare without regard to order.
        if not isinstance(other, Dict):
            return False
        return self.spaces == other.spaces

    def to_jsonable(self, sample_n: Iterable[dict[Any, Any]]) -> dict[Any, Any]:
        """A batch of samples as one JSON-able list per key.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box, Dict, Discrete
        >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)})
        >>> samples = [{"pos": np.array([0.5, -0.5], dtype=np.float32), "action": np.int64(1)},
        ...            {"pos": np.zeros(2, dtype=np.float32), "action": np.int64(3)}]
        >>> space.to_jsonable(samples)
        {'action': [1, 3], 'pos': [[0.5, -0.5], [0.0, 0.0]]}
        """
        children = self.spaces
        if type(children) is dict:
            # Columns of built-in leaves are converted in C (same objects).
            return _jsonable.dict_to_jsonable(children, sample_n)
        return {
            key: child.to_jsonable([sample[key] for sample in sample_n])
            for key, child in children.items()
        }

    def from_jsonable(self, sample_n: dict[Any, Any]) -> list[dict[Any, Any]]:  # type: ignore[override]
        """Inverse of :meth:`to_jsonable`: a list of dicts.

        The batch size is read from the first key, so an empty Dict raises
        ``StopIteration`` as Gymnasium's does.

        Examples
        --------
        >>> from gymspaces import Box, Dict, Discrete
        >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)})
        >>> space.from_jsonable({"action": [1, 3], "pos": [[0.5, -0.5], [0.0, 0.0]]})
        [{'action': np.int64(1), 'pos': array([ 0.5, -0.5], dtype=float32)},
         {'action': np.int64(3), 'pos': array([0., 0.], dtype=float32)}]
        """
        columns = {key: child.from_jsonable(sample_n[key]) for key, child in self.spaces.items()}
        size = len(next(iter(columns.values())))
        return [{key: column[i] for key, column in columns.items()} for i in range(size)]
