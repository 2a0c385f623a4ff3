"""The one way the tests describe a space: a :class:`Recipe`, a constructor call kept for later.

``spec.Box(0, 1, (2,), "float32")`` records the call ``Box(0, 1, (2,), 'float32')``
without making it. Arguments may hold other recipes, so one recipe describes a
whole tree: ``spec.Dict({"a": spec.Discrete(3)}, sort_keys=False)``. The repr is
the call itself, so a Hypothesis failure report reads as code. Arguments need
not be valid: the fuzz tests build broken recipes on purpose.

``recipe.build(lib)`` makes the call with ``lib`` -- ``gymspaces`` or
``gymnasium.spaces``, which name their classes alike -- children first, on
fresh copies of the arguments (a signed-int Box writes into its bounds), so
every build gets identical inputs. Seeding:

* ``build(lib, seed=s)`` passes ``seed=s`` to the root's constructor only;
* ``build(lib, seeds=iterator)`` passes ``seed=next(iterator)`` to every
  constructor of the tree, children first, in construction order (e.g. one
  shared Generator, or a fresh one per space).

The fixed recipes are in :mod:`support.spaces_corpus`, the Hypothesis
strategies that generate them in :mod:`support.recipe_strategies`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium.spaces
import numpy as np

import gymspaces

_NO_SEED = object()


class Recipe:
    """``kind(*args, **kwargs)`` with ``kind`` a space class name; ``label`` names it in pytest ids."""

    __slots__ = ("kind", "args", "kwargs", "label")

    def __init__(self, kind: str, args: tuple = (), kwargs: dict | None = None, label: str | None = None):
        self.kind = kind
        self.args = tuple(args)
        self.kwargs = dict(kwargs or {})
        self.label = label

    @property
    def id(self) -> str:
        """The label if there is one, else the call."""
        return self.label if self.label is not None else repr(self)

    def named(self, label: str) -> Recipe:
        """The same call under a readable ``label``."""
        return Recipe(self.kind, self.args, self.kwargs, label)

    def build(self, lib: Any, *, seed: Any = _NO_SEED, seeds: Iterator[Any] | None = None) -> Any:
        """The space this recipe describes, built with ``lib`` (may raise, as the constructor does)."""
        args = [_fresh(value, lib, seeds) for value in self.args]
        kwargs = {key: _fresh(value, lib, seeds) for key, value in self.kwargs.items()}
        if seeds is not None:
            kwargs["seed"] = next(seeds)
        elif seed is not _NO_SEED:
            kwargs["seed"] = seed
        return getattr(lib, self.kind)(*args, **kwargs)

    def __repr__(self) -> str:
        parts = [_show(value) for value in self.args]
        parts += [f"{key}={_show(value)}" for key, value in self.kwargs.items()]
        return f"{self.kind}({', '.join(parts)})"


def _show(value: Any) -> str:
    """``repr`` of an argument; numpy scalar types as their names (``np.float32``)."""
    if isinstance(value, type) and issubclass(value, np.generic):
        return f"np.{value.__name__}"
    return repr(value)


def _fresh(value: Any, lib: Any, seeds: Iterator[Any] | None) -> Any:
    """``value`` for one build: recipes built, arrays and containers copied."""
    if isinstance(value, Recipe):
        return value.build(lib, seeds=seeds)
    if isinstance(value, np.ndarray):
        out = value.copy(order="K")
        out.flags.writeable = value.flags.writeable
        return out
    if type(value) in (list, tuple):
        return type(value)(_fresh(item, lib, seeds) for item in value)
    if type(value) is dict:
        return {key: _fresh(item, lib, seeds) for key, item in value.items()}
    if type(value) is set:
        return set(value)
    return value


class _Spec:
    """``spec.Name(*args, **kwargs)`` is ``Recipe("Name", args, kwargs)``."""

    def __getattr__(self, kind: str) -> Any:
        if kind.startswith("_"):
            raise AttributeError(kind)

        def call(*args: Any, **kwargs: Any) -> Recipe:
            return Recipe(kind, args, kwargs)

        # Named after the class, so a strategy built on it reads as that class.
        call.__name__ = call.__qualname__ = kind
        return call


spec = _Spec()


def build_pair(recipe: Recipe) -> tuple[Any, Any]:
    """``recipe`` built with gymspaces and with Gymnasium, unseeded."""
    return recipe.build(gymspaces), recipe.build(gymnasium.spaces)


def recipe_params(recipes: list[Recipe]) -> list[Any]:
    """``pytest.param`` objects with readable ids."""
    import pytest

    return [pytest.param(r, id=r.id) for r in recipes]
