"""The rules of the flatten family, public as :mod:`gymspaces.utils` (what they
promise, and how a custom space registers its own, is said there)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces import _batching, _flatten
from gymspaces._dispatch import SpaceDispatcher, public_entry, space_building_dispatch, space_dispatch
from gymspaces.box import Box
from gymspaces.dict import Dict
from gymspaces.discrete import Discrete
from gymspaces.graph import Graph, GraphInstance
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.oneof import OneOf
from gymspaces.sequence import Sequence
from gymspaces.space import Space
from gymspaces.text import Text
from gymspaces.tuple import Tuple

__all__ = [
    "FlatType",
    "flatdim",
    "flatten",
    "flatten_space",
    "unflatten",
    "is_space_dtype_shape_equiv",
]

T = TypeVar("T")
FlatType = Union[np.ndarray[Any, np.dtype[Any]], dict[str, Any], tuple[Any, ...], GraphInstance]

_NOT_FLATTENABLE = (
    "{} cannot be flattened to a numpy array, probably because it contains a `Graph` or "
    "`Sequence` subspace"
)


# ----------------------------------------------------------------------------
# dtype of a flattened element
# ----------------------------------------------------------------------------


@space_dispatch
def _flat_dtype(space: Space[Any]) -> np.dtype:
    """dtype of ``flatten(space, x)``: the space's own dtype unless overridden."""
    if space.dtype is None:
        raise ValueError(
            f"{space} does not have a dtype, therefore, it cannot be flattened to a numpy "
            "array, probably because it contains a `Graph` or `Sequence` subspace."
        )
    return space.dtype


@_flat_dtype.register(Text)
def _(space: Text) -> np.dtype:
    return np.dtype(np.int32)


@_flat_dtype.register(Tuple)
def _(space: Tuple) -> np.dtype:
    return np.result_type(*(_flat_dtype(child) for child in space.spaces))


@_flat_dtype.register(Dict)
def _(space: Dict) -> np.dtype:
    return np.result_type(*(_flat_dtype(child) for child in space.spaces.values()))


@_flat_dtype.register(OneOf)
def _(space: OneOf) -> np.dtype:
    dtype = np.result_type(*(_flat_dtype(child) for child in space.spaces))
    # The first entry stores the child's index, which must fit the dtype.
    largest_index = len(space.spaces) - 1
    if (dtype.kind == "b" and largest_index > 1) or (
        dtype.kind in "iu" and largest_index > np.iinfo(dtype).max
    ):
        dtype = np.result_type(dtype, np.min_scalar_type(largest_index))
    return dtype


# ----------------------------------------------------------------------------
# flatdim
# ----------------------------------------------------------------------------


@space_dispatch
def flatdim(space: Space[Any]) -> int:
    """Length of the 1-D array ``flatten(space, x)`` returns.

    Typically the input size of a policy network that reads flattened
    observations.

    Raises
    ------
    ValueError
        For spaces without a fixed flat size (Graph, Sequence, or containers of them).
    NotImplementedError
        For custom spaces that registered no implementation.

    Examples
    --------
    A 2x3 Box gives 6 values and a Discrete(4) a one-hot block of 4:

    >>> from gymspaces import Box, Dict, Discrete, Sequence
    >>> from gymspaces.utils import flatdim
    >>> flatdim(Dict({"pos": Box(-1, 1, (2, 3)), "gear": Discrete(4)}))
    10
    >>> flatdim(Sequence(Discrete(3)))
    Traceback (most recent call last):
    ...
    ValueError: Sequence(Discrete(3), stack=False) cannot be flattened to a numpy array, ...
    """
    if space.is_np_flattenable is False:
        raise ValueError(_NOT_FLATTENABLE.format(space))
    raise NotImplementedError(f"Unknown space: `{space}`")


@flatdim.register(Box)
@flatdim.register(MultiBinary)
def _flatdim_box(space: Box | MultiBinary) -> int:
    return math.prod(space.shape)


@flatdim.register(Discrete)
def _flatdim_discrete(space: Discrete) -> int:
    return int(space.n)


@flatdim.register(MultiDiscrete)
def _flatdim_multi_discrete(space: MultiDiscrete) -> int:
    size = _flatten.flatdim_tree(space)
    return int(np.sum(space.nvec)) if size is None else size


