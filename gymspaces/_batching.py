"""The batching rules: spaces and samples of ``n`` at once, as ``gymnasium.vector.utils`` has them.

* :func:`batch_space` -- the space of ``n`` stacked samples of one space;
* :func:`batch_differing_spaces` -- the same for several compatible spaces;
* :func:`iterate` -- split a batched sample back into single samples;
* :func:`concatenate` -- stack single samples into a batch (into ``out``);
* :func:`create_empty_array` -- allocate the ``out`` that ``concatenate`` fills.

All dispatch on the space argument with :func:`functools.singledispatch` rules:
register a handler for a custom space with ``batch_space.register(MySpace)``.
They are public as :mod:`gymspaces.vector` (and ``gymspaces.vector.space_utils``);
this module sits above the spaces and below the flatten utilities, which use it.
The generators of batched spaces are copies of the original's, exactly as in
Gymnasium, so ``batch_space(space, n).sample()`` reproduces Gymnasium's numbers.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Sequence as SequenceABC
from typing import Any, NoReturn, cast

import numpy as np

from gymspaces import _batch, _rng
from gymspaces._dispatch import space_building_dispatch, space_dispatch

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

__all__ = [
    "batch_space",
    "batch_differing_spaces",
    "iterate",
    "concatenate",
    "create_empty_array",
]

# Spaces without a batched form are batched as a Tuple of reseeded copies; the
# seeds are drawn below this bound from a copy of the original's generator.
_COPY_SEED_BOUND = 10**8


def _not_a_space(function: str, space: Any) -> TypeError:
    return TypeError(
        f"The space provided to `{function}` is not a gymnasium Space instance, "
        f"type: {type(space)}, {space}"
    )


def _tiled(values: np.ndarray, n: int) -> np.ndarray:
    """``values`` repeated ``n`` times along a new leading axis."""
    return np.tile(values, tuple([n] + [1] * values.ndim))


# ----------------------------------------------------------------------------
# Throw-away generator copies
# ----------------------------------------------------------------------------

_SCRATCH = threading.local()
_STATE_COPYABLE = (
    np.random.PCG64,
    np.random.PCG64DXSM,
    np.random.MT19937,
    np.random.Philox,
    np.random.SFC64,
)


def _throwaway_copy(generator: np.random.Generator) -> np.random.Generator:
    """A generator in ``generator``'s current state, valid until the next call.

    Equivalent to ``copy.deepcopy(generator)`` for drawing, but for numpy's own
    bit generators it reuses a per-thread scratch generator whose state is
    overwritten -- a deep copy costs far more than the draws it serves. Only
    for copies that are used immediately and then dropped.
    """
    bit_generator = generator.bit_generator
    kind = type(bit_generator)
    if type(generator) is not np.random.Generator or kind not in _STATE_COPYABLE:
        return copy.deepcopy(generator)
    pool = getattr(_SCRATCH, "pool", None)
    if pool is None:
        pool = _SCRATCH.pool = {}
    scratch = pool.get(kind)
    if scratch is None:
        scratch = pool[kind] = np.random.Generator(kind())
    if not _rng.copy_generator_state(generator, scratch):
        scratch.bit_generator.state = bit_generator.state
    return scratch


# ----------------------------------------------------------------------------
# batch_space
# ----------------------------------------------------------------------------


@space_building_dispatch
def batch_space(space: Space[Any], n: int = 1) -> Space[Any]:
    """The space of ``n`` samples of ``space`` batched together.

    Parameters
    ----------
    space : Space
        The space of one sample.
    n : int
        Batch size.

    Returns
    -------
    Space
        Box for Box/MultiDiscrete/MultiBinary, MultiDiscrete for Discrete,
        Tuple/Dict of batched children for Tuple/Dict, and a Tuple of ``n``
        reseeded copies for any other space. Its generator is a copy of
        ``space.np_random`` (which lazily seeds an unseeded ``space``).

    Raises
    ------
    TypeError
        If ``space`` is not a Space.

    Examples
    --------
    >>> from gymspaces import Box, Dict
    >>> from gymspaces.vector import batch_space
    >>> batch_space(Dict({"position": Box(0, 1, (3,)), "velocity": Box(0, 1, (2,))}), n=5)
    Dict('position': Box(0.0, 1.0, (5, 3), float32), 'velocity': Box(0.0, 1.0, (5, 2), float32))
    """
    raise _not_a_space("batch_space", space)


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


@batch_space.register(Tuple)
def _batch_tuple(space: Tuple, n: int = 1) -> Tuple:
    # Children first: only then is the Tuple's own generator read, which may
    # reseed an unseeded Tuple's children (quirk Q1, docs/quirks.md).
    children = tuple([batch_space(subspace, n=n) for subspace in space.spaces])
    return Tuple(children, seed=copy.deepcopy(space.np_random))


@batch_space.register(Dict)
def _batch_dict(space: Dict, n: int = 1) -> Dict:
    children = {key: batch_space(subspace, n=n) for key, subspace in space.items()}
    # A plain dict: with sort_keys the keys are sorted again, even those of an
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
    seeds = _throwaway_copy(space.np_random).integers(0, _COPY_SEED_BOUND, n)
    batched.seed([int(seed) for seed in seeds])
    return batched


# ----------------------------------------------------------------------------
# batch_differing_spaces
# ----------------------------------------------------------------------------


@space_dispatch
def batch_differing_spaces(spaces: SequenceABC[Space[Any]]) -> Space[Any]:
    """Batch several spaces of one type whose parameters may differ.

    Parameters
    ----------
    spaces : sequence of Space
        Non-empty, all instances of ``type(spaces[0])``, which must have a
        registered handler (looked up by exact type).

    Returns
    -------
    Space
        E.g. ``MultiDiscrete([3, 5])`` for ``[Discrete(3), Discrete(5)]``. Its
        generator is a copy of ``spaces[0].np_random``.

    Examples
    --------
    >>> from gymspaces import Discrete
    >>> from gymspaces.vector import batch_differing_spaces
    >>> batch_differing_spaces([Discrete(3), Discrete(5), Discrete(4), Discrete(8)])
    MultiDiscrete([3 5 4 8])
    """
    if len(spaces) < 1:
        raise ValueError("Expects a non-empty list of spaces")
    kind = type(spaces[0])
    if not all(isinstance(space, kind) for space in spaces):
        raise TypeError(
            "Expects all spaces to be of the same type, "
            f"actual types: {[type(space) for space in spaces]}"
        )
    if kind not in batch_differing_spaces.registry:
        raise TypeError(
            "Requires the Space type to have a registered `batch_differing_space`, "
            f"current list: {batch_differing_spaces.registry}"
        )
    return batch_differing_spaces.dispatch(kind)(spaces)


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


@space_dispatch
def iterate(space: Space[Any], items: Any) -> Iterator[Any]:
    """Iterate over the single samples held in a batched sample.

    Parameters
    ----------
    space : Space
        The *batched* space (e.g. the result of :func:`batch_space`).
    items : batched sample
        An element of ``space``.

    Raises
    ------
    gymspaces.error.CustomSpaceError
        For a space without a registered handler.
    TypeError
        For a Discrete space (a single integer cannot be split), for items
        that cannot be iterated and for a non-Space ``space``.

    Examples
    --------
    Split a batch of two Dict observations back into per-environment ones:

    >>> from gymspaces import Box, Dict, Discrete
    >>> from gymspaces.vector import batch_space, iterate
    >>> batched = batch_space(Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)}), n=2)
    >>> _ = batched.seed(0)
    >>> for obs in iterate(batched, batched.sample()):
    ...     print(obs)
    {'gear': np.int64(2), 'pos': array([ 0.65423167, -0.4485111 ], dtype=float32)}
    {'gear': np.int64(0), 'pos': array([-0.62445027,  0.13763365], dtype=float32)}
    """
    if not isinstance(space, Space):
        raise _not_a_space("iterate", space)
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
    # e.g. a batch of Text or Graph samples: a plain tuple of samples.
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


@space_dispatch
def concatenate(space: Space[Any], items: Iterable[Any], out: Any) -> Any:
    """Stack single samples of ``space`` into one batch.

    Parameters
    ----------
    space : Space
        The space of each item (not the batched space).
    items : iterable
        Samples of ``space``.
    out : array, tuple or dict
        Destination from :func:`create_empty_array` (ignored by spaces that
        batch as tuples).

    Returns
    -------
    numpy.ndarray, tuple or dict
        ``out`` itself for array spaces; a tuple of the items for Text,
        Sequence, Graph, OneOf and custom spaces.

    Examples
    --------
    >>> from gymspaces import Box, Text
    >>> from gymspaces.vector import concatenate, create_empty_array
    >>> space = Box(0, 1, (2,), seed=0)
    >>> out = create_empty_array(space, n=3)
    >>> concatenate(space, [space.sample() for _ in range(3)], out) is out
    True
    >>> out
    array([[0.6369617 , 0.26978672],
           [0.04097353, 0.01652764],
           [0.8132702 , 0.91275555]], dtype=float32)
    >>> concatenate(Text(4), ["ab", "c"], None)
    ('ab', 'c')
    """
    raise _not_a_space("concatenate", space)


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


@concatenate.register(Graph)
@concatenate.register(Text)
@concatenate.register(Sequence)
@concatenate.register(Space)
@concatenate.register(OneOf)
def _concatenate_as_tuple(space: Space[Any], items: Iterable[Any], out: Any) -> tuple[Any, ...]:
    return tuple(items)


# ----------------------------------------------------------------------------
# create_empty_array
# ----------------------------------------------------------------------------


@space_dispatch
def create_empty_array(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any:
    """Allocate the destination of :func:`concatenate` for ``n`` samples of ``space``.

    Parameters
    ----------
    space : Space
        The space of one sample.
    n : int
        Batch size.
    fn : callable
        Array factory called as ``fn(shape, dtype=dtype)`` (``np.zeros``,
        ``np.empty``, ...).

    Returns
    -------
    numpy.ndarray, tuple, dict or None
        Nested like the space; ``None`` for an unknown custom space.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> from gymspaces.vector import create_empty_array
    >>> create_empty_array(Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)}), n=2)
    {'gear': array([0, 0]), 'pos': array([[0., 0.],
           [0., 0.]], dtype=float32)}
    >>> create_empty_array(Discrete(3), n=4, fn=np.ones)
    array([1, 1, 1, 1])
    """
    raise _not_a_space("create_empty_array", space)


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
# on only while no user registration replaces one of them (see gymspaces._wire_kernels).
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
