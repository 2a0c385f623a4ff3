"""Shared memory for vector environments: ``create_shared_memory``, ``read_from_shared_memory``
and ``write_to_shared_memory``.

Each fixed-shape leaf owns one ``multiprocessing`` array holding ``n`` elements
back to back; readers get zero-copy numpy views of it. Layouts, typecodes and
errors are Gymnasium 1.4.0's, so buffers are interchangeable with its helpers.

Reading and writing a Box, Discrete, MultiDiscrete or MultiBinary, or a
Tuple/Dict tree of them, runs in one compiled pass (``gymspaces._shared_memory``)
over either layout: each leaf's value is copied straight into its row when it
is an ndarray of exactly the leaf's dtype and size (or a scalar of a
one-element leaf), and the leaf addresses are looked up once per (space,
memory) pair and checked against the live objects on every call. Everything
else -- other values, an index outside the rows, other spaces anywhere in the
tree, user-registered rules -- runs the Python rules below, whose results and
exceptions are Gymnasium's.
"""

from __future__ import annotations

import math
import multiprocessing as mp
from collections.abc import Mapping
from ctypes import c_bool, c_uint8
from multiprocessing.sharedctypes import SynchronizedArray
from types import ModuleType
from typing import Any, cast

import numpy as np

from gymspaces import _kernel_switches, _shared_memory
from gymspaces._dispatch import public_entry, space_dispatch
from gymspaces._registry import REGISTRY
from gymspaces._typecodes import SHARED_ARRAY_TYPECODES
from gymspaces.box import Box
from gymspaces.dict import Dict
from gymspaces.discrete import Discrete
from gymspaces.error import CustomSpaceError
from gymspaces.graph import Graph
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.oneof import OneOf
from gymspaces.sequence import Sequence
from gymspaces.space import Space
from gymspaces.text import Text
from gymspaces.tuple import Tuple
from gymspaces.utils import flatten

__all__ = ["create_shared_memory", "read_from_shared_memory", "write_to_shared_memory"]


def _unsupported(function: str, space: Any) -> Exception:
    if isinstance(space, Space):
        return CustomSpaceError(
            f"Space of type `{type(space)}` doesn't have an registered `{function}` function. "
            f"Register `{type(space)}` for `{function}` to support it."
        )
    return TypeError(
        f"The space provided to `{function}` is not a gymnasium Space instance, "
        f"type: {type(space)}, {space}"
    )


def _leaf_size(space: Space[Any]) -> int:
    assert space.shape is not None
    return math.prod(space.shape)


# ----------------------------------------------------------------------------
# create
# ----------------------------------------------------------------------------


@space_dispatch
def generic_create_shared_memory(space: Space[Any], n: int = 1, ctx: ModuleType = mp) -> Any:
    """Gymnasium's per-leaf layout, one ``ctx.Array`` a leaf: the rules behind
    :func:`create_shared_memory` (defined below, which documents both layouts)."""
    raise _unsupported("create_shared_memory", space)


@generic_create_shared_memory.register(Box)
@generic_create_shared_memory.register(Discrete)
@generic_create_shared_memory.register(MultiDiscrete)
@generic_create_shared_memory.register(MultiBinary)
def _(space: Space[Any], n: int = 1, ctx: ModuleType = mp) -> Any:
    assert space.dtype is not None
    size = n * _leaf_size(space)
    code = space.dtype.char
    if code == "?":
        return ctx.Array(c_bool, size)
    if code in SHARED_ARRAY_TYPECODES:
        return ctx.Array(code, size)
    # No typed shared array (float16, ...): raw bytes, viewed with the space's
    # dtype on read. Gymnasium does the same for a dtype that array has no
    # typecode for; on CPython 3.15, where array has one for float16 and
    # multiprocessing still refuses it, Gymnasium raises (docs/quirks.md).
    return ctx.Array(c_uint8, size * space.dtype.itemsize)


@generic_create_shared_memory.register(Tuple)
def _(space: Tuple, n: int = 1, ctx: ModuleType = mp) -> tuple[Any, ...]:
    return tuple(generic_create_shared_memory(child, n=n, ctx=ctx) for child in space.spaces)


@generic_create_shared_memory.register(Dict)
def _(space: Dict, n: int = 1, ctx: ModuleType = mp) -> dict[str, Any]:
    return {key: generic_create_shared_memory(child, n=n, ctx=ctx) for key, child in space.spaces.items()}