@flatdim.register(Tuple)
def _flatdim_tuple(space: Tuple) -> int:
    size = _flatten.flatdim_tree(space)
    if size is not None:
        return size
    if space.is_np_flattenable:
        return sum(flatdim(child) for child in space.spaces)
    raise ValueError(_NOT_FLATTENABLE.format(space))


@flatdim.register(Dict)
def _flatdim_dict(space: Dict) -> int:
    size = _flatten.flatdim_tree(space)
    if size is not None:
        return size
    if space.is_np_flattenable:
        return sum(flatdim(child) for child in space.spaces.values())
    raise ValueError(_NOT_FLATTENABLE.format(space))


@flatdim.register(Graph)
def _(space: Graph) -> int:
    raise ValueError("Cannot get flattened size as the Graph Space has a dynamic size.")


@flatdim.register(Text)
def _(space: Text) -> int:
    return space.max_length


@flatdim.register(OneOf)
def _(space: OneOf) -> int:
    return 1 + max(flatdim(child) for child in space.spaces)


# ----------------------------------------------------------------------------
# flatten
# ----------------------------------------------------------------------------


@space_dispatch  # the generic dispatcher behind the compiled entry ``flatten``
def generic_flatten(space: Space[T], x: T) -> FlatType:
    """Flatten an element of ``space``.

    Numpy-flattenable spaces give a 1-D array of :func:`flatdim` values
    (one-hot blocks for Discrete and MultiDiscrete); Tuple/Dict containing
    Graph or Sequence give a tuple/dict of flattened parts; Graph gives a
    GraphInstance of flattened features.

    Parameters
    ----------
    space : Space
        The space ``x`` belongs to.
    x : element of ``space``
        The value to flatten.
    out : numpy.ndarray, optional
        Not in Gymnasium. A writeable 1-D array of the result's length and
        exact dtype to write the flat values into (numpy-flattenable spaces
        only); it is returned.

    Returns
    -------
    numpy.ndarray, tuple, dict or GraphInstance
        The flat form of ``x``, which :func:`unflatten` turns back into ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> from gymspaces.utils import flatten
    >>> flatten(Discrete(4, start=1), np.int64(2))
    array([0, 1, 0, 0])
    >>> space = Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)}, seed=0)
    >>> out = np.empty(5)
    >>> flatten(space, space.sample(), out=out) is out
    True
    >>> out
    array([ 0.        ,  1.        ,  0.        ,  0.65423167, -0.44851109])
    """
    raise NotImplementedError(f"Unknown space: `{space}`")


@generic_flatten.register(Box)
@generic_flatten.register(MultiBinary)
def _flatten_box(space: Box | MultiBinary, x: NDArray[Any]) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).flatten()


@generic_flatten.register(Discrete)
def _flatten_discrete(space: Discrete, x: Any) -> NDArray[Any]:
    one_hot = _flatten.discrete_one_hot(space, x)
    if one_hot is None:  # unusual input: let numpy index (and raise) as Gymnasium does
        one_hot = np.zeros(space.n, dtype=space.dtype)
        one_hot[x - space.start] = 1
    return one_hot


@generic_flatten.register(MultiDiscrete)
def _flatten_multi_discrete(space: MultiDiscrete, x: NDArray[Any]) -> NDArray[Any]:
    one_hot = _flatten.multi_discrete_one_hot(space, x)
    if one_hot is None:
        offsets = np.zeros((space.nvec.size + 1,), dtype=np.int32)
        offsets[1:] = np.cumsum(space.nvec.flatten())
        one_hot = np.zeros((offsets[-1],), dtype=space.dtype)
        one_hot[offsets[:-1] + (x - space.start).flatten()] = 1
    return one_hot


@generic_flatten.register(Tuple)
def _flatten_tuple(space: Tuple, x: tuple[Any, ...]) -> tuple[Any, ...] | NDArray[Any]:
    # Trees of fundamental spaces (always flattenable) take the compiled path.
    flat = _flatten.flatten_tree(space, x)
    if flat is not None:
        return flat
    if space.is_np_flattenable:
        parts = [np.array(flatten(s, part)) for part, s in zip(x, space.spaces, strict=True)]
        return np.concatenate(parts)
    return tuple(flatten(s, part) for part, s in zip(x, space.spaces, strict=True))


