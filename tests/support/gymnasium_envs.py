"""A small Gymnasium environment for the tests of tests/compat/.

Kept out of the test modules so that spawned vector-env workers import only
this (not pytest or hypothesis) to rebuild it.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np


def space_library(library: str) -> Any:
    """``gymspaces.gymnasium.spaces`` for ``"compat"``, ``gymnasium.spaces`` for ``"gymnasium"``."""
    if library == "compat":
        from gymspaces.gymnasium import spaces
    elif library == "gymnasium":
        from gymnasium import spaces
    else:
        raise ValueError(library)
    return spaces


class DemoEnv(gymnasium.Env):
    """Observations are samples of a Dict space seeded from the env's generator.

    Every observation, reward and info value goes through the spaces' sampling
    and membership checks, so an environment on compatible spaces must produce
    exactly what the same environment on Gymnasium's spaces produces.
    """

    metadata = {"render_modes": []}

    def __init__(self, library: str = "compat", action: str = "discrete", horizon: int = 6) -> None:
        spaces = space_library(library)
        self.observation_space = spaces.Dict(
            {
                "position": spaces.Box(-1.0, 1.0, (3,), np.float32),
                "mode": spaces.Discrete(4, start=1),
                "flags": spaces.MultiBinary(5),
                "pair": spaces.Tuple((spaces.Discrete(3), spaces.Box(0, 10, (2,), np.int64))),
            }
        )
        if action == "discrete":
            self.action_space = spaces.Discrete(3)
        else:
            self.action_space = spaces.Box(-1.0, 1.0, (2,), np.float32)
        self.horizon = horizon
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        self.observation_space.seed(int(self.np_random.integers(2**31 - 1)))
        self._steps = 0
        return self.observation_space.sample(), {"start": float(self.np_random.random())}

    def step(self, action: Any) -> Any:
        assert self.action_space.contains(action), action
        self._steps += 1
        observation = self.observation_space.sample()
        reward = float(np.sum(action)) + float(observation["position"].sum()) + int(observation["mode"])
        terminated = bool(observation["flags"][0]) and self._steps > 2
        truncated = self._steps >= self.horizon
        info = {"steps": self._steps, "pair": int(observation["pair"][0])}
        return observation, reward, terminated, truncated, info
