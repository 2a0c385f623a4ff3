"""What the installed Gymnasium release has: the one place that decides.

gymspaces.gymnasium supports Gymnasium 0.29.1 to 1.4.0. The releases differ
in what exists (0.29 has no ``OneOf`` and no ``batch_differing_spaces``), in
the signatures of ``sample`` (0.29 takes no ``probability``) and in the
attributes their spaces store (0.29's ``Dict`` keeps an ``OrderedDict`` and no
``sort_keys``, its ``Graph`` no ``batch_node_space``/``batch_edge_space``, its
``Box`` computes ``low_repr``/``high_repr`` at once: the layout of gym 0.26).
Everything is read from the installed Gymnasium at import; the rest of the
layer asks this module instead of checking attributes itself.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import gymnasium.spaces as _gym
import gymnasium.spaces.utils as _gym_utils
import gymnasium.vector.utils as _gym_vector

__all__ = [
    "ALL_SPACE_NAMES", "SPACE_NAMES", "VERSION", "RELEASE", "LEGACY_LAYOUT", "SAMPLE_TAKES_PROBABILITY",
    "utils_helper", "vector_helper",
]

VERSION: str = gymnasium.__version__



def _version_numbers(version: str) -> tuple[int, int, int]:
    """``(major, minor, micro)`` of a version such as ``1.4.0`` or ``1.0.0a1``; ``(0, 0, 0)`` if unreadable.

    (Split by hand: compiling a regular expression cost more at import than
    the rest of this module.)

    >>> _version_numbers("1.0.0a1"), _version_numbers("0.29.1"), _version_numbers("1.0")
    ((1, 0, 0), (0, 29, 1), (0, 0, 0))
    """
    major, _, rest = version.partition(".")
    minor, _, rest = rest.partition(".")
    micro = rest[: len(rest) - len(rest.lstrip("0123456789"))]  # its leading digits
    if not (major.isdecimal() and minor.isdecimal() and micro):
        return (0, 0, 0)
    return (int(major), int(minor), int(micro))


RELEASE: tuple[int, int, int] = _version_numbers(VERSION)
"""The installed release as ``(major, minor, micro)``; ``(0, 0, 0)`` if unreadable."""

ALL_SPACE_NAMES = (
    "Box", "Discrete", "MultiBinary", "MultiDiscrete", "Text", "Tuple", "Dict", "Sequence", "Graph", "OneOf"
)
"""The space classes gymspaces has (and Gymnasium 1.x has)."""

SPACE_NAMES: tuple[str, ...] = tuple(
    name for name in ALL_SPACE_NAMES if isinstance(getattr(_gym, name, None), type)
)
"""Those of :data:`ALL_SPACE_NAMES` that the installed ``gymnasium.spaces`` has: the
classes that get conversions and patch entries."""

LEGACY_LAYOUT: bool = "sort_keys" not in vars(_gym.Dict({}))
"""Whether Gymnasium's spaces store their attributes as gym 0.26 did (Gymnasium
0.29): a ``Dict`` without ``sort_keys`` is the mark of that layout."""



def _takes(function: Any, name: str) -> bool:
    """Whether ``function`` (pure Python) has a parameter ``name``: its code's
    parameters, without ``inspect.signature`` (0.1 ms at import)."""
    code = function.__code__
    return name in code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]


SAMPLE_TAKES_PROBABILITY: bool = _takes(_gym.Space.sample, "probability")
"""Whether Gymnasium's ``sample`` methods take ``probability`` (1.x) or only ``mask`` (0.29)."""


def _dispatcher(module: Any, name: str) -> Any:
    helper = getattr(module, name, None)
    return helper if hasattr(helper, "register") and hasattr(helper, "registry") else None


def vector_helper(name: str) -> Any | None:
    """Gymnasium's singledispatch vector helper ``name`` (``gymnasium.vector.utils``), or None
    when the release has none (``batch_differing_spaces`` before 1.0)."""
    return _dispatcher(_gym_vector, name)


def utils_helper(name: str) -> Any | None:
    """Gymnasium's singledispatch helper ``name`` of ``gymnasium.spaces.utils``, or None."""
    return _dispatcher(_gym_utils, name)