@generic_create_shared_memory.register(Text)
def _(space: Text, n: int = 1, ctx: ModuleType = mp) -> Any:
    # Texts are stored flattened: one int32 character index per position.
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


@generic_create_shared_memory.register(OneOf)
def _(space: OneOf, n: int = 1, ctx: ModuleType = mp) -> tuple[Any, ...]:
    # The chosen child's index per element, then memory for every child.
    indices = ctx.Array(np.dtype(np.int64).char, n)
    return (indices,) + tuple(generic_create_shared_memory(child, n=n, ctx=ctx) for child in space.spaces)


@generic_create_shared_memory.register(Graph)
@generic_create_shared_memory.register(Sequence)
def _(space: Graph | Sequence, n: int = 1, ctx: ModuleType = mp) -> Any:
    raise TypeError(
        f"As {space} has a dynamic shape so its not possible to make a static shared memory. "
        "For `AsyncVectorEnv`, disable `shared_memory`."
    )


# ----------------------------------------------------------------------------
# read
# ----------------------------------------------------------------------------


@space_dispatch
def read_from_shared_memory(space: Space[Any], shared_memory: Any, n: int = 1) -> Any:
    """Numpy views (no copies) of the ``n`` elements held in ``shared_memory``.

    Text elements are decoded into a tuple of strings and OneOf elements into a
    tuple of ``(index, value)`` pairs.

    Examples
    --------
    The arrays returned are views: later writes show through them.

    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> from gymspaces.vector import create_shared_memory, read_from_shared_memory
    >>> from gymspaces.vector import write_to_shared_memory
    >>> space = Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)})
    >>> memory = create_shared_memory(space, n=2)
    >>> observations = read_from_shared_memory(space, memory, n=2)
    >>> obs = {"pos": np.array([0.5, -0.5], dtype=np.float32), "gear": 2}
    >>> write_to_shared_memory(space, 1, obs, memory)
    >>> observations
    {'gear': array([0, 2]), 'pos': array([[ 0. ,  0. ],
           [ 0.5, -0.5]], dtype=float32)}
    """
    raise _unsupported("read_from_shared_memory", space)


# Each rule of a fixed-shape space or of Tuple/Dict tries the compiled pass
# first (``None``/``False``: not covered, nothing done).


@read_from_shared_memory.register(Box)
@read_from_shared_memory.register(Discrete)
@read_from_shared_memory.register(MultiDiscrete)
@read_from_shared_memory.register(MultiBinary)
def _read_array(space: Space[Any], shared_memory: Any, n: int = 1) -> np.ndarray:
    views = _shared_memory.read_tree(space, shared_memory, n)
    if views is not None:
        return cast(np.ndarray, views)
    return _read_array_python(space, shared_memory, n)


def _read_array_python(space: Space[Any], shared_memory: Any, n: int = 1) -> np.ndarray:
    assert space.shape is not None
    return np.frombuffer(shared_memory.get_obj(), dtype=space.dtype).reshape((n,) + space.shape)


@read_from_shared_memory.register(Tuple)
def _read_tuple(space: Tuple, shared_memory: tuple[Any, ...], n: int = 1) -> tuple[Any, ...]:
    views = _shared_memory.read_tree(space, shared_memory, n)
    if views is not None:
        return cast("tuple[Any, ...]", views)
    return tuple(
        read_from_shared_memory(child, memory, n=n)
        for memory, child in zip(shared_memory, space.spaces, strict=True)
    )


@read_from_shared_memory.register(Dict)
def _read_dict(space: Dict, shared_memory: Mapping[str, Any], n: int = 1) -> dict[str, Any]:
    views = _shared_memory.read_tree(space, shared_memory, n)
    if views is not None:
        return cast("dict[str, Any]", views)
    return {
        key: read_from_shared_memory(child, shared_memory[key], n=n)
        for key, child in space.spaces.items()
    }


@read_from_shared_memory.register(Text)
def _(space: Text, shared_memory: Any, n: int = 1) -> tuple[str, ...]:
    rows = np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, space.max_length))
    size = len(space.character_set)
    # Indices >= len(charset) mark unused positions; a zeroed row decodes to the
    # first character repeated (as Gymnasium's reader does, quirk Q19 in docs/quirks.md).
    return tuple(
        "".join(space.character_list[value] for value in row if value < size) for row in rows
    )


