"""The batching functions: spaces and samples of ``n`` at once, as ``gymnasium.vector.utils`` has them.

* :func:`batch_space` -- the space of ``n`` stacked samples of one space;
* :func:`batch_differing_spaces` -- the same for several compatible spaces;
* :func:`iterate` -- split a batched sample back into single samples;
* :func:`concatenate` -- stack single samples into a batch (into ``out``);
* :func:`create_empty_array` -- allocate the ``out`` that ``concatenate`` fills.

Each dispatches on its space argument (:mod:`gymspaces._dispatch`, with
:func:`functools.singledispatch`'s rules): register a handler for a custom
space with ``batch_space.register(MySpace)``. They are public as
:mod:`gymspaces.vector`. This module declares them and knows no space class,
so the spaces below the rules can call them (``Space.sample_batch`` stacks
with ``concatenate``; Graph and Sequence sample through ``batch_space`` and
``iterate``, as Gymnasium's do); the rules for gymspaces' own classes are
registered by :mod:`gymspaces._batching_rules`, above the spaces.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Sequence as SequenceABC
from typing import Any

import numpy as np

from gymspaces import _rng
from gymspaces._dispatch import space_building_dispatch, space_dispatch

__all__ = [
    "batch_space",
    "batch_differing_spaces",
    "iterate",
    "concatenate",
    "create_empty_array",
]


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


def throwaway_copy(generator: np.random.Generator) -> np.random.Generator:
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
        # Seeded, not from OS entropy: its state is overwritten before any draw.
        scratch = pool[kind] = np.random.Generator(kind(0))
    if not _rng.copy_generator_state(generator, scratch):
        scratch.bit_generator.state = bit_generator.state
    return scratch


# The batch_space rules of gymspaces' own fundamental classes, by class (registered
# by gymspaces._batching_rules): Graph samples through copies of their work while
# a class dispatches to one of them (gymspaces.graph._sample_through_copy).
BUILT_IN_BATCH_SPACE: dict[type, Callable[..., Any]] = {}


def not_a_space(function: str, space: Any) -> TypeError:
    return TypeError(
        f"The space provided to `{function}` is not a gymnasium Space instance, "
        f"type: {type(space)}, {space}"
    )


@space_building_dispatch
def batch_space(space: Any, n: int = 1) -> Any:
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
    raise not_a_space("batch_space", space)


@space_building_dispatch
def batch_differing_spaces(spaces: SequenceABC[Any]) -> Any:
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


@space_dispatch
def iterate(space: Any, items: Any) -> Iterator[Any]:
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
    # For a Space, the rule registered for ``object`` by gymspaces._batching_rules
    # (which knows the Space class) raises CustomSpaceError instead.
    raise not_a_space("iterate", space)


@space_dispatch
def concatenate(space: Any, items: Iterable[Any], out: Any) -> Any:
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
    raise not_a_space("concatenate", space)


@space_dispatch
def create_empty_array(space: Any, n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any:
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
    raise not_a_space("create_empty_array", space)


def concatenate_as_tuple(space: Any, items: Iterable[Any], out: Any) -> tuple[Any, ...]:
    """The ``concatenate`` rule of spaces batched as a tuple of samples (Text,
    Sequence, Graph, OneOf, custom spaces): ``out`` is ignored."""
    return tuple(items)
