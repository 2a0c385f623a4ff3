from collections.abc import Callable
from typing import Any

from typing_extensions import disjoint_base

def as_tuple(parts: list[Any]) -> tuple[Any, ...]: ...
def concatenate_tree(
    space: Any, items: Any, out: Any, fallback: Callable[[Any, Any, Any], Any]
) -> Any: ...

@disjoint_base
class Node:
    """A Dict or Tuple node of a batch plan (no Python-visible attributes)."""

@disjoint_base
class DictRows:
    def __iter__(self) -> DictRows: ...
    def __next__(self) -> Any: ...

def iterate_rows(space: Any, items: Any) -> DictRows | None: ...
