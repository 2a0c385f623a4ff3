"""Stable-Baselines3 trained on plain and on patched Gymnasium.

Each algorithm trains for a few hundred steps, once on plain Gymnasium and
once patched, with the same seeds: the learned parameters must be
bit-identical (the spaces' samples feed exploration, so any difference in a
stream shows up in the weights), and while patched the spaces SB3 holds and
samples must be compiled. SB3's ``check_env`` must pass patched, with the
warnings it gives plain.
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from support.clients import framework, plain_and_patched

from gymspaces.gymnasium import plain_reason

sb3 = framework("stable_baselines3")
torch = framework("torch")
from stable_baselines3.common.env_checker import check_env  # noqa: E402

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched


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


def parameters(model: Any) -> list[np.ndarray]:
    return [value.detach().cpu().numpy().copy() for value in model.policy.state_dict().values()]


def train(algorithm: Any, make_env: Any, steps: int, **kwargs: Any) -> tuple[list[str | None], list[np.ndarray]]:
    """The plain reasons of the spaces the model holds and samples, and its parameters after training."""
    torch.manual_seed(0)
    model = algorithm(env=make_env(), seed=0, device="cpu", verbose=0, **kwargs)
    vec_env = model.get_env()  # SB3's DummyVecEnv around a Monitor around the env
    spaces = [model.observation_space, model.action_space, vec_env.observation_space, vec_env.action_space]
    spaces += [vec_env.envs[0].unwrapped.observation_space, vec_env.envs[0].unwrapped.action_space]
    model.learn(total_timesteps=steps)
    return [plain_reason(space) for space in spaces], parameters(model)


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
def test_training_patched_is_bit_identical_to_plain(name: str) -> None:
    algorithm, make_env, kwargs, steps = CASES[name]
    (plain_reasons, plain), (patched_reasons, compiled) = plain_and_patched(
        lambda: train(algorithm(), make_env, steps, **kwargs)
    )
    assert all(reason is not None for reason in plain_reasons)  # the plain run was plain
    assert patched_reasons == [None] * len(patched_reasons)  # every space SB3 uses compiled
    assert len(plain) == len(compiled)
    for a, b in zip(plain, compiled):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("make_env", [lambda: gymnasium.make("CartPole-v1"), DictObservationEnv,
                                      lambda: gymnasium.make("Pendulum-v1")], ids=["CartPole", "Dict", "Pendulum"])
def test_sb3_check_env_passes_patched_as_plain(make_env: Any) -> None:
    def checked() -> tuple[list[str | None], list[tuple[type, str]]]:
        env = make_env().unwrapped
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env, warn=True)  # raises on a failed check
        env.close()
        return [plain_reason(env.observation_space), plain_reason(env.action_space)], [
            (warning.category, str(warning.message)) for warning in caught
        ]

    (plain_reasons, plain_warnings), (patched_reasons, patched_warnings) = plain_and_patched(checked)
    assert None not in plain_reasons and patched_reasons == [None, None]
    assert patched_warnings == plain_warnings
