from collections.abc import Callable
from typing import Any

from typing_extensions import disjoint_base

def configure(
    tuple_space: type, dict_space: type, leaf_spaces: tuple[type, ...], enabled: bool = True
) -> None: ...
def set_enabled(enabled: bool) -> None: ...
def concatenate_tree(
    space: Any, items: Any, out: Any, fallback: Callable[[Any, Any, Any], Any]
) -> Any: ...
def configure_iterate(
    box: type, multi_discrete: type, multi_binary: type, enabled: bool = True
) -> None: ...
def set_iterate_enabled(enabled: bool) -> None: ...

@disjoint_base
class Node:
    """A Dict or Tuple node of a batch plan (no Python-visible attributes)."""

@disjoint_base
class DictRows:
    def __iter__(self) -> DictRows: ...
    def __next__(self) -> Any: ...

def iterate_rows(space: Any, items: Any) -> DictRows | None: ...
