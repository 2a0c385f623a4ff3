"""Gymnasium interoperability: compatible spaces and state-carrying conversion.

Importing this subpackage imports Gymnasium (``import gymspaces`` never does).

* :mod:`gymspaces.gymnasium.spaces` -- classes that are Gymnasium spaces and
  sample with gymspaces (``from gymspaces.gymnasium import spaces``);
* :func:`from_gymnasium` / :func:`to_gymnasium` -- convert space trees between
  the libraries, generator state included;
* :func:`to_compat` -- the compatible counterpart of any space tree.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "gymspaces.gymnasium needs Gymnasium: pip install 'gymnasium>=1.0'"
    ) from error

from gymspaces.gymnasium import spaces
from gymspaces.gymnasium._convert import convert as _convert

__all__ = ["spaces", "from_gymnasium", "to_gymnasium", "to_compat"]


def from_gymnasium(space: Any, *, share_rng: bool = False) -> Any:
    """Convert a Gymnasium space tree into plain gymspaces spaces.

    Parameters
    ----------
    space : gymnasium.spaces.Space
        A Gymnasium 1.x space (composites included; compatible spaces and
        gymspaces spaces are accepted too, and old ``gym`` 0.26 spaces when
        ``gym`` is imported).
    share_rng : bool
        Use the very generators of ``space`` instead of copies of them.

    Returns
    -------
    gymspaces.Space
        An equal space whose generators continue exactly the streams of the
        original's: every space's generator state is carried over, and
        generators shared between spaces of the tree stay shared.

    Raises
    ------
    TypeError
        For a space of an unknown class (a custom space or a subclass),
        naming the class.
    """
    return _convert(space, "gymspaces", share=share_rng)


def to_gymnasium(space: Any, *, share_rng: bool = False) -> Any:
    """Convert a gymspaces (or compatible) space tree into plain Gymnasium spaces.

    The inverse of :func:`from_gymnasium`, with the same parameters and
    guarantees.
    """
    return _convert(space, "gymnasium", share=share_rng)


def to_compat(space: Any, *, share_rng: bool = False) -> Any:
    """Convert any space tree into :mod:`gymspaces.gymnasium.spaces` classes.

    Useful to speed up an existing environment:
    ``env.observation_space = to_compat(env.observation_space)``. Parameters
    and guarantees are those of :func:`from_gymnasium`.
    """
    return _convert(space, "compat", share=share_rng)
