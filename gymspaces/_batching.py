"""Batched sampling and membership: what ``Space.sample_batch`` and ``contains_batch`` do.

Stream definition
-----------------
``space.sample_batch(n, mask, probability)`` draws exactly what ``n``
successive ``space.sample(...)`` calls draw -- the same values, leaving every
generator in the same state -- and returns them stacked the way
``gymspaces.vector.create_empty_array(space, n)`` lays a batch out (the
structure ``batch_space(space, n).sample()`` returns). Replacing a loop of
``sample()`` by one ``sample_batch`` call therefore changes no number.

Batched masks and probabilities have a leading batch axis: row ``i`` is the
argument of sample ``i``. Arrays may also omit that axis (one mask for every
sample). For Tuple/Dict spaces they are tuples/dicts of the children's batched
arguments; for MultiDiscrete a tuple mirroring ``nvec`` whose leaves have the
leading axis; for Text, Sequence, Graph and OneOf a sequence of ``n`` per-sample
arguments.

``space.contains_batch(batch)`` returns a bool array whose entry ``i`` is
``space.contains(item_i)``, ``item_i`` being the ``i``-th item
``gymspaces.vector.iterate`` yields from the batch.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Mapping
from collections.abc import Sequence as SequenceABC
from typing import Any, cast

import numpy as np

from gymspaces._arguments import check_mask_or_probability

__all__ = ["batch_count", "contains_batch_by_items", "row_argument", "sample_batch_by_loop"]


def batch_count(n: Any) -> int:
    """``n`` as a non-negative ``int`` (``TypeError`` for non-integers, ``ValueError`` if negative)."""
    count = operator.index(n)
    if count < 0:
        raise ValueError(f"the number of samples must be non-negative, got {count}")
    return count


def row_argument(space: Any, batched: Any, row: int, n: int) -> Any:
    """Sample ``row``'s mask or probability out of a batched one for ``space``."""
    from gymspaces.dict import Dict
    from gymspaces.discrete import Discrete
    from gymspaces.multi_binary import MultiBinary
    from gymspaces.multi_discrete import MultiDiscrete
    from gymspaces.tuple import Tuple

    if batched is None:
        return None
    if isinstance(space, Dict):
        if not isinstance(batched, Mapping):
            raise TypeError(f"a batched Dict mask must be a mapping, actual type: {type(batched)}")
        return {key: row_argument(child, batched.get(key), row, n) for key, child in space.spaces.items()}
    if isinstance(space, Tuple):
        if not isinstance(batched, tuple) or len(batched) != len(space.spaces):
            raise TypeError(
                f"a batched Tuple mask must be a tuple of {len(space.spaces)} entries, actual: {type(batched)}"
            )
        return tuple(row_argument(child, part, row, n) for child, part in zip(space.spaces, batched))
    if isinstance(space, MultiDiscrete):
        return _multi_discrete_row(batched, space.nvec, row, n)
    if isinstance(space, Discrete):
        return _array_row(batched, 1, row, n)  # a mask has one entry per action
    if isinstance(space, MultiBinary):
        return _array_row(batched, len(space.shape), row, n)
    if not isinstance(batched, SequenceABC) or len(batched) != n:
        raise ValueError(
            f"a batched mask of {type(space).__name__} must be a sequence of {n} per-sample "
            f"masks, actual: {type(batched)}"
        )
    return batched[row]


def _array_row(batched: Any, single_ndim: int, row: int, n: int) -> Any:
    """Row ``row`` of an array mask with a leading batch axis (or the mask itself without one)."""
    if not isinstance(batched, np.ndarray):
        raise TypeError(f"a batched mask must be a numpy.ndarray, actual type: {type(batched)}")
    if batched.ndim == single_ndim:
        return batched
    if batched.ndim == single_ndim + 1 and batched.shape[0] == n:
        return batched[row]
    raise ValueError(
        f"a batched mask must have a leading axis of {n} samples, actual shape: {batched.shape}"
    )


