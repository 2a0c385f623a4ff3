"""``flatten_batch``: flatten every element of a batch into one 2-D array (beyond Gymnasium).

Row ``i`` of ``flatten_batch(space, batch)`` is ``flatten(space, item_i)`` for
the ``i``-th item :func:`gymspaces.vector.iterate` yields from ``batch``, so the
result equals ``np.stack([flatten(space, item) for item in iterate(...)])``.
Box, MultiBinary, Discrete and MultiDiscrete leaves, and Tuple/Dict trees of
them, are encoded in one compiled pass (``_flatten.flatten_rows``); what it
leaves aside (other containers, unusual dtypes or layouts, out-of-range values,
an ``out`` it cannot write) is encoded leaf by leaf with whole-batch numpy
operations written straight into column slices of the output, and anything
else takes the item-by-item rule, which raises what ``flatten`` raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gymspaces import _batching, _flatten
from gymspaces._flattening import flatdim, flatten
from gymspaces._sample_batch import detach_from_out
from gymspaces.box import Box
from gymspaces.dict import Dict
from gymspaces.discrete import Discrete
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.tuple import Tuple

__all__ = ["flatten_batch"]


def flatten_batch(space: Any, batch: Any, out: np.ndarray | None = None) -> np.ndarray:
    """Flatten every element of a batch of ``space`` elements; one row per element (not in Gymnasium).

    Parameters
    ----------
    space : Space
        A space that flattens to an array (``space.is_np_flattenable``).
    batch : Any
        A batch as ``batch_space(space, n)`` holds it (what ``sample_batch``,
        ``concatenate`` or ``create_empty_array`` produce).
    out : numpy.ndarray, optional
        A writeable ``(n, flatdim(space))`` array of the flat dtype to write into.

    Returns
    -------
    numpy.ndarray
        ``(n, flatdim(space))``; ``out`` when given.

    Examples
    --------
    >>> from gymspaces import Dict, Box, Discrete
    >>> from gymspaces.utils import flatten_batch
    >>> space = Dict({"d": Discrete(3), "b": Box(0, 1, (2,))}, seed=0)
    >>> flatten_batch(space, space.sample_batch(4)).shape
    (4, 5)
    """
    result = _flatten.flatten_rows(space, batch, out)
    if result is not None:
        return result
    width = flatdim(space)
    n = _length(space, batch)
    plan = _plan(space)
    # Every check of the batch comes before the first write into ``out``.
    if plan is None or not _encodable(space, batch, n):
        return _by_items(space, batch, n, width, out)
    # Leaves are read after ``out``'s columns are zeroed: a leaf viewing ``out`` is copied first.
    batch = detach_from_out(batch, out)
    result = _output(out, n, width, plan[0])
    _encode(space, batch, result, 0)
    return result


def _length(space: Any, batch: Any) -> int:

    if isinstance(space, (Dict, Tuple)) and not space.spaces:
        raise ValueError(f"a batch of the empty space {space} has no length")
    if isinstance(space, Dict):
        if not isinstance(batch, Mapping):
            raise TypeError(f"a batch of a Dict space must be a mapping, actual type: {type(batch)}")
        return _length(next(iter(space.spaces.values())), batch[next(iter(space.spaces))])
    if isinstance(space, Tuple):
        if not isinstance(batch, tuple):
            raise TypeError(f"a batch of a Tuple space must be a tuple, actual type: {type(batch)}")
        return _length(space.spaces[0], batch[0])
    return len(batch)


def _plan(space: Any) -> tuple[np.dtype] | None:
    """``(flat dtype,)`` if the tree is made of leaves encoded here, else ``None``."""

    kind = type(space)
    if kind in (Box, MultiBinary, Discrete, MultiDiscrete):
        return (np.dtype(space.dtype),)
    if kind in (Dict, Tuple):
        children = list(space.spaces.values()) if kind is Dict else list(space.spaces)
        if not children:
            return None
        dtypes = []
        for child in children:
            plan = _plan(child)
            if plan is None:
                return None
            dtypes.append(plan[0])
        # np.concatenate of the children's flat arrays promotes like this.
        return (np.result_type(*dtypes),)
    return None


def _encodable(space: Any, batch: Any, n: int) -> bool:
    """Whether every leaf batch is an array of ``n`` numeric items that flatten without
    Gymnasium's edge cases (anything else, unequal lengths included, goes item by item)."""

    kind = type(space)
    if kind is Dict:
        return isinstance(batch, Mapping) and all(
            key in batch and _encodable(child, batch[key], n) for key, child in space.spaces.items()
        )
    if kind is not Box and kind is not MultiBinary and kind is not Discrete and kind is not MultiDiscrete:
        return isinstance(batch, tuple) and len(batch) == len(space.spaces) and all(
            _encodable(child, part, n) for child, part in zip(space.spaces, batch)
        )
    if type(batch) is not np.ndarray or batch.ndim < 1 or batch.shape[0] != n or batch.dtype.kind not in "biuf":
        return False
    if kind is Box or kind is MultiBinary:
        return batch.shape[1:] == space.shape
    if batch.dtype.kind not in "iu" or batch.dtype == np.uint64:
        return False  # (uint64 - int64 start would go through float64)
    if kind is Discrete:
        # One-hot positions x - start in [0, n): anything else keeps flatten's own rules.
        return batch.ndim == 1 and bool(((batch >= space.start) & (batch < space.start + space.n)).all())
    return batch.shape[1:] == space.shape and bool(
        ((batch >= space.start) & (batch <= space.start + (space.nvec - 1))).all()
    )


