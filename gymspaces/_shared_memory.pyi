from typing import Any

from typing_extensions import disjoint_base

def has_plan(space: Any, shared_memory: Any) -> bool: ...
def write_tree(space: Any, index: Any, value: Any, shared_memory: Any) -> bool: ...
def read_tree(space: Any, shared_memory: Any, n: Any) -> Any: ...

@disjoint_base
class Plan:
    """One node of a cached shared-memory plan (no Python-visible attributes)."""