@read_from_shared_memory.register(OneOf)
def _(space: OneOf, shared_memory: tuple[Any, ...], n: int = 1) -> tuple[Any, ...]:
    chosen = np.frombuffer(shared_memory[0].get_obj(), dtype=np.int64)
    children = tuple(
        read_from_shared_memory(child, memory, n=n)
        for memory, child in zip(shared_memory[1:], space.spaces, strict=True)
    )
    return tuple((index, children[index][row]) for row, index in enumerate(chosen))


# ----------------------------------------------------------------------------
# write
# ----------------------------------------------------------------------------


@space_dispatch
def write_to_shared_memory(space: Space[Any], index: int, value: Any, shared_memory: Any) -> None:
    """Write ``value`` as element ``index`` of ``shared_memory``.

    What a vector environment's worker ``index`` does with its observation.

    Examples
    --------
    >>> from gymspaces import Text
    >>> from gymspaces.vector import create_shared_memory, read_from_shared_memory
    >>> from gymspaces.vector import write_to_shared_memory
    >>> space = Text(4, charset="abc")
    >>> memory = create_shared_memory(space, n=2)
    >>> write_to_shared_memory(space, 0, "cab", memory)
    >>> write_to_shared_memory(space, 1, "b", memory)
    >>> read_from_shared_memory(space, memory, n=2)
    ('cab', 'b')
    """
    raise _unsupported("write_to_shared_memory", space)


@write_to_shared_memory.register(Box)
@write_to_shared_memory.register(Discrete)
@write_to_shared_memory.register(MultiDiscrete)
@write_to_shared_memory.register(MultiBinary)
def _write_array(space: Space[Any], index: int, value: Any, shared_memory: Any) -> None:
    if not _shared_memory.write_tree(space, index, value, shared_memory):
        _write_array_python(space, index, value, shared_memory)


def _write_array_python(space: Space[Any], index: int, value: Any, shared_memory: Any) -> None:
    size = _leaf_size(space)
    dtype = cast("np.dtype[Any]", space.dtype)  # fundamental spaces always have one
    destination = np.frombuffer(shared_memory.get_obj(), dtype=dtype)
    np.copyto(destination[index * size : (index + 1) * size], np.asarray(value, dtype=dtype).flatten())


@write_to_shared_memory.register(Tuple)
def _write_tuple(space: Tuple, index: int, value: tuple[Any, ...], shared_memory: tuple[Any, ...]) -> None:
    if not _shared_memory.write_tree(space, index, value, shared_memory):
        _write_tuple_python(space, index, value, shared_memory)


def _write_tuple_python(space: Tuple, index: int, value: tuple[Any, ...], shared_memory: tuple[Any, ...]) -> None:
    for part, memory, child in zip(value, shared_memory, space.spaces, strict=True):
        write_to_shared_memory(child, index, part, memory)


@write_to_shared_memory.register(Dict)
def _write_dict(space: Dict, index: int, value: Mapping[str, Any], shared_memory: Mapping[str, Any]) -> None:
    if _shared_memory.write_tree(space, index, value, shared_memory):
        return
    for key, child in space.spaces.items():
        write_to_shared_memory(child, index, value[key], shared_memory[key])


@write_to_shared_memory.register(Text)
def _(space: Text, index: int, value: str, shared_memory: Any) -> None:
    size = space.max_length
    destination = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    np.copyto(destination[index * size : (index + 1) * size], cast(np.ndarray, flatten(space, value)))


@write_to_shared_memory.register(OneOf)
def _(space: OneOf, index: int, value: tuple[int, Any], shared_memory: tuple[Any, ...]) -> None:
    chosen, child_value = value
    indices = np.frombuffer(shared_memory[0].get_obj(), dtype=np.int64)
    np.copyto(indices[index : index + 1], chosen)
    write_to_shared_memory(space.spaces[chosen], index, child_value, shared_memory[1 + chosen])


# ----------------------------------------------------------------------------
# Single-buffer layout (beyond Gymnasium)
# ----------------------------------------------------------------------------
#
# The default layout gives every leaf its own ``ctx.Array``: one shared
# mapping and one lock per leaf. ``create_shared_memory(..., single_buffer=True)``
# places every leaf in one byte buffer instead (one mapping, one lock), each
# leaf at a 64-byte aligned offset, and returns the same nested structure
# whose leaves are ``SharedSlice`` objects. They offer what the readers and
# writers use of a ``ctx.Array`` (``get_obj``, ``get_lock``), so
# ``read_from_shared_memory`` and ``write_to_shared_memory`` work unchanged.

