"""Registered environments with plain and with compatible spaces, for the client tests.

Ids are given as ``"support.clients_envs:GymspacesTest/..."``: ``gymnasium.make``
imports this module before looking the id up, so worker processes of vector
envs (which TorchRL starts for ``num_envs=2``) register them too.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from gymspaces.gymnasium import to_compat

G = gymnasium.spaces


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
        return self.observation_space.sample(), float(np.sum(action)), False, self.steps >= 40, {}


def compatible(make: Any) -> Any:
    def build(**kwargs: Any) -> Any:
        env = make(**kwargs)
        env.observation_space = to_compat(env.observation_space)
        env.action_space = to_compat(env.action_space)
        return env

    return build


def _cartpole(**kwargs: Any) -> Any:
    from gymnasium.envs.classic_control import CartPoleEnv

    return CartPoleEnv(**kwargs)


ENV_IDS = {}
for _name, _make in (("CartPole", _cartpole), ("MultiDiscrete", lambda **kw: MultiDiscreteEnv())):
    for _kind, _entry in (("Plain", _make), ("Compat", compatible(_make))):
        _id = f"GymspacesTest/{_kind}{_name}-v0"
        if _id not in gymnasium.registry:
            gymnasium.register(_id, entry_point=_entry, max_episode_steps=200)
        # "module:id": gymnasium.make imports this module first, so vector-env
        # workers started by spawn register the ids too.
        ENV_IDS[(_name, _kind)] = f"support.clients_envs:{_id}"


