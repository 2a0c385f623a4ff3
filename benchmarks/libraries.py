"""The libraries a benchmark case runs on: gymspaces' or Gymnasium's spaces and helpers, as one namespace."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace

__all__ = ["library"]


def library(name: str) -> SimpleNamespace:
    """The spaces, flatten helpers and vector helpers of ``"gymspaces"`` or ``"gymnasium"``."""
    spaces: ModuleType
    utils: ModuleType
    vector: ModuleType
    if name == "gymspaces":
        import gymspaces
        import gymspaces.utils as utils
        import gymspaces.vector as vector

        spaces = gymspaces
    elif name == "gymnasium":
        import gymnasium.spaces as spaces
        import gymnasium.spaces.utils as utils
        import gymnasium.vector.utils as vector
    else:
        raise ValueError(f"unknown library {name!r}")
    namespace = SimpleNamespace(name=name)
    for module in (spaces, utils, vector):
        for attribute in dir(module):
            if not attribute.startswith("_"):
                setattr(namespace, attribute, getattr(module, attribute))
    return namespace
