"""State-carrying conversion between Gymnasium and gymspaces spaces.

Gymnasium 1.x and gymspaces store the same instance attributes under the same
names (``_np_random``, ``_shape``, ``low``, ``spaces``, ...). A space is
therefore converted by rebuilding its class from its attribute state, with
every sub-space converted recursively and everything else either copied (so
the result is independent of the original) or shared (a view). Copies go
through one :func:`copy.deepcopy` memo for the whole tree, so generators shared
between spaces stay shared in the result.
"""

from __future__ import annotations

import copy
import sys
from collections import OrderedDict, defaultdict
from collections.abc import Mapping
from typing import Any

import gymnasium.spaces as _gym
import numpy as np

import gymspaces as _gs
from gymspaces.gymnasium._release import ALL_SPACE_NAMES, LEGACY_LAYOUT, SPACE_NAMES
from gymspaces.space import KERNEL_CACHE_ATTRS

__all__ = ["Converter", "convert_any"]

# Old ``gym`` (0.26) spaces store nearly the same attributes; they are
# converted only when ``gym.spaces`` is already imported (a gym space object
# implies it is). :func:`_upgrade_legacy_state` fills in what gym lacked.
_LEGACY_MODULE = "gym.spaces"


def _is_legacy(cls: type) -> bool:
    """Whether ``cls`` stores the attributes of gym 0.26 (gym's classes, and
    Gymnasium's on a release of that layout, 0.29)."""
    module = cls.__module__
    return module == "gym" or module.startswith("gym.") or (LEGACY_LAYOUT and module.startswith("gymnasium."))


def _upgrade_legacy_state(name: str, state: dict[str, Any]) -> dict[str, Any]:
    """A gym 0.26 space's attributes in Gymnasium 1.x form.

    What Gymnasium 1.x added or changed: ``Discrete`` stores ``n``/``start`` as
    scalars of its dtype; ``MultiDiscrete`` has ``start``; ``Sequence`` has
    ``stack``; ``Dict`` has ``sort_keys`` and a builtin ``dict`` of spaces (gym
    sorted the keys of mappings too, so the order is unchanged); ``Box``
    computes its repr strings lazily (``None`` until first needed). ``Graph``'s
    ``batch_*_space`` attributes are added after conversion
    (:func:`_complete_legacy_graph`).
    """
    state = dict(state)
    if name == "Box":
        state["low_repr"] = state["high_repr"] = None
    elif name == "Discrete":
        scalar = state["dtype"].type
        state["n"], state["start"] = scalar(state["n"]), scalar(state.get("start", 0))
    elif name == "MultiDiscrete":
        state.setdefault("start", np.zeros(state["nvec"].shape, dtype=state["dtype"]))
    elif name == "Sequence":
        state.setdefault("stack", False)
    elif name == "Dict":
        state["spaces"] = dict(state["spaces"])
        state.setdefault("sort_keys", True)
    return state


def _downgrade_state(name: str, state: dict[str, Any]) -> dict[str, Any]:
    """Gymnasium 1.x attributes (gymspaces') in the form of a Gymnasium release with
    gym 0.26's layout (0.29), as that release's ``__init__`` leaves them.

    ``Box`` gets its repr strings from Gymnasium's own ``__setstate__`` (which
    computes the missing ones); ``Dict`` keeps an ``OrderedDict`` and no
    ``sort_keys``; ``Graph`` has no ``batch_*_space``.
    """
    state = dict(state)
    if name == "Box":
        for key in ("low_repr", "high_repr"):
            if state.get(key) is None:
                state.pop(key, None)
    elif name == "Dict":
        state.pop("sort_keys", None)
        state["spaces"] = OrderedDict(state["spaces"])
    elif name == "Graph":
        state.pop("batch_node_space", None)
        state.pop("batch_edge_space", None)
    return state


def _complete_legacy_graph(graph: Any) -> None:
    """Give a Graph converted from gym the batched node/edge spaces its class builds."""
    reference = type(graph)(graph.node_space, graph.edge_space)
    graph.batch_node_space = reference.batch_node_space
    graph.batch_edge_space = reference.batch_edge_space


# The libraries of space classes, by name.
_FAMILIES: dict[str, Any] = {"gymspaces": _gs, "gymnasium": _gym}