_ALIGNMENT = 64  # a cache line: leaves written by different workers never share one


class SharedSlice:
    """One leaf's bytes inside a single shared buffer (not in Gymnasium; see ``single_buffer=True``).

    Parameters
    ----------
    buffer : multiprocessing Array of c_uint8
        The shared buffer holding every leaf.
    offset, nbytes : int
        Where the leaf's ``n`` elements lie in it.

    Examples
    --------
    Leaves start on 64-byte boundaries of the one buffer:

    >>> from gymspaces import Box, Dict, Discrete
    >>> from gymspaces.vector import create_shared_memory
    >>> space = Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)})
    >>> memory = create_shared_memory(space, n=2, single_buffer=True)
    >>> memory
    {'gear': SharedSlice(offset=0, nbytes=16), 'pos': SharedSlice(offset=64, nbytes=16)}
    >>> memory["pos"].get_lock() is memory["gear"].get_lock()
    True
    """

    __slots__ = ("buffer", "offset", "nbytes")

    def __init__(self, buffer: Any, offset: int, nbytes: int) -> None:
        self.buffer = buffer
        self.offset = offset
        self.nbytes = nbytes

    def get_obj(self) -> memoryview:
        """A writable view of the leaf's bytes (what ``np.frombuffer`` reads).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box
        >>> from gymspaces.vector import create_shared_memory
        >>> leaf = create_shared_memory(Box(0, 1, (3,)), n=2, single_buffer=True)
        >>> leaf.get_obj().nbytes
        24
        >>> np.frombuffer(leaf.get_obj(), dtype=np.float32)
        array([0., 0., 0., 0., 0., 0.], dtype=float32)
        """
        whole = memoryview(self.buffer.get_obj()).cast("B")
        return whole[self.offset : self.offset + self.nbytes]

    def get_lock(self) -> Any:
        """The buffer's lock (shared by every leaf).

        Examples
        --------
        Hold it while writing so that readers never see half an element:

        >>> import numpy as np
        >>> from gymspaces import Box
        >>> from gymspaces.vector import create_shared_memory, write_to_shared_memory
        >>> space = Box(0, 1, (3,))
        >>> leaf = create_shared_memory(space, n=2, single_buffer=True)
        >>> with leaf.get_lock():
        ...     write_to_shared_memory(space, 0, np.ones(3), leaf)
        >>> np.frombuffer(leaf.get_obj(), dtype=np.float32)
        array([1., 1., 1., 0., 0., 0.], dtype=float32)
        """
        return self.buffer.get_lock()

    def __getstate__(self) -> tuple[Any, int, int]:
        return self.buffer, self.offset, self.nbytes

    def __setstate__(self, state: tuple[Any, int, int]) -> None:
        self.buffer, self.offset, self.nbytes = state

    def __repr__(self) -> str:
        return f"SharedSlice(offset={self.offset}, nbytes={self.nbytes})"


