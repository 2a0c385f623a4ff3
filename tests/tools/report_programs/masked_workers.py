"""A program with workers for ``report_vs_time.py``: issue #57's model, written anew.

A custom env with a Dict observation whose actions are a MultiDiscrete with
per-step masks, run in an ``AsyncVectorEnv`` of 4 (forked workers, shared
memory) and in a ``SyncVectorEnv`` of 8, each env wrapped in
``FlattenObservation``; the agent samples masked actions in this process.
Plain or patched, it does the same thing and prints the same checksum.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import FlattenObservation

NVEC = np.array([5, 4, 3, 6])
STEPS_ASYNC, STEPS_SYNC = 2000, 800


class MaskedGrid(gym.Env):
    """A toy env: a Dict observation redrawn every step, and a mask per action dimension."""

    def __init__(self) -> None:
        self.observation_space = spaces.Dict(
            {
                "position": spaces.Box(-1.0, 1.0, (4,), np.float32),
                "cell": spaces.Discrete(9),
                "seen": spaces.MultiBinary(6),
                "goal": spaces.MultiDiscrete([3, 3]),
                "lidar": spaces.Box(0.0, 5.0, (8,), np.float32),
            }
        )
        self.action_space = spaces.MultiDiscrete(NVEC)
        self.steps = 0

    def _masks(self) -> tuple[np.ndarray, ...]:
        draw = self.np_random.integers(0, 2, size=int(NVEC.sum()), dtype=np.int8)
        masks, start = [], 0
        for n in NVEC:
            mask = draw[start : start + n]
            mask[self.steps % n] = 1  # one action at least in each dimension
            masks.append(mask)
            start += n
        return tuple(masks)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        # Drawn from the env's own generator: the same sequence at every autoreset, plain or patched.
        self.observation_space.seed(int(self.np_random.integers(2**31)))
        self.steps = 0
        return self.observation_space.sample(), {"mask": np.concatenate(self._masks())}

    def step(self, action):
        assert self.action_space.contains(action)
        self.steps += 1
        observation = self.observation_space.sample()
        assert self.observation_space.contains(observation)
        reward = float(action.sum()) / 10.0
        return observation, reward, self.steps >= 50, False, {"mask": np.concatenate(self._masks())}


def make() -> gym.Env:
    return FlattenObservation(MaskedGrid())


def split(mask: np.ndarray) -> tuple[np.ndarray, ...]:
    return tuple(np.split(mask.astype(np.int8), np.cumsum(NVEC)[:-1]))


def run(envs: gym.vector.VectorEnv, steps: int, seed: int) -> float:
    action_space = envs.single_action_space
    action_space.seed(seed)
    _, info = envs.reset(seed=seed)
    total = 0.0
    for _ in range(steps):
        actions = np.stack([action_space.sample(mask=split(mask)) for mask in info["mask"]])
        observations, rewards, _, _, info = envs.step(actions)
        total += float(rewards.sum()) + float(observations[0, 0])
    envs.close()
    return total


if __name__ == "__main__":
    checksum = run(gym.vector.AsyncVectorEnv([make] * 4), STEPS_ASYNC, 1)
    checksum += run(gym.vector.SyncVectorEnv([make] * 8), STEPS_SYNC, 2)
    print(f"{checksum:.6f}")
