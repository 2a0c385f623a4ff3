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

Where things live
-----------------
This module holds the general rule (:meth:`Space.sample_batch` as a loop of
``sample``, :meth:`Space.contains_batch` item by item) and the helpers every
space's own batch methods share; each space's compiled batch methods and its
per-row slicing of batched masks live with the space. It knows no Space
subclass. Stacking a loop's samples goes through the batching functions
(``concatenate``, ``create_empty_array``), declared below the spaces in
:mod:`gymspaces._batching`; the rules they apply are registered above them.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Mapping
from collections.abc import Sequence as SequenceABC
from typing import Any, cast

import numpy as np

from gymspaces import _batching
from gymspaces._arguments import check_mask_or_probability

__all__ = [
    "array_row",
    "batch_count",
    "contains_batch_by_items",
    "all_rows",
    "detach_from_out",
    "fills_out",
    "numeric_batch",
    "generic_placeholder",
    "row_argument",
    "sequence_row",
    "sample_batch_by_loop",
    "sample_batch_compiled",
    "stacking_placeholder",
]

def batch_count(n: Any) -> int:
    """``n`` as a non-negative ``int`` (``TypeError`` for non-integers, ``ValueError`` if negative)."""
    count = operator.index(n)
    if count < 0:
        raise ValueError(f"the number of samples must be non-negative, got {count}")
    return count


def row_argument(space: Any, batched: Any, row: int, n: int) -> Any:
    """Sample ``row``'s mask or probability out of a batched one for ``space``.

    Spaces slice their own batched arguments (``_batch_row_argument``); a
    space that does not (a custom Gymnasium space inside a composite) takes a
    sequence of ``n`` per-sample arguments.
    """
    if batched is None:
        return None
    own_rule = getattr(space, "_batch_row_argument", None)
    if own_rule is None:
        return sequence_row(space, batched, row, n)
    return own_rule(batched, row, n)


def sequence_row(space: Any, batched: Any, row: int, n: int) -> Any:
    """Row ``row`` of a batched argument given as a sequence of ``n`` per-sample arguments."""
    if not isinstance(batched, SequenceABC) or len(batched) != n:
        raise ValueError(
            f"a batched mask of {type(space).__name__} must be a sequence of {n} per-sample "
            f"masks, actual: {type(batched)}"
        )
    return batched[row]


def array_row(batched: Any, single_ndim: int, row: int, n: int) -> Any:
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


def sample_batch_compiled(
    space: Any,
    n: Any,
    mask: Any,
    probability: Any,
    out: Any,
    unmasked: Callable[[Any, int, Any], Any],
    masked: Callable[[Any, int, Any, Any], Any],
) -> Any:
    """``sample_batch`` through a space's batch kernels: ``unmasked(space, count, out)``
    without arguments, ``masked(space, count, mask, out)`` with a mask alone. Where the
    kernel returns ``None`` (or for a probability) the batch is :func:`sample_batch_by_loop`'s.
    Arguments that share memory with ``out`` are detached first (:func:`detach_from_out`).
    """
    count = batch_count(n)
    mask, probability = detach_from_out(mask, out), detach_from_out(probability, out)
    drawn = None
    if mask is None and probability is None:
        drawn = unmasked(space, count, out)
    elif probability is None:
        drawn = masked(space, count, mask, out)
    return sample_batch_by_loop(space, count, mask, probability, out) if drawn is None else drawn


def sample_batch_by_loop(space: Any, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
    """``sample_batch`` as ``n`` calls of ``sample`` stacked by ``_batching.concatenate``.

    Exact for every space, including custom ones whose ``batch_space`` and
    ``concatenate`` rules are registered. Everything that can fail without
    drawing (the count, ``out``) is checked before the first draw.
    """
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
        return _batching.create_empty_array(space, 0) if out is None else out
    if out is not None:
        return _batching.concatenate(space, items, out)
    if not fills_out(space):
        return _batching.concatenate(space, items, None)  # a tuple of the samples
    try:
        return _batching.concatenate(space, items, _batching.create_empty_array(space, count))
    except (TypeError, IndexError):
        # The layout cannot hold these samples: unusual states such as a float
        # ``start`` or ``min_length`` restored by ``__setstate__`` (``sample``
        # then returns floats; Text's empty element needs an int). The batch is
        # still the loop's samples, stacked as they are.
        return _batching.concatenate(space, items, stacking_placeholder(space, count))


def _item_slots(count: int) -> list[Any]:
    """A list of ``count`` slots, or an error before any draw if no batch that long can exist."""
    if count > sys.maxsize // 8:
        # Not even a pointer per sample fits in memory (numpy: "array is too big").
        raise ValueError(f"a batch of {count} samples is too big to be materialised")
    return [None] * count


def fills_out(space: Any) -> bool:
    """Whether ``concatenate`` writes a batch of ``space`` into its ``out`` (array
    leaves, Tuple/Dict trees, custom rules) rather than returning a tuple of samples."""
    return _batching.concatenate.dispatch(type(space)) is not _batching.concatenate_as_tuple


def stacking_placeholder(space: Any, count: int) -> Any:
    """An ``out`` for ``concatenate`` that makes it stack without casting, nested like the space.

    ``None`` where ``concatenate`` stacks the samples themselves (the
    fundamental spaces' ``np.stack(items)``; tuple batches ignore ``out``);
    composites nest their children's placeholders (``_batch_placeholder``);
    a custom rule gets the layout it expects.
    """
    own_rule = getattr(space, "_batch_placeholder", None)
    if own_rule is None:
        return generic_placeholder(space, count)
    return own_rule(count)


def generic_placeholder(space: Any, count: int) -> Any:
    """The placeholder of a space without a layout of its own: nothing for tuple batches
    (``concatenate`` ignores it), the regular layout for custom rules."""
    if not fills_out(space):
        return None
    return _batching.create_empty_array(space, count)


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


def numeric_batch(batch: Any) -> bool:
    """An array batch of bool, integer, float or complex items, whose membership the
    vectorised rules decide exactly as ``contains`` decides each item. Other dtypes
    (object, strings, datetimes and timedeltas...) go item by item."""
    return isinstance(batch, np.ndarray) and batch.ndim >= 1 and batch.dtype.kind in "biufc"


def contains_batch_by_items(space: Any, batch: Any) -> np.ndarray:
    """``contains_batch`` as ``contains`` of every item of the batch (the general rule)."""
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


def all_rows(batch: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Per-row ``all`` of an elementwise answer shaped like ``batch``."""
    n = batch.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.bool_)
    return cast(np.ndarray, np.asarray(ok).reshape(n, -1).all(axis=1))


