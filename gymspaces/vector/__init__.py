"""Helpers to batch spaces and their samples, as ``gymnasium.vector.utils`` provides.

Each helper dispatches on the space's type with :func:`functools.singledispatch`
rules, so support for a custom space is added with ``batch_space.register(MySpace)``.
"""

from gymspaces.vector.shared_memory import (
    SharedSlice,
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

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
