"""``compile_env``: compiled spaces at every layer of one env, nothing patched."""

from __future__ import annotations

from typing import Any, TypeVar

import gymnasium.spaces as _gym

from gymspaces.gymnasium._convert import Converter

__all__ = ["compile_env"]

_EnvT = TypeVar("_EnvT")

# Where an env stack keeps its spaces: Env/VectorEnv attributes, and the
# underscored ones of Wrapper/VectorWrapper (None until a wrapper sets its own).
_SPACE_ATTRIBUTES = (
    "observation_space",
    "action_space",
    "single_observation_space",
    "single_action_space",
    "_observation_space",
    "_action_space",
    "_single_observation_space",
    "_single_action_space",
)


def compile_env(env: _EnvT) -> _EnvT:
    """Make every space of ``env`` compiled, at every layer, without patching.

    Each layer -- the wrappers, the unwrapped env, a vector env and (for
    :class:`~gymnasium.vector.SyncVectorEnv`) its sub-envs -- gets the
    compatible counterpart of each of its spaces. The counterparts share the
    original's arrays and generator, so the env's own ``space.sample()`` /
    ``contains()`` calls continue the same streams, and spaces shared between
    layers stay shared. Custom spaces are kept as they are. The sub-envs of an
    :class:`~gymnasium.vector.AsyncVectorEnv` live in other processes: only
    the parent's spaces are converted (``python -m gymspaces.gymnasium`` covers
    the workers).

    Parameters
    ----------
    env : gymnasium.Env or gymnasium.vector.VectorEnv
        Modified in place.

    Returns
    -------
    The same ``env``.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium import compile_env, is_compiled
    >>> env = compile_env(gymnasium.wrappers.ClipAction(gymnasium.make("Pendulum-v1")))
    >>> is_compiled(env.action_space), is_compiled(env.unwrapped.action_space)
    (True, True)
    >>> isinstance(env.action_space, gymnasium.spaces.Box)
    True
    """
    converter = Converter("compat", share=True, keep_unknown=True)
    seen: set[int] = set()
    pending: list[Any] = [env]
    while pending:
        layer = pending.pop()
        if id(layer) in seen:
            continue
        seen.add(id(layer))
        namespace = getattr(layer, "__dict__", {})
        for name in _SPACE_ATTRIBUTES:
            value = namespace.get(name)
            if isinstance(value, _gym.Space):
                namespace[name] = converter.space(value)
        inner = namespace.get("env")
        if inner is not None:
            pending.append(inner)
        pending.extend(namespace.get("envs", None) or ())
    return env
