from collections.abc import Callable
from typing import Any

from typing_extensions import disjoint_base

def configure(
    tuple_space: type,
    dict_space: type,
    leaf_spaces: tuple[type, ...],
    synchronized_array: type,
    shared_slice: type,
    write_leaf: Callable[[Any, Any, Any, Any], Any],
    write_tuple: Callable[[Any, Any, Any, Any], Any],
    read_leaf: Callable[[Any, Any, Any], Any],
) -> None: ...
def set_enabled(enabled: bool) -> None: ...
def set_aliases(aliases: dict[type, type]) -> None: ...

def has_plan(space: Any, shared_memory: Any) -> bool: ...
def write_tree(space: Any, index: Any, value: Any, shared_memory: Any) -> bool: ...
def read_tree(space: Any, shared_memory: Any, n: Any) -> Any: ...

@disjoint_base
class Plan:
    """One node of a cached shared-memory plan (no Python-visible attributes)."""
