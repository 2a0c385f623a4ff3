from collections.abc import Callable
from typing import Any

def configure(
    tuple_space: type, dict_space: type, leaf_spaces: tuple[type, ...], enabled: bool = True
) -> None: ...
def set_enabled(enabled: bool) -> None: ...
def concatenate_tree(
    space: Any, items: Any, out: Any, fallback: Callable[[Any, Any, Any], Any]
) -> Any: ...
