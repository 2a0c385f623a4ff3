"""Registered environments for the client tests, run plain and patched, and a probe
that says, from inside a vector env's worker, whether its spaces run compiled.

Ids are given as ``"support.clients_envs:GymspacesTest/..."``: ``gymnasium.make``
imports this module before looking the id up, so worker processes of vector
envs (which TorchRL starts for ``num_envs=2``, by spawn) register them too.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from gymspaces.gymnasium import is_patched, plain_reason

G = gymnasium.spaces


class SpacesReport(gymnasium.Wrapper):
    """Changes nothing; adds ``spaces_report()``, which a vector env's ``call``
    runs in each sub-env (in its worker process, for an ``AsyncVectorEnv``)."""

    def spaces_report(self) -> tuple[bool, str | None, str | None]:
        """Whether this process is patched, and ``plain_reason`` of the
        observation and action spaces (``None``: compiled)."""
        return is_patched(), plain_reason(self.observation_space), plain_reason(self.action_space)


def reporting(env_id: str, **kwargs: Any) -> SpacesReport:
    """``gymnasium.make(env_id, **kwargs)`` with :class:`SpacesReport` on top (a vector
    env's ``env_fns`` entry: ``functools.partial(reporting, env_id)``)."""
    return SpacesReport(gymnasium.make(env_id, **kwargs))


class MultiDiscreteEnv(gymnasium.Env):
    """A Dict observation and a MultiDiscrete action with a 2-D ``nvec``."""

    def __init__(self) -> None:
        self.observation_space = G.Dict({"position": G.Box(-1, 1, (3,)), "flags": G.MultiBinary(2)})
        self.action_space = G.MultiDiscrete([[3, 3], [3, 3]])  # TorchRL needs equal sizes per row
        self.steps = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        if seed is not None:
            self.observation_space.seed(seed)
        self.steps = 0
        return self.observation_space.sample(), {}

    def step(self, action: Any) -> Any:
        self.steps += 1
        reward = float(np.sum(action)) if self.action_space.contains(action) else -1.0  # contains: compiled when patched
        return self.observation_space.sample(), reward, False, self.steps >= 40, {}


def _cartpole(**kwargs: Any) -> Any:
    from gymnasium.envs.classic_control import CartPoleEnv

    return SpacesReport(CartPoleEnv(**kwargs))


def _multi_discrete(**kwargs: Any) -> Any:
    return SpacesReport(MultiDiscreteEnv())


ENV_IDS = {}
for _name, _make in (("CartPole", _cartpole), ("MultiDiscrete", _multi_discrete)):
    _id = f"GymspacesTest/{_name}-v0"
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point=_make, max_episode_steps=200)
    # "module:id": gymnasium.make imports this module first, so vector-env
    # workers started by spawn register the ids too.
    ENV_IDS[_name] = f"support.clients_envs:{_id}"
