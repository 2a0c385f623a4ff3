"""A second program with workers for ``report_vs_time.py``: most of the space work in the workers.

``AsyncVectorEnv`` of 4 workers started by ``spawn`` (each imports Gymnasium,
and gymspaces when patched, on its own), without shared memory: each worker
draws and checks a nested Dict observation at every step and sends it by
pipe, and the parent stacks them (``concatenate``). The agent samples
MultiDiscrete actions with the masks the workers return.
Plain or patched, it prints the same checksum.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

NVEC = np.array([4, 4, 7])
STEPS = 1800


class Inventory(gym.Env):
    """A toy env whose observation is a nested Dict, redrawn and checked at every step."""

    def __init__(self) -> None:
        self.observation_space = spaces.Dict(
            {
                "agent": spaces.Dict({"xy": spaces.Box(0.0, 10.0, (2,), np.float32), "hp": spaces.Discrete(10)}),
                "items": spaces.MultiBinary(12),
                "slots": spaces.MultiDiscrete([5, 5, 5, 5]),
                "near": spaces.Tuple((spaces.Discrete(4), spaces.Box(-1.0, 1.0, (3,), np.float32))),
            }
        )
        self.action_space = spaces.MultiDiscrete(NVEC)
        self.steps = 0

    def _mask(self) -> np.ndarray:
        mask = self.np_random.integers(0, 2, size=int(NVEC.sum()), dtype=np.int8)
        mask[np.cumsum(NVEC) - 1] = 1  # one action at least in each dimension
        return mask

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.observation_space.seed(int(self.np_random.integers(2**31)))
        self.steps = 0
        return self.observation_space.sample(), {"mask": self._mask()}

    def step(self, action):
        assert self.action_space.contains(action)
        self.steps += 1
        observation = self.observation_space.sample()
        for _ in range(3):  # the env's own checks, as a wrapper stack would make them
            assert self.observation_space.contains(observation)
        reward = float(observation["agent"]["hp"]) - float(action.sum())
        return observation, reward, self.steps >= 40, False, {"mask": self._mask()}


def main() -> None:
    envs = gym.vector.AsyncVectorEnv([Inventory] * 4, context="spawn", shared_memory=False)
    action_space = envs.single_action_space
    action_space.seed(3)
    bounds = np.cumsum(NVEC)[:-1]
    _, info = envs.reset(seed=3)
    total = 0.0
    for _ in range(STEPS):
        actions = np.stack(
            [action_space.sample(mask=tuple(np.split(mask, bounds))) for mask in info["mask"]]
        )
        observations, rewards, _, _, info = envs.step(actions)
        total += float(rewards.sum()) + float(observations["agent"]["xy"].sum())
    envs.close()
    print(f"{total:.4f}")


if __name__ == "__main__":
    main()
