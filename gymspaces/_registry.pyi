from typing import Any

from typing_extensions import disjoint_base

@disjoint_base
class Registry:
    Space: type | None
    Box: type | None
    Discrete: type | None
    MultiDiscrete: type | None
    MultiBinary: type | None
    Text: type | None
    Tuple: type | None
    Dict: type | None
    Sequence: type | None
    Graph: type | None
    OneOf: type | None
    space_contains: Any
    space_shape: Any
    box_sample_with_numpy: Any
    box_contains_with_numpy: Any
    discrete_contains_general: Any
    multi_discrete_sample_masked: Any
    multi_discrete_contains_general: Any
    box_contains_batch: Any
    discrete_contains_batch: Any
    multi_discrete_contains_batch: Any
    box_to_jsonable: Any
    discrete_to_jsonable: Any
    multi_discrete_to_jsonable: Any
    flatten: Any
    unflatten: Any
    SynchronizedArray: Any
    SharedSlice: Any
    write_shared_leaf: Any
    write_shared_tuple: Any
    read_shared_leaf: Any
    @property
    def aliases(self) -> dict[type, type]: ...
    flatten_enabled: bool
    concatenate_enabled: bool
    iterate_enabled: bool
    shared_memory_enabled: bool

REGISTRY: Registry
