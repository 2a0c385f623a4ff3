from typing import Any

from typing_extensions import disjoint_base

@disjoint_base
class Floor:
    checksum: int
    def __init__(self, generator: Any, draws: int, inputs: Any, target: Any, template: Any) -> None: ...
    def __call__(self) -> Any: ...
    def run(self) -> Any: ...
