from collections.abc import Callable
from typing import Any

from typing_extensions import disjoint_base

from gymspaces.gymnasium._judge import Judge

CHECK_NAMES: tuple[str, ...]
CHECKED: frozenset[str]

@disjoint_base
class Live:
    on: bool
    @property
    def built_in_rules(self) -> bool: ...
    def __init__(
        self, built_in_rules: bool = True, note_plain: Callable[[str, Any, str], None] | None = None
    ) -> None: ...

@disjoint_base
class Operation:
    owner: str
    name: str
    label: str
    left: str | None
    checks: tuple[str, ...]
    checked: bool
    def __init__(
        self, owner: str, name: str, checks: tuple[str, ...], *, label: str, left: str | None = None,
        judge: Judge | None = None, release_proven: Callable[..., bool] | None = None,
        may_warn: Callable[[Any, Any], bool] | None = None, value_at: int = 0, arguments: tuple[int, int] = (0, 0),
        checked: bool = False, rerun: bool = False, convert: Callable[[Any], Any] | None = None,
    ) -> None: ...

@disjoint_base
class GraphInstances:
    def __init__(self, ours: type, theirs: Callable[..., Any]) -> None: ...
    def __call__(self, value: Any) -> Any: ...

def method_entry(
    row: Operation, compiled: Callable[..., Any], original: Callable[..., Any], live: Live
) -> Callable[..., Any]: ...
def graph_sample_entry(
    row: Operation, compiled: Callable[..., Any], original: Callable[..., Any], live: Live
) -> Callable[..., Any]: ...
def helper_rule(
    row: Operation,
    helper: Callable[..., Any],
    live: Live,
    originals: dict[type, Any],
    fallbacks: tuple[Callable[..., Any], Callable[..., Any]] | None = None,
) -> Callable[..., Any]: ...
def explain(row: Operation, live: Live, space: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None: ...
def registry_first(registry: dict[Any, Any], original: Callable[[type], Any]) -> Callable[[type], Any]: ...
