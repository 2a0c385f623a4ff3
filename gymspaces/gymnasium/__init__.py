"""Gymnasium interoperability: patch mode and state-carrying conversion.

Importing this subpackage imports Gymnasium (``import gymspaces`` never does)
and changes nothing in either library: only :func:`patch` does.

* :func:`patch` / :func:`unpatch` / :func:`patched` -- run Gymnasium's own
  space classes on gymspaces' kernels (the door for Gymnasium code: envs,
  wrappers, frameworks), with :func:`is_compiled` to check;
* :func:`from_gymnasium` / :func:`to_gymnasium` -- convert space trees between
  the libraries, generator state included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, overload

try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the environment
    from gymspaces._gymnasium_releases import install_hint

    _problem = f"gymspaces.gymnasium needs Gymnasium: {install_hint()}"
    from gymspaces.gymnasium.__main__ import without_gymnasium

    # ``python -m gymspaces.gymnasium`` imports this package before its
    # __main__: there, --help and --version answer and exit, other uses get
    # one line. Any other import gets the ImportError.
    without_gymnasium(_problem)
    raise ImportError(_problem) from error

import gymnasium.spaces as _gym

import gymspaces as _gs
from gymspaces.gymnasium._patch import (
    VERIFIED_GYMNASIUM,
    is_compiled,
    is_patched,
    patch,
    patched,
    plain_reason,
    unpatch,
)

if TYPE_CHECKING:
    import numpy as np

    from gymspaces.gymnasium.profiler.report import report

    # Type parameters carried across: the Box scalar type and the integer type
    # of Discrete/MultiDiscrete (Gymnasium's bounds, the narrower ones).
    _ScalarT = TypeVar("_ScalarT", bound=np.floating[Any] | np.integer[Any])
    _IntegerT = TypeVar("_IntegerT", bound=np.integer[Any])
else:
    _ScalarT = _IntegerT = TypeVar("_T")

_T = TypeVar("_T")
_K = TypeVar("_K")

__all__ = [
    "from_gymnasium", "to_gymnasium", "patch", "unpatch", "is_patched", "patched", "is_compiled",
    "plain_reason", "report", "VERIFIED_GYMNASIUM",
]


# Overloads give each space class its counterpart (Box -> Box, ...) so type
# checkers keep the class. In mypy's
# overload resolution, an argument whose type has ``Any`` parameters (Gymnasium's
# ``Dict`` is ``Dict[Any]`` by default) matches two overloads and gives ``Any``.
@overload
def from_gymnasium(space: _gym.Box[_ScalarT], *, share_rng: bool = False, strict: bool = False) -> _gs.Box[_ScalarT]: ...
@overload
def from_gymnasium(space: _gym.Discrete[_IntegerT], *, share_rng: bool = False, strict: bool = False) -> _gs.Discrete[_IntegerT]: ...
@overload
def from_gymnasium(
    space: _gym.MultiDiscrete[_IntegerT], *, share_rng: bool = False, strict: bool = False
) -> _gs.MultiDiscrete[_IntegerT]: ...
@overload
def from_gymnasium(space: _gym.MultiBinary, *, share_rng: bool = False, strict: bool = False) -> _gs.MultiBinary: ...
@overload
def from_gymnasium(space: _gym.Text, *, share_rng: bool = False, strict: bool = False) -> _gs.Text: ...
@overload
def from_gymnasium(space: _gym.Tuple, *, share_rng: bool = False, strict: bool = False) -> _gs.Tuple[Any]: ...
@overload
def from_gymnasium(space: _gym.Dict, *, share_rng: bool = False, strict: bool = False) -> _gs.Dict[Any]: ...
@overload
def from_gymnasium(space: _gym.Sequence, *, share_rng: bool = False, strict: bool = False) -> _gs.Sequence: ...
@overload
def from_gymnasium(space: _gym.Graph, *, share_rng: bool = False, strict: bool = False) -> _gs.Graph: ...
@overload
def from_gymnasium(space: _gym.OneOf[_T], *, share_rng: bool = False, strict: bool = False) -> _gs.OneOf[_T]: ...
@overload
def from_gymnasium(space: dict[_K, Any], *, share_rng: bool = False, strict: bool = False) -> dict[_K, Any]: ...
@overload
def from_gymnasium(space: list[Any], *, share_rng: bool = False, strict: bool = False) -> list[Any]: ...
@overload
def from_gymnasium(space: tuple[Any, ...], *, share_rng: bool = False, strict: bool = False) -> tuple[Any, ...]: ...
@overload
def from_gymnasium(space: Any, *, share_rng: bool = False, strict: bool = False) -> _gs.Space[Any]: ...  # any other space, old ``gym`` ones
def from_gymnasium(space: Any, *, share_rng: bool = False, strict: bool = False) -> Any:
    """Convert a Gymnasium space tree into gymspaces' own spaces.

    Parameters
    ----------
    space : gymnasium.spaces.Space, or a mapping, list or tuple of spaces
        A Gymnasium space (composites included); gymspaces spaces and the
        spaces of the last ``gym`` release (0.26) are accepted too. A container (PettingZoo's per-agent
        ``observation_spaces`` dict, say) comes back as the same type (a
        ``defaultdict`` with its ``default_factory``, a namedtuple), and a
        space object that appears several times in one call is converted
        once, so what was shared stays shared.
    share_rng : bool
        Use the very generators of ``space`` instead of copies of them.
    strict : bool
        Raise :class:`TypeError` for a space of an unknown class (a custom
        space, or a subclass) instead of keeping it as it is.

    Returns
    -------
    gymspaces.Space
        An equal space whose generators continue exactly the streams of the
        original's: every space's generator state is carried over, and
        generators shared between spaces of the tree stay shared. A gym 0.26
        space gets the attributes Gymnasium added since; its stream continues
        value for value except for ``Text`` and ``Graph``, which gym sampled
        differently and which then sample as Gymnasium 1.4 does.

    Raises
    ------
    TypeError
        With ``strict=True``, for a space of an unknown class (a custom space
        or a subclass), naming the class.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium import from_gymnasium
    >>> theirs = gymnasium.spaces.Dict(
    ...     {"pos": gymnasium.spaces.Box(-1.0, 1.0, (2,)), "mode": gymnasium.spaces.Discrete(3)}, seed=0
    ... )
    >>> ours = from_gymnasium(theirs)
    >>> type(ours).__module__, ours
    ('gymspaces.dict', Dict('mode': Discrete(3), 'pos': Box(-1.0, 1.0, (2,), float32)))
    >>> ours.sample()["mode"] == theirs.sample()["mode"]  # the same stream continues
    np.True_
    >>> class Custom(gymnasium.spaces.Space):
    ...     pass
    >>> mission = Custom()
    >>> from_gymnasium({"agent_0": mission, "agent_1": mission})["agent_1"] is mission  # kept, shared
    True
    >>> from_gymnasium(mission, strict=True)
    Traceback (most recent call last):
    ...
    TypeError: Cannot convert a space of class gymspaces.gymnasium.Custom to gymspaces: ...
    """
    from gymspaces.gymnasium._convert import convert_any  # on first use: patch() needs none of it

    return convert_any(space, "gymspaces", share=share_rng, strict=strict)


@overload
def to_gymnasium(space: _gs.Box[_ScalarT], *, share_rng: bool = False, strict: bool = False) -> _gym.Box[_ScalarT]: ...
@overload
def to_gymnasium(space: _gs.Discrete[_IntegerT], *, share_rng: bool = False, strict: bool = False) -> _gym.Discrete[_IntegerT]: ...
@overload
def to_gymnasium(
    space: _gs.MultiDiscrete[_IntegerT], *, share_rng: bool = False, strict: bool = False
) -> _gym.MultiDiscrete[_IntegerT]: ...
@overload
def to_gymnasium(space: _gs.MultiBinary, *, share_rng: bool = False, strict: bool = False) -> _gym.MultiBinary: ...
@overload
def to_gymnasium(space: _gs.Text, *, share_rng: bool = False, strict: bool = False) -> _gym.Text: ...
@overload
def to_gymnasium(space: _gs.Tuple[Any], *, share_rng: bool = False, strict: bool = False) -> _gym.Tuple[Any]: ...
@overload
def to_gymnasium(space: _gs.Dict[Any], *, share_rng: bool = False, strict: bool = False) -> _gym.Dict[Any]: ...
@overload
def to_gymnasium(space: _gs.Sequence, *, share_rng: bool = False, strict: bool = False) -> _gym.Sequence: ...
@overload
def to_gymnasium(space: _gs.Graph, *, share_rng: bool = False, strict: bool = False) -> _gym.Graph: ...
@overload
def to_gymnasium(space: _gs.OneOf[_T], *, share_rng: bool = False, strict: bool = False) -> _gym.OneOf[_T]: ...
@overload
def to_gymnasium(space: dict[_K, Any], *, share_rng: bool = False, strict: bool = False) -> dict[_K, Any]: ...
@overload
def to_gymnasium(space: list[Any], *, share_rng: bool = False, strict: bool = False) -> list[Any]: ...
@overload
def to_gymnasium(space: tuple[Any, ...], *, share_rng: bool = False, strict: bool = False) -> tuple[Any, ...]: ...
@overload
def to_gymnasium(space: Any, *, share_rng: bool = False, strict: bool = False) -> _gym.Space[Any]: ...
def to_gymnasium(space: Any, *, share_rng: bool = False, strict: bool = False) -> Any:
    """Convert a gymspaces space tree into Gymnasium's own spaces.

    The inverse of :func:`from_gymnasium`, with the same parameters
    (containers and ``strict`` included) and guarantees.

    Examples
    --------
    >>> import gymspaces
    >>> from gymspaces.gymnasium import to_gymnasium
    >>> ours = gymspaces.Discrete(4, seed=1)
    >>> theirs = to_gymnasium(ours)
    >>> type(theirs).__module__
    'gymnasium.spaces.discrete'
    >>> theirs.sample() == ours.sample()
    np.True_
    """
    from gymspaces.gymnasium._convert import convert_any  # on first use: patch() needs none of it

    return convert_any(space, "gymnasium", share=share_rng, strict=strict)


def __getattr__(name: str) -> Any:
    # PEP 562: the profiler (its timers, pickling, the processes of a run, the
    # estimate) loads on first use of ``report``, not with patch mode.
    if name != "report":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from gymspaces.gymnasium.profiler.report import report

    globals()["report"] = report
    return report