def _family(target: str) -> dict[type, type]:
    """Map every known space class (any library) to its class in ``target``.

    ``target`` is ``"gymspaces"`` or ``"gymnasium"``.
    """
    libraries = [*_FAMILIES.values(), sys.modules.get(_LEGACY_MODULE)]  # (none: gym is not loaded)
    goal = _FAMILIES[target]
    return {
        cls: getattr(goal, name)
        for name in ALL_SPACE_NAMES
        if hasattr(goal, name)  # (not: a class the installed Gymnasium lacks)
        for cls in (getattr(library, name, None) for library in libraries)
        if isinstance(cls, type)
    }


def _is_space(value: Any) -> bool:
    if isinstance(value, (_gs.Space, _gym.Space)):
        return True
    legacy = sys.modules.get(_LEGACY_MODULE)
    legacy_space = getattr(legacy, "Space", None)
    return isinstance(legacy_space, type) and isinstance(value, legacy_space)


class Converter:
    """Convert one space tree; reuse the instance to keep sharing across trees.

    Parameters
    ----------
    target : {"gymspaces", "gymnasium"}
        The family of the resulting classes.
    share : bool
        Share attribute values (arrays, generators) with the original instead
        of deep-copying them; spaces already of the target class are then
        returned as they are.
    keep_unknown : bool
        Return spaces of unknown classes (custom spaces) unchanged instead of
        raising :class:`TypeError`.
    """

    def __init__(self, target: str, *, share: bool = False, keep_unknown: bool = False) -> None:
        self.table = _family(target)
        self.target = target
        self.share = share
        self.keep_unknown = keep_unknown
        # One memo for spaces (by id) and for deepcopy: shared objects stay shared.
        self.memo: dict[int, Any] = {}

    def space(self, space: Any) -> Any:
        """The converted counterpart of ``space``."""
        key = id(space)
        if key in self.memo:
            return self.memo[key]
        cls = type(space)
        target = self.table.get(cls)
        if target is None:
            if self.keep_unknown and _is_space(space):
                return space
            raise TypeError(
                f"Cannot convert a space of class {cls.__module__}.{cls.__qualname__} "
                f"to {self.target}: only {', '.join(SPACE_NAMES)} (exactly these classes, "
                "not subclasses) are known"
            )
        if self.share and cls is target:
            return space
        state = dict(vars(space))
        for name in KERNEL_CACHE_ATTRS:
            state.pop(name, None)
        # Between the two attribute layouts (see _release.LEGACY_LAYOUT).
        legacy = _is_legacy(cls) and not _is_legacy(target)
        if legacy:
            state = _upgrade_legacy_state(target.__name__, state)
        elif _is_legacy(target) and not _is_legacy(cls):
            state = _downgrade_state(target.__name__, state)
        converted: Any = object.__new__(target)
        self.memo[key] = converted
        self.memo.setdefault(id(self.memo), []).append(space)  # keep ids valid
        converted.__setstate__({name: self.value(value) for name, value in state.items()})
        if legacy and target.__name__ == "Graph":
            _complete_legacy_graph(converted)
        return converted

    def value(self, value: Any) -> Any:
        """An attribute value: spaces converted, containers rebuilt, the rest copied or shared."""
        if _is_space(value):
            return self.space(value)
        kind = type(value)
        if kind is tuple or kind is list:
            return kind(self.value(item) for item in value)
        if kind is dict or kind is OrderedDict:
            return kind((key, self.value(item)) for key, item in value.items())
        if self.share:
            return value
        return copy.deepcopy(value, self.memo)


def convert_any(spaces: Any, target: str, *, share: bool, strict: bool) -> Any:
    """Convert a space tree, or a mapping, list or tuple of them, in one pass.

    Containers come back as the same type with the same keys or order (a
    ``defaultdict`` keeps its ``default_factory``, a namedtuple its fields); a space
    object that appears several times (PettingZoo's agents often share one)
    is converted once, so the results are shared too, and so are generators
    shared between spaces. Spaces of unknown classes are kept as they are
    unless ``strict``.
    """
    converter = Converter(target, share=share, keep_unknown=not strict)
    if _is_space(spaces):
        return converter.space(spaces)
    if isinstance(spaces, Mapping):
        converted = {key: converter.space(value) for key, value in spaces.items()}
        kind: Any = type(spaces)
        if kind is dict:
            return converted
        if isinstance(spaces, defaultdict):
            # Its constructor takes the factory first; keep the factory.
            return kind(spaces.default_factory, converted)
        return kind(converted)
    if isinstance(spaces, (list, tuple)):
        items = [converter.space(value) for value in spaces]
        if isinstance(spaces, tuple) and hasattr(spaces, "_fields"):
            # A namedtuple's constructor takes one argument per field.
            return type(spaces)(*items)
        return type(spaces)(items)
    return converter.space(spaces)  # not a space: TypeError naming the class