def _multi_discrete_row(batched: Any, nvec: np.ndarray, row: int, n: int) -> Any:
    """Row ``row`` of a MultiDiscrete batched mask: a tuple mirroring ``nvec``."""
    if nvec.ndim == 0:
        return _array_row(batched, 1, row, n)  # a leaf mask has one entry per action
    if not isinstance(batched, tuple) or len(batched) != len(nvec):
        raise TypeError(f"a batched MultiDiscrete mask must be a tuple of {len(nvec)} entries")
    return tuple(_multi_discrete_row(part, sub, row, n) for part, sub in zip(batched, nvec))


def sample_batch_by_loop(space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
    """``sample_batch`` as ``n`` calls of ``sample`` stacked by ``vector.concatenate``.

    Exact for every space, including custom ones whose ``batch_space`` and
    ``concatenate`` rules are registered. Everything that can fail without
    drawing (the count, ``out``) is checked before the first draw.
    """
    from gymspaces import vector

    count = batch_count(n)
    check_mask_or_probability(mask, probability)
    if out is not None and not fills_out(space):
        raise TypeError(
            f"out is not supported by {type(space).__name__}.sample_batch: its batch is a tuple "
            "of samples, which cannot be filled in place"
        )
    items = _item_slots(count)
    kind, batched = ("mask", mask) if mask is not None else ("probability", probability)
    for row in range(count):
        argument = row_argument(space, batched, row, count) if batched is not None else None
        items[row] = space.sample(**{kind: argument}) if argument is not None else space.sample()
    if count == 0:
        # concatenate cannot stack nothing; the empty batch is the answer.
        return vector.create_empty_array(space, 0) if out is None else out
    if out is not None:
        return vector.concatenate(space, items, out)
    if not fills_out(space):
        return vector.concatenate(space, items, None)  # a tuple of the samples
    try:
        return vector.concatenate(space, items, vector.create_empty_array(space, count))
    except (TypeError, IndexError):
        # The layout cannot hold these samples: unusual states such as a float
        # ``start`` or ``min_length`` restored by ``__setstate__`` (``sample``
        # then returns floats; Text's empty element needs an int). The batch is
        # still the loop's samples, stacked as they are.
        return vector.concatenate(space, items, _stacking_placeholder(space, count))


def _item_slots(count: int) -> list[Any]:
    """A list of ``count`` slots, or an error before any draw if no batch that long can exist."""
    if count > sys.maxsize // 8:
        # Not even a pointer per sample fits in memory (numpy: "array is too big").
        raise ValueError(f"a batch of {count} samples is too big to be materialised")
    return [None] * count


def fills_out(space: Any) -> bool:
    """Whether ``concatenate`` writes a batch of ``space`` into its ``out`` (array
    leaves, Tuple/Dict trees, custom rules) rather than returning a tuple of samples."""
    from gymspaces import vector

    return vector.concatenate.dispatch(type(space)) is not vector.space_utils._concatenate_as_tuple


def _stacking_placeholder(space: Any, count: int) -> Any:
    """An ``out`` for ``concatenate`` that makes it stack without casting: ``None`` at the
    built-in leaves (``np.stack(items)``; ignored by tuple batches), nested like the space."""
    from gymspaces import vector
    from gymspaces.box import Box
    from gymspaces.dict import Dict
    from gymspaces.discrete import Discrete
    from gymspaces.multi_binary import MultiBinary
    from gymspaces.multi_discrete import MultiDiscrete
    from gymspaces.tuple import Tuple

    kind = type(space)
    if kind is Dict:
        return {key: _stacking_placeholder(child, count) for key, child in space.spaces.items()}
    if kind is Tuple:
        return tuple(_stacking_placeholder(child, count) for child in space.spaces)
    if kind in (Box, Discrete, MultiDiscrete, MultiBinary) or not fills_out(space):
        return None
    return vector.create_empty_array(space, count)  # a custom rule may need its own out


def detach_from_out(batched: Any, out: Any) -> Any:
    """``batched`` (a mask or probability tree) with every array that shares memory
    with an array of ``out`` replaced by a copy.

    Compiled batches write row after row into ``out`` while reading the
    arguments, and composites fill one child's ``out`` before reading the next
    child's argument; the loop they stand for reads every argument before
    anything is written. Detaching the overlapping arguments keeps them equal.
    """
    if batched is None or out is None:
        return batched
    targets: list[np.ndarray] = []
    _arrays(out, targets)
    if not targets:
        return batched
    return _detached(batched, targets)


def _arrays(tree: Any, found: list[np.ndarray]) -> None:
    if isinstance(tree, np.ndarray):
        found.append(tree)
    elif isinstance(tree, Mapping):
        for value in tree.values():
            _arrays(value, found)
    elif isinstance(tree, (tuple, list)):
        for value in tree:
            _arrays(value, found)


def _detached(tree: Any, targets: list[np.ndarray]) -> Any:
    if isinstance(tree, np.ndarray):
        if any(np.may_share_memory(tree, target) for target in targets):
            return tree.copy()
        return tree
    if isinstance(tree, Mapping):
        return {key: _detached(value, targets) for key, value in tree.items()}
    if isinstance(tree, tuple):
        return tuple(_detached(value, targets) for value in tree)
    if isinstance(tree, list):
        return [_detached(value, targets) for value in tree]
    return tree


def _numeric_batch(batch: Any) -> bool:
    """An array batch of bool, integer, float or complex items, whose membership the
    vectorised rules decide exactly as ``contains`` decides each item. Other dtypes
    (object, strings, datetimes and timedeltas...) go item by item."""
    return isinstance(batch, np.ndarray) and batch.ndim >= 1 and batch.dtype.kind in "biufc"


def contains_batch_by_items(space: Any, batch: Any) -> np.ndarray:
    """``contains_batch`` as ``contains`` of every item of the batch (generic rule)."""
    items = _items(batch)
    return np.fromiter((bool(space.contains(item)) for item in items), dtype=np.bool_, count=len(items))


def _items(batch: Any) -> Any:
    """The items of a batch of a non-composite space: rows of an array, entries of a sequence."""
    if isinstance(batch, np.ndarray):
        if batch.ndim == 0:
            raise ValueError("a batch must have a leading axis, got a 0-d array")
        return list(batch)
    if isinstance(batch, (tuple, list)):
        return batch
    raise TypeError(f"a batch must be an array, tuple or list, actual type: {type(batch)}")


# ---------------------------------------------------------------------------
# Fundamental spaces: one compiled call per batch
# ---------------------------------------------------------------------------


def box_sample_batch(space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
    """Draw ``n`` samples at once (not in Gymnasium): the Box kernel fills all rows in one call.

    Returns an array of shape ``(n, *space.shape)`` and the space's dtype,
    equal to ``n`` stacked :meth:`Box.sample` draws. Like ``Box.sample``, it
    accepts no mask or probability (passing one raises
    :class:`gymspaces.error.Error`). ``out`` is filled in place and returned.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box
    >>> batch = Box(-1, 1, shape=(2,), seed=0).sample_batch(3)
    >>> batch.shape, batch.dtype
    ((3, 2), dtype('float32'))
    >>> loop = Box(-1, 1, shape=(2,), seed=0)
    >>> np.array_equal(batch, np.stack([loop.sample() for _ in range(3)]))
    True
    """
    from gymspaces import _box

    count = batch_count(n)
    if mask is not None or probability is not None:
        space.sample(mask=mask, probability=probability)  # raises Gymnasium's error
    drawn = _box.box_sample_batch(space, count, out)
    return sample_batch_by_loop(space, count, out=out) if drawn is None else drawn


def discrete_sample_batch(space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
    """Draw ``n`` samples at once (not in Gymnasium): plain, or one masked/weighted draw per row, in C.

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
    from gymspaces import _discrete

    count = batch_count(n)
    mask, probability = detach_from_out(mask, out), detach_from_out(probability, out)
    drawn = _discrete.discrete_sample_batch(space, count, mask, probability, out)
    if drawn is None:
        return sample_batch_by_loop(space, count, mask, probability, out)
    return drawn


def multi_discrete_sample_batch(
    space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None
) -> Any:
    """Draw ``n`` samples at once (not in Gymnasium): plain batches in one compiled call.

    Returns an array of shape ``(n, *nvec.shape)``. A mask (or probability)
    is a tuple mirroring ``nvec`` whose leaves have shape ``(n, k)`` (one row
    per sample) or ``(k,)`` (shared by every sample); plain and masked batches
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
    from gymspaces import _discrete

    count = batch_count(n)
    mask, probability = detach_from_out(mask, out), detach_from_out(probability, out)
    if mask is None and probability is None:
        drawn = _discrete.multi_discrete_sample_batch(space, count, out)
        if drawn is not None:
            return drawn
    elif probability is None and type(mask) is tuple:
        drawn = _discrete.multi_discrete_masked_batch(space, count, mask, out)
        if drawn is not None:
            return drawn
    return sample_batch_by_loop(space, count, mask, probability, out)


def multi_binary_sample_batch(
    space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None
) -> Any:
    """Draw ``n`` samples at once (not in Gymnasium): plain batches in one compiled call.

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
    from gymspaces import _multi_binary

    count = batch_count(n)
    mask, probability = detach_from_out(mask, out), detach_from_out(probability, out)
    if mask is None and probability is None:
        return _multi_binary.multi_binary_sample_batch(space, count, out)
    if probability is None:
        drawn = _multi_binary.multi_binary_masked_batch(space, count, mask, out)
        if drawn is not None:
            return drawn
    return sample_batch_by_loop(space, count, mask, probability, out)


def _all_rows(batch: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Per-row ``all`` of an elementwise verdict shaped like ``batch``."""
    n = batch.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.bool_)
    return cast(np.ndarray, np.asarray(ok).reshape(n, -1).all(axis=1))


def _row_shape_matches(batch: Any, shape: tuple[int, ...]) -> bool:
    return isinstance(batch, np.ndarray) and batch.ndim >= 1 and batch.shape[1:] == shape


def box_contains_batch(space: Any, batch: Any) -> np.ndarray:
    """Membership of every row (not in Gymnasium): shape, castability and bounds checked at once.

    An array batch whose rows have the wrong shape, or whose dtype does not
    cast safely to the space's dtype, gives ``False`` for every row.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box
    >>> space = Box(0, 1, shape=(2,))
    >>> space.contains_batch(np.array([[0.5, 0.5], [1.5, 0.0], [0.0, 1.0]], dtype=np.float32))
    array([ True, False,  True])
    >>> space.contains_batch(np.array([[0.5, 0.5]], dtype=np.float64))  # float64 is not float32
    array([False])
    """
    if not _numeric_batch(batch):
        return contains_batch_by_items(space, batch)
    if batch.shape[1:] != space.shape or not np.can_cast(batch.dtype, space.dtype):
        return np.zeros(batch.shape[0], dtype=np.bool_)
    return _all_rows(batch, (batch >= space.low) & (batch <= space.high))


def discrete_contains_batch(space: Any, batch: Any) -> np.ndarray:
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
    if not _numeric_batch(batch):
        return contains_batch_by_items(space, batch)
    n = batch.shape[0]
    if batch.ndim != 1 or not np.issubdtype(batch.dtype, np.integer) or not np.can_cast(batch.dtype, space.dtype):
        return np.zeros(n, dtype=np.bool_)  # items are not integer scalars of a castable dtype
    info = np.iinfo(batch.dtype)
    lowest, past = int(space.start), int(space.start) + int(space.n)
    # Exact bounds in the batch's own dtype (clamped so that they are representable).
    if lowest > info.max or past - 1 < info.min or past <= lowest:
        return np.zeros(n, dtype=np.bool_)
    low = batch.dtype.type(max(lowest, info.min))
    high = batch.dtype.type(min(past - 1, info.max))
    return (batch >= low) & (batch <= high)


def multi_discrete_contains_batch(space: Any, batch: Any) -> np.ndarray:
    """Membership of every row (not in Gymnasium): shape, castability and range checked at once.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import MultiDiscrete
    >>> MultiDiscrete([2, 3]).contains_batch(np.array([[1, 2], [2, 0], [0, 0]]))
    array([ True, False,  True])
    """
    # A 0-d nvec's items are numpy scalars, which contains rejects (it wants arrays).
    if not _numeric_batch(batch) or space.shape == ():
        return contains_batch_by_items(space, batch)
    if batch.shape[1:] != space.shape or not np.can_cast(batch.dtype, space.dtype):
        return np.zeros(batch.shape[0], dtype=np.bool_)
    return _all_rows(batch, (space.start <= batch) & (batch <= space.start + (space.nvec - 1)))


def multi_binary_contains_batch(space: Any, batch: Any) -> np.ndarray:
    """Membership of every row (not in Gymnasium): shape and 0/1 entries checked at once.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import MultiBinary
    >>> MultiBinary(3).contains_batch(np.array([[0, 1, 1], [0, 2, 1]], dtype=np.int8))
    array([ True, False])
    """
    # A 0-d space's items are numpy scalars, which contains rejects (it wants arrays).
    if not _numeric_batch(batch) or space.shape == ():
        return contains_batch_by_items(space, batch)
    if batch.shape[1:] != space.shape:
        return np.zeros(batch.shape[0], dtype=np.bool_)
    return _all_rows(batch, np.logical_or(batch == 0, batch == 1))


# ---------------------------------------------------------------------------
# Tuple and Dict: child by child when that draws what the loop draws
# ---------------------------------------------------------------------------


def _generators(space: Any, found: list[Any]) -> None:
    """Every generator object set in ``space``'s tree (children included)."""
    own = getattr(space, "_np_random", None)
    if own is not None:
        found.append(own)
    children: Any = getattr(space, "spaces", None)
    if isinstance(children, Mapping):
        children = list(children.values())
    for child in list(children or ()) + [
        getattr(space, name, None) for name in ("feature_space", "node_space", "edge_space")
    ]:
        if child is not None and child is not space and hasattr(child, "sample"):
            _generators(child, found)


def independent_children(space: Any) -> bool:
    """No generator is shared inside the tree: then children may be batched one after another
    (each one's draws do not depend on the others'), which is what ``n`` samples draw."""
    found: list[Any] = []
    _generators(space, found)
    return len({id(generator) for generator in found}) == len(found)


def dict_sample_batch(space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
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
    count = batch_count(n)
    check_mask_or_probability(mask, probability)
    kind, batched = ("mask", mask) if mask is not None else ("probability", probability)
    batched = detach_from_out(batched, out)
    keys = list(space.spaces)
    usable = independent_children(space) and (
        batched is None or (isinstance(batched, Mapping) and set(batched) == set(keys))
    ) and (out is None or (isinstance(out, Mapping) and set(out) >= set(keys)))
    if not usable:
        return sample_batch_by_loop(space, count, mask, probability, out)
    result = {} if out is None else out
    for key in keys:
        child_out = _child_out(space.spaces[key], None if out is None else out[key])
        argument = None if batched is None else batched[key]
        result[key] = space.spaces[key].sample_batch(count, **{kind: argument}, out=child_out)
    return result


def tuple_sample_batch(space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
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
    count = batch_count(n)
    check_mask_or_probability(mask, probability)
    kind, batched = ("mask", mask) if mask is not None else ("probability", probability)
    batched = detach_from_out(batched, out)
    children = space.spaces
    usable = independent_children(space) and (
        batched is None or (isinstance(batched, tuple) and len(batched) == len(children))
    ) and (out is None or (isinstance(out, tuple) and len(out) == len(children)))
    if not usable:
        return sample_batch_by_loop(space, count, mask, probability, out)
    return tuple(
        child.sample_batch(
            count,
            **{kind: None if batched is None else batched[i]},
            out=_child_out(child, None if out is None else out[i]),
        )
        for i, child in enumerate(children)
    )


def _child_out(child: Any, out: Any) -> Any:
    """A child's part of a composite ``out``; ``None`` for children batched as tuples
    of samples, whose part (``create_empty_array``'s tuple) is replaced, not filled."""
    return out if out is None or fills_out(child) else None


def dict_contains_batch(space: Any, batch: Any) -> np.ndarray:
    """Membership of every row (not in Gymnasium): the children's verdicts, combined row by row.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)})
    >>> pos = np.array([[0, 0], [2, 0], [0, 0]], dtype=np.float32)
    >>> space.contains_batch({"pos": pos, "action": np.array([1, 1, 7])})  # bad pos, bad action
    array([ True, False, False])
    """
    if not isinstance(batch, Mapping):
        raise TypeError(f"a batch of a Dict space must be a mapping, actual type: {type(batch)}")
    # A batch is laid out as batch_space lays it out: one entry per key, like
    # a Tuple batch has one part per child (its length is checked likewise).
    if batch.keys() != space.spaces.keys():
        raise TypeError(
            f"a batch of a Dict space must have exactly its keys {list(space.spaces)}, actual keys: {list(batch)}"
        )
    try:
        return _combine([child.contains_batch(batch[key]) for key, child in space.spaces.items()])
    except Exception:
        # ``contains`` of an item stops at its first child that is not a member,
        # so an error from a later child may not happen item by item.
        return _contains_by_iterating(space, batch)


def tuple_contains_batch(space: Any, batch: Any) -> np.ndarray:
    """Membership of every row (not in Gymnasium): the children's verdicts, combined row by row.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Discrete, MultiBinary, Tuple
    >>> space = Tuple((Discrete(3), MultiBinary(2)))
    >>> space.contains_batch((np.array([0, 3]), np.array([[0, 1], [1, 1]], dtype=np.int8)))
    array([ True, False])
    """
    if not isinstance(batch, tuple) or len(batch) != len(space.spaces):
        raise TypeError(f"a batch of a Tuple space must be a tuple of {len(space.spaces)} child batches")
    try:
        return _combine([child.contains_batch(part) for child, part in zip(space.spaces, batch)])
    except Exception:
        return _contains_by_iterating(space, batch)  # see dict_contains_batch


def _contains_by_iterating(space: Any, batch: Any) -> np.ndarray:
    """``contains`` of every item ``iterate`` yields, errors included (the definition)."""
    from gymspaces import vector

    # iterate reads only the batched space's structure, which a batch of one gives.
    items = list(vector.iterate(vector.batch_space(space, 1), batch))
    return np.fromiter((bool(space.contains(item)) for item in items), dtype=np.bool_, count=len(items))


def _combine(verdicts: list[np.ndarray]) -> np.ndarray:
    if not verdicts:
        raise ValueError("an empty Tuple/Dict batch has no length")
    lengths = {len(verdict) for verdict in verdicts}
    if len(lengths) != 1:
        raise ValueError(f"the child batches have different lengths: {sorted(lengths)}")
    result = verdicts[0].copy()
    for verdict in verdicts[1:]:
        result &= verdict
    return result
