"""Helpers to batch spaces and their samples, as ``gymnasium.vector.utils`` provides.

Each helper dispatches on the space's type with :func:`functools.singledispatch`
rules, so support for a custom space is added with ``batch_space.register(MySpace)``.

The shared-memory helpers (:mod:`gymspaces.vector.shared_memory`) load on first
use of one of their names: they need ``multiprocessing`` and ``ctypes``, which
the batching helpers do not (about 10 ms of import where nothing else loaded
them).
"""

from typing import TYPE_CHECKING, Any

from gymspaces.vector.space_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)

__all__ = [
    "batch_space",
    "batch_differing_spaces",
    "iterate",
    "concatenate",
    "create_empty_array",
    "create_shared_memory",
    "read_from_shared_memory",
    "write_to_shared_memory",
    "SharedSlice",
]

_SHARED_MEMORY_NAMES = frozenset(
    {"SharedSlice", "create_shared_memory", "read_from_shared_memory", "write_to_shared_memory"}
)

if TYPE_CHECKING:
    from gymspaces.vector.shared_memory import (
        SharedSlice,
        create_shared_memory,
        read_from_shared_memory,
        write_to_shared_memory,
    )


def __getattr__(name: str) -> Any:
    # PEP 562: called only for a name the module does not hold yet.
    if name not in _SHARED_MEMORY_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from gymspaces.vector import shared_memory

    value = getattr(shared_memory, name)
    globals()[name] = value  # from now on an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | _SHARED_MEMORY_NAMES)
