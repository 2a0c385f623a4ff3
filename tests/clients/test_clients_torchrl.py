"""TorchRL's ``GymEnv`` on registered environments whose spaces are compatible.

TorchRL converts Gymnasium spaces to its specs by class, children included
(a batched ``Discrete`` becomes a ``MultiDiscrete`` whose items it converts
one by one), so every space a compatible space hands out must be a Gymnasium
class. Specs and seeded rollouts must equal those of the plain env.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import pytest
from support.clients import framework

torch = framework("torch")
torchrl_envs = framework("torchrl.envs")
from torchrl.envs.utils import check_env_specs  # noqa: E402

from support.clients_envs import ENV_IDS  # noqa: E402  (registered there, importable by workers)


def rollout(env_id: str, num_envs: int) -> tuple[Any, Any]:
    kwargs = {"num_envs": num_envs} if num_envs else {}
    env = torchrl_envs.GymEnv(env_id, **kwargs)
    env.set_seed(0)
    torch.manual_seed(0)
    data = env.rollout(30, break_when_any_done=False)
    specs = (env.observation_spec.clone(), env.action_spec.clone(), env.reward_spec.clone())
    if num_envs == 0:
        check_env_specs(env, seed=0)
    env.close()
    return specs, data


@pytest.mark.parametrize("num_envs", [0, 2], ids=["single", "num_envs=2"])
@pytest.mark.parametrize("name", ["CartPole", "MultiDiscrete"])
def test_gym_env_specs_and_rollouts_equal_the_plain_env(name: str, num_envs: int) -> None:
    plain_specs, plain = rollout(ENV_IDS[(name, "Plain")], num_envs)
    compat_specs, compat = rollout(ENV_IDS[(name, "Compat")], num_envs)
    for mine, reference in zip(compat_specs, plain_specs):
        assert mine == reference
    assert set(compat.keys(True, True)) == set(plain.keys(True, True))
    for key in plain.keys(True, True):
        assert torch.equal(compat[key], plain[key]), key