@generic_flatten.register(Dict)
def _flatten_dict(space: Dict, x: dict[str, Any]) -> dict[str, Any] | NDArray[Any]:
    flat = _flatten.flatten_tree(space, x)
    if flat is not None:
        return flat
    if space.is_np_flattenable:
        return np.concatenate([np.array(flatten(s, x[key])) for key, s in space.spaces.items()])
    return {key: flatten(s, x[key]) for key, s in space.spaces.items()}


@generic_flatten.register(Graph)
def _(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _flatten_batched(space.node_space, space.batch_node_space, x.nodes)
    edges = None
    if x.edges is not None:
        assert space.edge_space is not None
        # batch_edge_space is set together with edge_space (only the latter is checked, as in Gymnasium).
        edges = _flatten_batched(space.edge_space, space.batch_edge_space, x.edges)  # type: ignore[arg-type]
    return GraphInstance(nodes, edges, x.edge_links)


def _flatten_batched(
    feature_space: Space[Any], batched: Space[Any], items: Any, *, space_first: bool = True
) -> Any:
    """Flatten every item of a batch and stack the results in the flattened feature space.

    ``space_first``: flatten the feature space before the items (Gymnasium's order
    for Graph) or after them (its order for a stacked Sequence); when both steps
    raise, the first one decides the exception.
    """
    if space_first:
        flat_space = flatten_space(feature_space)
    flat_items = [flatten(feature_space, item) for item in _batching.iterate(batched, items)]
    if not space_first:
        flat_space = flatten_space(feature_space)
    out = _batching.create_empty_array(flat_space, n=len(flat_items))
    return _batching.concatenate(flat_space, flat_items, out)


@generic_flatten.register(Text)
def _(space: Text, x: str) -> NDArray[np.int32]:
    # Unused positions hold len(charset), an index no character has.
    flat = np.full((space.max_length,), len(space.character_set), dtype=np.int32)
    for position, char in enumerate(x):
        flat[position] = space.character_index(char)
    return flat


@generic_flatten.register(Sequence)
def _(space: Sequence, x: Any) -> Any:
    if space.stack:
        return _flatten_batched(
            space.feature_space, space.stacked_feature_space, x, space_first=False
        )
    return tuple(flatten(space.feature_space, item) for item in x)


@generic_flatten.register(OneOf)
def _(space: OneOf, x: tuple[int, Any]) -> NDArray[Any]:
    index, sample = x
    flat_sample = cast("NDArray[Any]", flatten(space.spaces[index], sample))
    width = flatdim(space) - 1
    if flat_sample.size < width:
        # Gymnasium pads with copies of the first element, not zeros (quirk Q22, docs/quirks.md).
        padding = np.full(width - flat_sample.size, flat_sample[0], dtype=flat_sample.dtype)
        flat_sample = np.concatenate([flat_sample, padding])
    dtype = _flat_dtype(space)
    return np.concatenate([np.array([index], dtype=dtype), flat_sample.astype(dtype, copy=False)])


# ----------------------------------------------------------------------------
# unflatten
# ----------------------------------------------------------------------------


@space_dispatch  # the generic dispatcher behind the compiled entry ``unflatten``
def generic_unflatten(space: Space[T], x: FlatType) -> T:
    """Inverse of :func:`flatten`: rebuild an element of ``space`` from its flat form.

    Raises
    ------
    ValueError
        When a one-hot block has no non-zero entry.

    Examples
    --------
    Round trip of a Dict observation, and a one-hot vector decoded:

    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> from gymspaces.utils import flatten, unflatten
    >>> space = Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)}, seed=0)
    >>> unflatten(space, flatten(space, space.sample()))
    {'gear': np.int64(1), 'pos': array([ 0.65423167, -0.4485111 ], dtype=float32)}
    >>> unflatten(Discrete(3), np.array([0, 0, 1]))
    np.int64(2)
    >>> unflatten(Discrete(3), np.zeros(3, dtype=np.int64))
    Traceback (most recent call last):
    ...
    ValueError: [0 0 0] is not a valid one-hot encoded vector and can not be unflattened ...
    """
    raise NotImplementedError(f"Unknown space: `{space}`")


@generic_unflatten.register(Box)
@generic_unflatten.register(MultiBinary)
def _unflatten_box(space: Box | MultiBinary, x: NDArray[Any]) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).reshape(space.shape)


