"""The batching rules of gymspaces' own classes, registered with the functions of :mod:`gymspaces._batching`.

The functions are declared below the spaces, which call them; the rules,
which build and read spaces of every class, are registered here, above them,
side by side as ``gymnasium.vector.utils.space_utils`` has them. The
generators of batched spaces are copies of the original's, exactly as in
Gymnasium, so ``batch_space(space, n).sample()`` reproduces Gymnasium's numbers.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Sequence as SequenceABC
from typing import Any, NoReturn, cast

import numpy as np

from gymspaces import _batch, _batching
from gymspaces._batching import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    concatenate_as_tuple,
    create_empty_array,
    iterate,
    not_a_space,
    throwaway_copy,
)
from gymspaces.box import Box
from gymspaces.dict import Dict
from gymspaces.discrete import Discrete
from gymspaces.error import CustomSpaceError
from gymspaces.graph import Graph, GraphInstance
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.oneof import OneOf
from gymspaces.sequence import Sequence
from gymspaces.space import Space
from gymspaces.text import Text
from gymspaces.tuple import Tuple

__all__ = ["BUILT_IN_CONCATENATE", "BUILT_IN_ITERATE", "stack_items"]

# Spaces without a batched form are batched as a Tuple of reseeded copies; the
# seeds are drawn below this bound from a copy of the original's generator.
_COPY_SEED_BOUND = 10**8


def _tiled(values: np.ndarray, n: int) -> np.ndarray:
    """``values`` repeated ``n`` times along a new leading axis."""
    return np.tile(values, tuple([n] + [1] * values.ndim))


# ----------------------------------------------------------------------------
# batch_space
# ----------------------------------------------------------------------------


@batch_space.register(Box)
def _batch_box(space: Box, n: int = 1) -> Box:
    low = _tiled(space.low, n)
    high = _tiled(space.high, n)
    return Box(low=low, high=high, dtype=space.dtype, seed=copy.deepcopy(space.np_random))


@batch_space.register(Discrete)
def _batch_discrete(space: Discrete, n: int = 1) -> MultiDiscrete:
    nvec = np.full((n,), space.n, dtype=space.dtype)
    generator = copy.deepcopy(space.np_random)
    start = np.full((n,), space.start, dtype=space.dtype)
    return MultiDiscrete(nvec, dtype=space.dtype, seed=generator, start=start)


@batch_space.register(MultiDiscrete)
def _batch_multi_discrete(space: MultiDiscrete, n: int = 1) -> Box:
    low = _tiled(space.start, n)
    high = low + _tiled(space.nvec, n) - 1
    return Box(low=low, high=high, dtype=space.dtype, seed=copy.deepcopy(space.np_random))


@batch_space.register(MultiBinary)
def _batch_multi_binary(space: MultiBinary, n: int = 1) -> Box:
    shape = (n,) + space.shape
    return Box(low=0, high=1, shape=shape, dtype=space.dtype, seed=copy.deepcopy(space.np_random))


# Graph samples its features through copies of these rules' work, without the
# deep copy of the generator, while a class dispatches to one of them.
_batching.BUILT_IN_BATCH_SPACE.update(
    {Box: _batch_box, Discrete: _batch_discrete, MultiDiscrete: _batch_multi_discrete, MultiBinary: _batch_multi_binary}
)


@batch_space.register(Tuple)
def _batch_tuple(space: Tuple, n: int = 1) -> Tuple:
    # Children first: only then is the Tuple's own generator read, which may
    # reseed an unseeded Tuple's children (quirk Q1, docs/quirks.md).
    children = tuple([batch_space(subspace, n=n) for subspace in space.spaces])
    return Tuple(children, seed=copy.deepcopy(space.np_random))


@batch_space.register(Dict)
def _batch_dict(space: Dict, n: int = 1) -> Dict:
    children = {key: batch_space(subspace, n=n) for key, subspace in space.items()}
    # A builtin dict: with sort_keys the keys are sorted again, even those of an
    # OrderedDict-built Dict (quirk Q21c, docs/quirks.md).
    generator = copy.deepcopy(space.np_random)
    return Dict(children, seed=generator, sort_keys=space.sort_keys)


@batch_space.register(Graph)
@batch_space.register(Text)
@batch_space.register(Sequence)
@batch_space.register(OneOf)
@batch_space.register(Space)
def _batch_as_copies(space: Space[Any], n: int = 1) -> Tuple:
    # Copies are taken before ``space.np_random`` is read (and maybe seeded).
    copies = tuple([copy.deepcopy(space) for _ in range(n)])
    batched = Tuple(copies, seed=copy.deepcopy(space.np_random))
    # Each copy gets its own seed so that the n copies do not sample alike.
    seeds = throwaway_copy(space.np_random).integers(0, _COPY_SEED_BOUND, n)
    batched.seed([int(seed) for seed in seeds])
    return batched


# ----------------------------------------------------------------------------
# batch_differing_spaces
# ----------------------------------------------------------------------------


def _require_equal(values: list[Any], message: str) -> None:
    if not all(values[0] == value for value in values):
        raise ValueError(f"{message}, actually {values}")


@batch_differing_spaces.register(Box)
def _differing_boxes(spaces: SequenceABC[Box]) -> Box:
    _require_equal([space.dtype for space in spaces], "Expected all dtypes to be equal")
    _require_equal([space.low.shape for space in spaces], "Expected all Box.low shape to be equal")
    _require_equal(
        [space.high.shape for space in spaces], "Expected all Box.high shape to be equal"
    )
    low = np.array([space.low for space in spaces])
    high = np.array([space.high for space in spaces])
    return Box(low=low, high=high, dtype=spaces[0].dtype, seed=copy.deepcopy(spaces[0].np_random))


@batch_differing_spaces.register(Discrete)
def _differing_discretes(spaces: SequenceABC[Discrete]) -> MultiDiscrete:
    # The widest dtype holds every space's values (the first one wins ties).
    widest = max((space.dtype for space in spaces), key=lambda dtype: np.dtype(dtype).itemsize)
    nvec = np.array([space.n for space in spaces])
    start = np.array([space.start for space in spaces])
    generator = copy.deepcopy(spaces[0].np_random)
    return MultiDiscrete(nvec=nvec, dtype=widest, start=start, seed=generator)


@batch_differing_spaces.register(MultiDiscrete)
def _differing_multi_discretes(spaces: SequenceABC[MultiDiscrete]) -> Box:
    _require_equal([space.dtype for space in spaces], "Expected all dtypes to be equal")
    _require_equal(
        [space.nvec.shape for space in spaces], "Expects all MultiDiscrete.nvec shape"
    )
    _require_equal(
        [space.start.shape for space in spaces], "Expects all MultiDiscrete.start shape"
    )
    low = np.array([space.start for space in spaces])
    high = np.array([space.start + space.nvec for space in spaces]) - 1
    return Box(low=low, high=high, dtype=spaces[0].dtype, seed=copy.deepcopy(spaces[0].np_random))


@batch_differing_spaces.register(MultiBinary)
def _differing_multi_binaries(spaces: SequenceABC[MultiBinary]) -> Box:
    _require_equal([space.shape for space in spaces], "Expected all MultiBinary shapes to be equal")
    shape = (len(spaces),) + spaces[0].shape
    generator = copy.deepcopy(spaces[0].np_random)
    return Box(low=0, high=1, shape=shape, dtype=spaces[0].dtype, seed=generator)


@batch_differing_spaces.register(Tuple)
def _differing_tuples(spaces: SequenceABC[Tuple]) -> Tuple:
    columns = zip(*[space.spaces for space in spaces], strict=True)
    children = tuple([batch_differing_spaces(column) for column in columns])
    return Tuple(children, seed=copy.deepcopy(spaces[0].np_random))


@batch_differing_spaces.register(Dict)
def _differing_dicts(spaces: SequenceABC[Dict]) -> Dict:
    first_keys = spaces[0].keys()
    if any(first_keys != space.keys() for space in spaces):
        raise ValueError(
            "Expected all Dict spaces to have the same keys, "
            f"actually {[list(space.keys()) for space in spaces]}"
        )
    children = {
        key: batch_differing_spaces([space[key] for space in spaces]) for key in spaces[0].keys()
    }
    generator = copy.deepcopy(spaces[0].np_random)
    return Dict(children, seed=generator, sort_keys=spaces[0].sort_keys)


@batch_differing_spaces.register(Graph)
@batch_differing_spaces.register(Text)
@batch_differing_spaces.register(Sequence)
@batch_differing_spaces.register(OneOf)
def _differing_as_copies(spaces: SequenceABC[Space[Any]]) -> Tuple:
    # Unlike batch_space, the copies keep their generators.
    copies = [copy.deepcopy(space) for space in spaces]
    return Tuple(copies, seed=copy.deepcopy(spaces[0].np_random))


# ----------------------------------------------------------------------------
# iterate
# ----------------------------------------------------------------------------


@iterate.register(object)
def _iterate_unregistered(space: Any, items: Any) -> NoReturn:
    # iterate's default, told a space without a rule from anything else (Gymnasium
    # registers no rule for Space: a Space without one raises CustomSpaceError).
    if not isinstance(space, Space):
        raise not_a_space("iterate", space)
    raise CustomSpaceError(
        f"Space of type `{type(space)}` doesn't have an registered `iterate` function. "
        f"Register `{type(space)}` for `iterate` to support it."
    )


@iterate.register(Discrete)
def _iterate_discrete(space: Discrete, items: Any) -> NoReturn:
    raise TypeError("Unable to iterate over a space of type `Discrete`.")


@iterate.register(Box)
@iterate.register(MultiDiscrete)
@iterate.register(MultiBinary)
def _iterate_array(space: Space[Any], items: Any) -> Iterator[Any]:
    try:
        return iter(items)
    except TypeError as error:
        raise TypeError(f"Unable to iterate over the following elements: {items}") from error


@iterate.register(Tuple)
def _iterate_tuple(space: Tuple, items: Any) -> Iterator[Any]:
    handles = iterate.handles
    if all(handles(type(subspace)) for subspace in space):
        parts = [iterate(subspace, items[i]) for i, subspace in enumerate(space)]
        return zip(*parts, strict=True)
    # e.g. a batch of Text or Graph samples: the samples as they are, in a tuple.
    try:
        return iter(items)
    except Exception as error:
        missing = [type(subspace) for subspace in space if not handles(type(subspace))]
        raise CustomSpaceError(
            f"Could not iterate through {space} as no custom iterate function is registered "
            f"for {missing} and `iter(items)` raised the following error: {error}."
        ) from error


@iterate.register(Dict)
def _iterate_dict(space: Dict, items: Mapping[Any, Any]) -> Iterator[dict[Any, Any]]:
    # A generator: nothing is checked until the first item is requested.
    rows = _batch.iterate_rows(space, items)
    if rows is not None:  # a tree of array leaves: rows built in C, one per step
        yield from rows
        return
    pairs = [(key, iterate(subspace, items[key])) for key, subspace in space.spaces.items()]
    keys, iterators = zip(*pairs, strict=True)
    for values in zip(*iterators, strict=True):
        yield dict(zip(keys, values, strict=True))


# ----------------------------------------------------------------------------
# concatenate
# ----------------------------------------------------------------------------


@concatenate.register(Box)
@concatenate.register(Discrete)
@concatenate.register(MultiDiscrete)
@concatenate.register(MultiBinary)
def _concatenate_arrays(space: Space[Any], items: Iterable[Any], out: np.ndarray) -> np.ndarray:
    copied = _batch.concatenate_tree(space, items, out, stack_items)
    if copied is not None:
        return copied
    return stack_items(space, items, out)


def stack_items(space: Space[Any], items: Iterable[Any], out: np.ndarray) -> np.ndarray:
    """The general ``concatenate`` of an array leaf's samples (what the compiled copy leaves over)."""
    # np.stack raises ValueError on an empty batch (quirk Q20, docs/quirks.md, relies on it).
    return np.stack([*items], axis=0, out=out)


