from collections.abc import Callable
from typing import Any

from typing_extensions import Self, disjoint_base

@disjoint_base
class Judge:
    @property
    def base(self) -> type: ...
    @property
    def leaf(self) -> bool: ...
    def __new__(
        cls,
        base: type,
        watched: tuple[str, ...],
        *,
        judge_class: Callable[[type], str | None],
        validate: Callable[[Any], str | None],
    ) -> Self: ...
    def reason(self, space: Any) -> str | None: ...

def judging(by_class: dict[type, Judge]) -> None: ...
def node_reason(space: Any) -> str | None: ...
def tree_reason(space: Any) -> str | None: ...
