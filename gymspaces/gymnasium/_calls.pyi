from collections.abc import Callable, Iterator
from typing import Any

from typing_extensions import disjoint_base

from gymspaces.gymnasium._judge import Judge

FUNDAMENTAL: int
COMPOSITE: int
BOX: int
CHECKED: frozenset[str]

@disjoint_base
class Live:
    on: bool
    own_rules: bool
    note_plain: Callable[[str, Any], None] | None

@disjoint_base
class Failures:
    errors: tuple[type[BaseException], ...]
    translate: Callable[[BaseException], BaseException]
    def __init__(
        self,
        errors: tuple[type[BaseException], ...],
        translate: Callable[[BaseException], BaseException],
    ) -> None: ...

@disjoint_base
class Helper:
    originals: dict[type, Callable[..., Any]]
    release_proven: Callable[..., bool] | None
    def failed(
        self, space: Any, args: tuple[Any, ...], kwargs: dict[str, Any], error: BaseException, failures: Failures
    ) -> Any: ...
    def __init__(
        self,
        originals: dict[type, Callable[..., Any]],
        may_warn: Callable[[Any, Any], bool] | None,
        release_proven: Callable[..., bool] | None,
        rerun: bool,
        convert: Callable[[Any], Any] | None,
        wrap_generator: Callable[[Iterator[Any]], Iterator[Any]],
        value_at: int = 0,
    ) -> None: ...

@disjoint_base
class GraphInstances:
    def __init__(self, ours: type, theirs: Callable[..., Any]) -> None: ...
    def __call__(self, value: Any) -> Any: ...

def sample_entry(
    name: str,
    kind: int,
    compiled: Callable[..., Any],
    original: Callable[..., Any],
    live: Live,
    judge: Judge,
    failures: Failures,
    *,
    masked_in_floats: Callable[[Any], bool] | None = None,
    release_proven: Callable[[Any, Any], bool] | None = None,
    rerun: bool = False,
    whole_tree: Callable[[Any], str | None] | None = None,
) -> Callable[..., Any]: ...
def contains_entry(
    name: str,
    compiled: Callable[..., Any],
    original: Callable[..., Any],
    live: Live,
    judge: Judge,
    failures: Failures,
    *,
    arrays_only: bool = False,
    release_proven: Callable[[Any, Any], bool] | None = None,
) -> Callable[..., Any]: ...
def guarded_rule(helper: Callable[..., Any], live: Live, how: Helper, failures: Failures) -> Callable[..., Any]: ...
def checked_rule(
    name: str,
    general: Callable[..., Any],
    live: Live,
    how: Helper,
    failures: Failures,
    fallbacks: tuple[Callable[..., Any], Callable[..., Any]] | None = None,
) -> Callable[..., Any]: ...
def registry_first(registry: dict[Any, Any], original: Callable[[type], Any]) -> Callable[[type], Any]: ...