@concatenate.register(Tuple)
def _concatenate_tuple(space: Tuple, items: Any, out: tuple[Any, ...]) -> tuple[Any, ...]:
    copied = _batch.concatenate_tree(space, items, out, concatenate)
    if copied is not None:
        return copied
    parts = []
    for index, child in enumerate(space.spaces):
        column = [item[index] for item in items]
        parts.append(concatenate(child, column, out[index]))
    return _batch.as_tuple(parts)


@concatenate.register(Dict)
def _concatenate_dict(space: Dict, items: Any, out: Mapping[Any, Any]) -> dict[Any, Any]:
    copied = _batch.concatenate_tree(space, items, out, concatenate)
    if copied is not None:
        return copied
    parts = {}
    for key, child in space.items():
        column = [item[key] for item in items]
        parts[key] = concatenate(child, column, out[key])
    return parts


for _kind in (OneOf, Space, Sequence, Text, Graph):
    concatenate.register(_kind, concatenate_as_tuple)


# ----------------------------------------------------------------------------
# create_empty_array
# ----------------------------------------------------------------------------


# The zero array need not lie in the space (e.g. a Box whose low is above 0).
@create_empty_array.register(Box)
@create_empty_array.register(Discrete)
@create_empty_array.register(MultiDiscrete)
@create_empty_array.register(MultiBinary)
def _empty_array(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any:
    shape = (n, *cast("tuple[int, ...]", space.shape))  # array spaces always have a shape
    return fn(shape, dtype=space.dtype)


@create_empty_array.register(Tuple)
def _empty_tuple(space: Tuple, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    return _batch.as_tuple([create_empty_array(subspace, n=n, fn=fn) for subspace in space.spaces])


@create_empty_array.register(Dict)
def _empty_dict(space: Dict, n: int = 1, fn: Callable[..., Any] = np.zeros) -> dict[Any, Any]:
    return {key: create_empty_array(subspace, n=n, fn=fn) for key, subspace in space.items()}


@create_empty_array.register(Graph)
def _empty_graphs(space: Graph, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    def one_graph() -> GraphInstance:
        nodes = create_empty_array(space.node_space, n=1, fn=fn)
        edges = links = None
        if space.edge_space is not None:
            edges = create_empty_array(space.edge_space, n=1, fn=fn)
            links = fn((1, 2), dtype=np.int64)
        return GraphInstance(nodes=nodes, edges=edges, edge_links=links)

    return tuple([one_graph() for _ in range(n)])


@create_empty_array.register(Text)
def _empty_texts(space: Text, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[str, ...]:
    # The first character is only looked up when n > 0, as in Gymnasium.
    return tuple([space.characters[0] * space.min_length for _ in range(n)])


@create_empty_array.register(Sequence)
def _empty_sequences(space: Sequence, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    if not space.stack:
        return tuple([() for _ in range(n)])
    return tuple([create_empty_array(space.feature_space, n=1, fn=fn) for _ in range(n)])


@create_empty_array.register(OneOf)
def _empty_oneofs(space: OneOf, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    return tuple([() for _ in range(n)])


@create_empty_array.register(Space)
def _empty_custom(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> None:
    return None


# The concatenate kernel applies the built-in rules of these classes; it stays
# on only while no user registration replaces one of them (see gymspaces._fill_registry).
BUILT_IN_CONCATENATE = {
    Box: _concatenate_arrays,
    Discrete: _concatenate_arrays,
    MultiDiscrete: _concatenate_arrays,
    MultiBinary: _concatenate_arrays,
    Tuple: _concatenate_tuple,
    Dict: _concatenate_dict,
}

# The iterate kernel applies the built-in rules of these classes (arrays give
# their rows; Tuple/Dict zip their children); it stays on only while no user
# registration replaces one of them.
BUILT_IN_ITERATE = {
    Box: _iterate_array,
    MultiDiscrete: _iterate_array,
    MultiBinary: _iterate_array,
    Tuple: _iterate_tuple,
    Dict: _iterate_dict,
}