def _encode(space: Any, batch: Any, out: np.ndarray, column: int) -> int:
    """Write the flat encoding of ``batch`` into ``out[:, column:]``; return the next column."""

    kind = type(space)
    n = out.shape[0]
    if kind is Dict:
        for key, child in space.spaces.items():
            column = _encode(child, batch[key], out, column)
        return column
    if kind is Box or kind is MultiBinary:
        size = int(np.prod(space.shape, dtype=np.int64))
        # flatten casts to the leaf's dtype first, then concatenation to the tree's.
        out[:, column : column + size] = np.asarray(batch, dtype=space.dtype).reshape(n, size)
        return column + size
    if kind is Discrete:
        width = int(space.n)
        block = out[:, column : column + width]
        block[...] = 0
        block[np.arange(n), (batch - space.start).astype(np.intp)] = 1
        return column + width
    if kind is MultiDiscrete:
        nvec = space.nvec.reshape(-1).astype(np.intp)
        width = int(nvec.sum())
        offsets = np.zeros(len(nvec), dtype=np.intp)
        offsets[1:] = np.cumsum(nvec)[:-1]
        block = out[:, column : column + width]
        block[...] = 0
        positions = offsets + (batch - space.start).reshape(n, len(nvec)).astype(np.intp)
        block[np.arange(n)[:, None], positions] = 1
        return column + width
    for child, part in zip(space.spaces, batch):
        column = _encode(child, part, out, column)
    return column


def _output(out: Any, n: int, width: int, dtype: np.dtype | type[np.float64]) -> np.ndarray:
    if out is None:
        return np.empty((n, width), dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, actual type: {type(out)}")
    if out.shape != (n, width):
        raise ValueError(f"out must have shape {(n, width)}, actual shape: {out.shape}")
    if out.dtype != dtype:
        raise ValueError(f"out must have dtype {dtype}, actual dtype: {out.dtype}")
    if not out.flags.writeable:
        raise ValueError("out must be writeable")
    return out


def _by_items(space: Any, batch: Any, n: int, width: int, out: Any) -> np.ndarray:
    """The general rule: ``flatten`` of every item ``iterate`` yields, stacked."""
    rows: list[Any] = [flatten(space, item) for item in _batching.iterate(_batching.batch_space(space, n), batch)]
    if rows and not isinstance(rows[0], np.ndarray):
        raise TypeError(f"flatten_batch needs a space that flattens to an array; {space} does not")
    if not rows:
        plan = _plan(space)
        return _output(out, 0, width, plan[0] if plan is not None else np.float64)
    stacked = np.stack(rows)
    if out is None:
        return stacked
    result = _output(out, n, width, stacked.dtype)
    result[...] = stacked
    return result