@generic_unflatten.register(Discrete)
def _unflatten_discrete(space: Discrete, x: NDArray[Any]) -> Any:
    value = _flatten.discrete_from_one_hot(space, x)
    if value is not None:
        return value
    nonzero = np.nonzero(x)
    if len(nonzero[0]) == 0:
        raise ValueError(
            f"{x} is not a valid one-hot encoded vector and can not be unflattened to space "
            f"{space}. Not all valid samples in a flattened space can be unflattened."
        )
    return space.start + nonzero[0][0].astype(space.dtype)


@generic_unflatten.register(MultiDiscrete)
def _unflatten_multi_discrete(space: MultiDiscrete, x: NDArray[Any]) -> NDArray[Any]:
    value = _flatten.multi_discrete_from_one_hot(space, x)
    if value is not None:
        return value
    offsets = np.zeros((space.nvec.size + 1,), dtype=space.dtype)
    offsets[1:] = np.cumsum(space.nvec.flatten())
    (indices,) = np.nonzero(x)
    if len(indices) == 0:
        raise ValueError(
            f"{x} is not a concatenation of one-hot encoded vectors and can not be unflattened "
            f"to space {space}. Not all valid samples in a flattened space can be unflattened."
        )
    return np.asarray(indices - offsets[:-1], dtype=space.dtype).reshape(space.shape) + space.start


@generic_unflatten.register(Tuple)
def _unflatten_tuple(space: Tuple, x: NDArray[Any] | tuple[Any, ...]) -> tuple[Any, ...]:
    value = _flatten.unflatten_tree(space, x, unflatten)
    if value is not None:
        return value
    if space.is_np_flattenable:
        assert isinstance(x, np.ndarray), (
            f"{space} is numpy-flattenable. Thus, you should only unflatten numpy arrays for "
            f"this space. Got a {type(x)}"
        )
        parts = _split(x, [flatdim(child) for child in space.spaces])
        return tuple(unflatten(s, part) for part, s in zip(parts, space.spaces, strict=True))
    assert isinstance(x, tuple), (
        f"{space} is not numpy-flattenable. Thus, you should only unflatten tuples for this "
        f"space. Got a {type(x)}"
    )
    return tuple(unflatten(s, part) for part, s in zip(x, space.spaces, strict=True))


@generic_unflatten.register(Dict)
def _unflatten_dict(space: Dict, x: NDArray[Any] | dict[str, Any]) -> dict[str, Any]:
    value = _flatten.unflatten_tree(space, x, unflatten)
    if value is not None:
        return value
    if space.is_np_flattenable:
        assert isinstance(x, np.ndarray), (
            "x must be a numpy array when unflattening a numpy-flattenable space"
        )
        parts = _split(x, [flatdim(child) for child in space.spaces.values()])
        return {
            key: unflatten(s, part)
            for part, (key, s) in zip(parts, space.spaces.items(), strict=True)
        }
    assert isinstance(x, dict), (
        f"{space} is not numpy-flattenable. Thus, you should only unflatten dictionary for "
        f"this space. Got a {type(x)}"
    )
    return {key: unflatten(s, x[key]) for key, s in space.spaces.items()}


def _split(x: NDArray[Any], sizes: list[int]) -> list[NDArray[Any]]:
    """``np.split`` at the running totals of ``sizes`` (views of ``x``)."""
    return np.split(x, np.cumsum(np.asarray(sizes[:-1], dtype=np.int_)))


