from collections.abc import Callable
from typing import Any

import gymnasium.spaces as _gym

import gymspaces as _gs

CLASS_NAMES: list[str]
compatible_graphs: Callable[[Any], Any]

def adopt(child: Any) -> Any: ...

# Each class derives from its gymspaces and its Gymnasium namesake, which
# declare the same attributes with different (equally valid) types: mypy's
# incompatible base definitions ([misc]). At run time Gymnasium's methods are
# set on each class (_release_classes).
class Space(_gs.Space, _gym.Space): ...  # type: ignore[misc]
class Box(_gs.Box, Space, _gym.Box): ...  # type: ignore[misc]
class Discrete(_gs.Discrete, Space, _gym.Discrete): ...  # type: ignore[misc]
class MultiBinary(_gs.MultiBinary, Space, _gym.MultiBinary): ...  # type: ignore[misc]
class MultiDiscrete(_gs.MultiDiscrete, Space, _gym.MultiDiscrete): ...  # type: ignore[misc]
class Text(_gs.Text, Space, _gym.Text): ...  # type: ignore[misc]
class Tuple(_gs.Tuple, Space, _gym.Tuple): ...  # type: ignore[misc]
class Dict(_gs.Dict, Space, _gym.Dict): ...  # type: ignore[misc]
class Sequence(_gs.Sequence, Space, _gym.Sequence): ...  # type: ignore[misc]
class Graph(_gs.Graph, Space, _gym.Graph): ...  # type: ignore[misc]
class OneOf(_gs.OneOf, Space, _gym.OneOf): ...  # type: ignore[misc]
class GraphInstance(_gs.GraphInstance, _gym.GraphInstance): ...  # type: ignore[misc]
