"""Stable-Baselines3 on environments whose spaces were converted to compatible ones.

Each algorithm trains for a few hundred steps, once on the plain env and once
on the converted one, with the same seeds: the learned parameters must be
bit-identical (the spaces' samples feed exploration, so any difference in a
stream shows up in the weights).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from support.clients import framework

from gymspaces.gymnasium import compile_env, is_compiled, to_compat

sb3 = framework("stable_baselines3")
torch = framework("torch")
from stable_baselines3.common.env_checker import check_env  # noqa: E402


class DictObservationEnv(gymnasium.Env):
    """A small env with a Dict observation (Box, Discrete, MultiBinary) for PPO."""

    def __init__(self) -> None:
        spaces = gymnasium.spaces
        self.observation_space = spaces.Dict(
            {"position": spaces.Box(-1, 1, (3,)), "mode": spaces.Discrete(4), "flags": spaces.MultiBinary(2)}
        )
        self.action_space = spaces.Discrete(3)
        self.steps = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        if seed is not None:  # auto-resets (seed=None) continue the stream
            self.observation_space.seed(seed)
        self.steps = 0
        return self.observation_space.sample(), {}

    def step(self, action: Any) -> Any:
        assert self.action_space.contains(action)
        self.steps += 1
        observation = self.observation_space.sample()
        reward = float(observation["position"][0]) * (int(action) - 1)
        return observation, reward, False, self.steps >= 50, {}


def convert_spaces(env: Any) -> Any:
    """The env with compatible spaces at every layer (one per object, generators shared)."""
    return compile_env(env)


def parameters(model: Any) -> list[np.ndarray]:
    return [value.detach().cpu().numpy().copy() for value in model.policy.state_dict().values()]


def train(algorithm: Any, make_env: Any, convert: bool, steps: int, **kwargs: Any) -> list[np.ndarray]:
    torch.manual_seed(0)
    env = make_env()
    if convert:
        env = convert_spaces(env)
        assert is_compiled(env.observation_space) and is_compiled(env.action_space)
    model = algorithm(env=env, seed=0, device="cpu", verbose=0, **kwargs)
    model.learn(total_timesteps=steps)
    return parameters(model)


CASES = {
    "DQN-CartPole": (
        lambda: sb3.DQN,
        lambda: gymnasium.make("CartPole-v1"),
        dict(policy="MlpPolicy", learning_starts=50, train_freq=4, buffer_size=1000, exploration_fraction=0.5),
        300,
    ),
    "PPO-Dict": (
        lambda: sb3.PPO,
        DictObservationEnv,
        dict(policy="MultiInputPolicy", n_steps=64, batch_size=32, n_epochs=2),
        128,
    ),
    "SAC-Pendulum": (
        lambda: sb3.SAC,
        lambda: gymnasium.make("Pendulum-v1"),
        dict(policy="MlpPolicy", learning_starts=50, buffer_size=1000, batch_size=32),
        150,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_training_is_bit_identical_on_converted_spaces(name: str) -> None:
    algorithm, make_env, kwargs, steps = CASES[name]
    plain = train(algorithm(), make_env, False, steps, **kwargs)
    converted = train(algorithm(), make_env, True, steps, **kwargs)
    assert len(plain) == len(converted)
    for a, b in zip(plain, converted):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("make_env", [lambda: gymnasium.make("CartPole-v1"), DictObservationEnv,
                                      lambda: gymnasium.make("Pendulum-v1")], ids=["CartPole", "Dict", "Pendulum"])
def test_sb3_check_env_passes_on_converted_spaces(make_env: Any) -> None:
    env = make_env()
    env.unwrapped.observation_space = to_compat(env.unwrapped.observation_space)
    env.unwrapped.action_space = to_compat(env.unwrapped.action_space)
    check_env(env.unwrapped, warn=True)