@generic_unflatten.register(Graph)
def _(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _unflatten_batched(space.node_space, x.nodes)
    edges = None
    if x.edges is not None:
        assert space.edge_space is not None
        edges = _unflatten_batched(space.edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


def _unflatten_batched(feature_space: Space[Any], flat_items: Any) -> Any:
    """Unflatten every row of a flattened batch and stack them in the feature space."""
    items = [
        unflatten(feature_space, row) for row in _batching.iterate(flatten_space(feature_space), flat_items)
    ]
    out = _batching.create_empty_array(feature_space, n=len(items))
    return _batching.concatenate(feature_space, items, out)


@generic_unflatten.register(Text)
def _(space: Text, x: NDArray[np.int32]) -> str:
    size = len(space.character_set)
    return "".join(space.character_list[value] for value in x if value < size)


@generic_unflatten.register(Sequence)
def _(space: Sequence, x: Any) -> Any:
    if space.stack:
        return _unflatten_batched(space.feature_space, x)
    return tuple(unflatten(space.feature_space, item) for item in x)


@generic_unflatten.register(OneOf)
def _(space: OneOf, x: NDArray[Any]) -> tuple[np.int64, Any]:
    index = np.int64(x[0])
    child = space.spaces[index]
    part = x[1 : 1 + flatdim(child)].astype(_flat_dtype(child))
    return index, unflatten(child, part)


# ----------------------------------------------------------------------------
# flatten_space
# ----------------------------------------------------------------------------


@space_building_dispatch
def flatten_space(space: Space[Any]) -> Box | Dict | Sequence | Tuple | Graph:
    """The space of flattened elements: a 1-D :class:`Box` when possible.

    Examples
    --------
    >>> from gymspaces import Discrete
    >>> flatten_space(Discrete(3))
    Box(0, 1, (3,), int64)
    """
    raise NotImplementedError(f"Unknown space: `{space}`")


@flatten_space.register(Box)
def _(space: Box) -> Box:
    return Box(space.low.flatten(), space.high.flatten(), dtype=space.dtype)


@flatten_space.register(Discrete)
@flatten_space.register(MultiBinary)
@flatten_space.register(MultiDiscrete)
def _(space: Discrete | MultiBinary | MultiDiscrete) -> Box:
    return Box(low=0, high=1, shape=(flatdim(space),), dtype=space.dtype)


def _flat_box(space: Space[Any]) -> Box:
    """``flatten_space`` of a space known to be np-flattenable (so the result is a Box)."""
    return cast(Box, flatten_space(space))


def _concatenated_box(flat_spaces: list[Box]) -> Box:
    return Box(
        low=np.concatenate([s.low for s in flat_spaces]),
        high=np.concatenate([s.high for s in flat_spaces]),
        dtype=np.result_type(*[s.dtype for s in flat_spaces]),
    )


@flatten_space.register(Tuple)
def _(space: Tuple) -> Box | Tuple:
    if space.is_np_flattenable:
        return _concatenated_box([_flat_box(child) for child in space.spaces])
    return Tuple(spaces=[flatten_space(child) for child in space.spaces])


@flatten_space.register(Dict)
def _(space: Dict) -> Box | Dict:
    if space.is_np_flattenable:
        return _concatenated_box([_flat_box(child) for child in space.spaces.values()])
    return Dict(
        spaces={key: flatten_space(child) for key, child in space.spaces.items()},
        sort_keys=space.sort_keys,
    )


@flatten_space.register(Graph)
def _(space: Graph) -> Graph:
    edge_space = None if space.edge_space is None else flatten_space(space.edge_space)
    return Graph(node_space=flatten_space(space.node_space), edge_space=edge_space)


@flatten_space.register(Text)
def _(space: Text) -> Box:
    return Box(low=0, high=len(space.character_set), shape=(space.max_length,), dtype=np.int32)


@flatten_space.register(Sequence)
def _(space: Sequence) -> Sequence:
    return Sequence(flatten_space(space.feature_space), stack=space.stack)


@flatten_space.register(OneOf)
def _(space: OneOf) -> Box:
    width = max(flatdim(child) for child in space.spaces) + 1
    lows = np.array([np.min(_flat_box(child).low) for child in space.spaces])
    highs = np.array([np.max(_flat_box(child).high) for child in space.spaces])
    low = np.concatenate([[0], np.full(width - 1, np.min(lows))])
    high = np.concatenate([[len(space.spaces) - 1], np.full(width - 1, np.max(highs))])
    return Box(low=low, high=high, shape=(width,), dtype=_flat_dtype(space))


# ----------------------------------------------------------------------------
# is_space_dtype_shape_equiv
# ----------------------------------------------------------------------------


@space_dispatch
def is_space_dtype_shape_equiv(space_1: Space[Any], space_2: Space[Any]) -> bool:
    """Whether two spaces have elements of the same structure, dtypes and shapes.

    Bounds and sizes that do not change the element layout are ignored, so
    ``Discrete(2)`` and ``Discrete(3)`` are equivalent.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Discrete
    >>> from gymspaces.utils import is_space_dtype_shape_equiv
    >>> is_space_dtype_shape_equiv(Box(0, 1, (3,)), Box(-5, 5, (3,)))
    True
    >>> is_space_dtype_shape_equiv(Box(0, 1, (3,)), Box(0, 1, (3,), dtype=np.float64))
    False
    >>> is_space_dtype_shape_equiv(Discrete(2), Discrete(3))
    True
    """
    if isinstance(space_1, Space) and isinstance(space_2, Space):
        raise NotImplementedError(
            "`check_dtype_shape_equivalence` doesn't support Generic Gymnasium Spaces, "
        )
    raise TypeError()


@is_space_dtype_shape_equiv.register(Box)
@is_space_dtype_shape_equiv.register(Discrete)
@is_space_dtype_shape_equiv.register(MultiDiscrete)
@is_space_dtype_shape_equiv.register(MultiBinary)
def _(space_1: Space[Any], space_2: Space[Any]) -> bool:
    return (
        type(space_1) is type(space_2)
        and space_1.shape == space_2.shape
        and space_1.dtype == space_2.dtype
    )


@is_space_dtype_shape_equiv.register(Text)
def _(space_1: Text, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Text)
        and space_1.max_length == space_2.max_length
        and space_1.character_set == space_2.character_set
    )


@is_space_dtype_shape_equiv.register(Dict)
def _(space_1: Dict, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Dict)
        and space_1.keys() == space_2.keys()
        and all(is_space_dtype_shape_equiv(space_1[key], space_2[key]) for key in space_1.keys())
    )