def _layout(space: Any, n: int, cursor: list[int]) -> Any:
    """The structure of ``create_shared_memory(space, n)`` with ``(offset, nbytes)`` leaves."""

    def leaf(length: int, itemsize: int) -> tuple[int, int]:
        if length < 0:  # what multiprocessing says of the per-leaf layout's arrays
            raise ValueError(f"Array length must be >= 0, not {length}")
        offset = -(-cursor[0] // _ALIGNMENT) * _ALIGNMENT
        cursor[0] = offset + length * itemsize
        return (offset, length * itemsize)

    kind = type(space)
    if kind in (Box, Discrete, MultiDiscrete, MultiBinary):
        return leaf(n * _leaf_size(space), np.dtype(space.dtype).itemsize)
    if kind is Text:
        return leaf(n * space.max_length, np.dtype(np.int32).itemsize)
    if kind is Tuple:
        return tuple(_layout(child, n, cursor) for child in space.spaces)
    if kind is Dict:
        return {key: _layout(child, n, cursor) for key, child in space.spaces.items()}
    if kind is OneOf:
        return (leaf(n, np.dtype(np.int64).itemsize),) + tuple(_layout(child, n, cursor) for child in space.spaces)
    if kind in (Graph, Sequence):
        generic_create_shared_memory(space, n)  # raises Gymnasium's error for dynamic shapes
    raise TypeError(
        f"single_buffer=True supports the built-in fixed-shape spaces (and Tuple/Dict/OneOf of them), "
        f"not {type(space)}; use the default layout, with a registered create_shared_memory"
    )


def _slices(layout: Any, buffer: Any) -> Any:
    if isinstance(layout, dict):
        return {key: _slices(part, buffer) for key, part in layout.items()}
    if isinstance(layout, tuple) and layout and isinstance(layout[0], int):
        return SharedSlice(buffer, layout[0], layout[1])
    return tuple(_slices(part, buffer) for part in layout)


# The public entry: the single-buffer layout here, the per-leaf layout by the
# rules above, whose registrations it carries (``create_shared_memory.register``).
@public_entry(generic_create_shared_memory)
def create_shared_memory(
    space: Space[Any], n: int = 1, ctx: ModuleType = mp, *, single_buffer: bool = False
) -> Any:
    """Allocate shared memory for ``n`` elements of ``space``.

    A custom space gets its memory from a rule registered for its class with
    ``create_shared_memory.register(MySpace)``, as with
    :func:`functools.singledispatch` (the default layout only: the single
    buffer holds the built-in spaces).

    Parameters
    ----------
    space : Space
        The (unbatched) space of one environment.
    n : int
        Number of elements (environments).
    ctx : module or multiprocessing context
        Provides ``Array``; use the context the workers are started with.
    single_buffer : bool
        Not in Gymnasium. ``False`` (default): one ``ctx.Array`` per leaf,
        Gymnasium's layout. ``True``: every leaf in one shared byte buffer
        (one allocation and one lock however deep the space), returned as the
        same structure with :class:`SharedSlice` leaves; the read and write
        helpers accept both layouts.

    Raises
    ------
    TypeError
        For Graph and Sequence (no fixed shape) and for non-spaces.
    gymspaces.error.CustomSpaceError
        For custom spaces without a registered implementation (default layout).

    Examples
    --------
    One ``multiprocessing`` array per leaf by default, one shared buffer with
    ``single_buffer=True``; both are read the same way:

    >>> from gymspaces import Box, Dict, Discrete
    >>> from gymspaces.vector import create_shared_memory, read_from_shared_memory
    >>> space = Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)})
    >>> memory = create_shared_memory(space, n=2)
    >>> {key: type(array).__name__ for key, array in memory.items()}
    {'gear': 'SynchronizedArray', 'pos': 'SynchronizedArray'}
    >>> single = create_shared_memory(space, n=2, single_buffer=True)
    >>> read_from_shared_memory(space, single, n=2)["pos"].shape
    (2, 2)
    """
    if not single_buffer:
        return generic_create_shared_memory(space, n, ctx)
    if not isinstance(space, Space):
        raise _unsupported("create_shared_memory", space)
    cursor = [0]
    layout = _layout(space, n, cursor)
    buffer = ctx.Array(c_uint8, max(cursor[0], 1))
    return _slices(layout, buffer)


__all__ += ["SharedSlice"]

# The compiled pass applies the built-in rules of these classes; it stays on
# only while no user registration replaces one of them.
_BUILT_IN_RULES = {
    write_to_shared_memory: {
        Box: _write_array, Discrete: _write_array, MultiDiscrete: _write_array, MultiBinary: _write_array,
        Tuple: _write_tuple, Dict: _write_dict,
    },
    read_from_shared_memory: {
        Box: _read_array, Discrete: _read_array, MultiDiscrete: _read_array, MultiBinary: _read_array,
        Tuple: _read_tuple, Dict: _read_dict,
    },
}
# This module loads on use, after gymspaces._fill_registry (which cannot import
# it: ``import gymspaces`` does not import multiprocessing), so it tells the
# kernel its memory leaf classes and the Python rules it defers to itself.
REGISTRY.SynchronizedArray, REGISTRY.SharedSlice = SynchronizedArray, SharedSlice
REGISTRY.write_shared_leaf, REGISTRY.write_shared_tuple = _write_array_python, _write_tuple_python
REGISTRY.read_shared_leaf = _read_array_python
_kernel_switches.compiled_while_built_in("shared_memory_enabled", _BUILT_IN_RULES)
for _dispatcher in _BUILT_IN_RULES:
    _kernel_switches.watch(_dispatcher)
del _dispatcher