def _children_equivalent(space_1: Tuple | OneOf, space_2: Tuple | OneOf) -> bool:
    return len(space_1) == len(space_2) and all(
        is_space_dtype_shape_equiv(space_1[i], space_2[i]) for i in range(len(space_1))
    )


@is_space_dtype_shape_equiv.register(Tuple)
def _(space_1: Tuple, space_2: Space[Any]) -> bool:
    return isinstance(space_2, Tuple) and _children_equivalent(space_1, space_2)


@is_space_dtype_shape_equiv.register(OneOf)
def _(space_1: OneOf, space_2: Space[Any]) -> bool:
    return isinstance(space_2, OneOf) and _children_equivalent(space_1, space_2)


@is_space_dtype_shape_equiv.register(Graph)
def _(space_1: Graph, space_2: Space[Any]) -> bool:
    if not isinstance(space_2, Graph):
        return False
    if not is_space_dtype_shape_equiv(space_1.node_space, space_2.node_space):
        return False
    if space_1.edge_space is None or space_2.edge_space is None:
        return space_1.edge_space is None and space_2.edge_space is None
    return is_space_dtype_shape_equiv(space_1.edge_space, space_2.edge_space)


@is_space_dtype_shape_equiv.register(Sequence)
def _(space_1: Sequence, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Sequence)
        and space_1.stack is space_2.stack
        and is_space_dtype_shape_equiv(space_1.feature_space, space_2.feature_space)
    )


# ----------------------------------------------------------------------------
# Compiled fast paths
# ----------------------------------------------------------------------------

# The tree kernels apply the built-in rules of these classes; they stay on only
# while no user registration replaces one of them (see gymspaces._fill_registry).
BUILT_IN_RULES: dict[SpaceDispatcher[..., Any], dict[type, Callable[..., Any]]] = {
    generic_flatten: {
        Box: _flatten_box,
        MultiBinary: _flatten_box,
        Discrete: _flatten_discrete,
        MultiDiscrete: _flatten_multi_discrete,
        Tuple: _flatten_tuple,
        Dict: _flatten_dict,
    },
    flatdim: {
        Box: _flatdim_box,
        MultiBinary: _flatdim_box,
        Discrete: _flatdim_discrete,
        MultiDiscrete: _flatdim_multi_discrete,
        Tuple: _flatdim_tuple,
        Dict: _flatdim_dict,
    },
    generic_unflatten: {
        Box: _unflatten_box,
        MultiBinary: _unflatten_box,
        Discrete: _unflatten_discrete,
        MultiDiscrete: _unflatten_multi_discrete,
        Tuple: _unflatten_tuple,
        Dict: _unflatten_dict,
    },
}


# The public flatten and unflatten (the names the rules above call): compiled
# entries in front of the dispatchers, which they defer to for every case they
# do not take themselves (see gymspaces._fill_registry).
flatten = public_entry(generic_flatten)(_flatten.flatten)
unflatten = public_entry(generic_unflatten)(_flatten.unflatten)
