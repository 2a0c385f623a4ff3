"""TorchRL's ``GymEnv`` on registered environments, run plain and then patched.

TorchRL converts Gymnasium spaces to its specs by class, children included
(a batched ``Discrete`` becomes a ``MultiDiscrete`` whose items it converts
one by one). Patched, Gymnasium's classes stay the classes TorchRL knows and
run gymspaces' kernels: specs and seeded rollouts must equal the plain run's,
and the spaces must be compiled in the test process and, for ``num_envs=2``,
in the ``AsyncVectorEnv`` workers TorchRL spawns (patched through
``GYMSPACES_PATCH=1``).
"""

from __future__ import annotations

from typing import Any

import pytest
from support.clients import framework, plain_and_patched

from gymspaces.gymnasium import is_compiled, is_patched

torch = framework("torch")
torchrl_envs = framework("torchrl.envs")
from torchrl.envs.utils import check_env_specs  # noqa: E402

from support.clients_envs import ENV_IDS  # noqa: E402  (registered there, importable by workers)

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched


def rollout(env_id: str, num_envs: int) -> dict[str, Any]:
    kwargs = {"num_envs": num_envs} if num_envs else {}
    env = torchrl_envs.GymEnv(env_id, **kwargs)
    gym_env = env._env  # the Gymnasium env (an AsyncVectorEnv for num_envs > 0) TorchRL drives
    spaces = [gym_env.observation_space, gym_env.action_space]
    if num_envs:
        spaces += [gym_env.single_observation_space, gym_env.single_action_space]
        reports = list(gym_env.call("spaces_report"))  # from each worker process
    else:
        reports = [gym_env.get_wrapper_attr("spaces_report")()]
    env.set_seed(0)
    torch.manual_seed(0)
    data = env.rollout(30, break_when_any_done=False)
    specs = (env.observation_spec.clone(), env.action_spec.clone(), env.reward_spec.clone())
    if num_envs == 0:
        check_env_specs(env, seed=0)
    env.close()
    return {
        "specs": specs,
        "data": data,
        "patched": is_patched(),
        "compiled": [is_compiled(space) for space in spaces],
        "reports": reports,
    }


@pytest.mark.parametrize("num_envs", [0, 2], ids=["single", "num_envs=2"])
@pytest.mark.parametrize("name", ["CartPole", "MultiDiscrete"])
def test_gym_env_specs_and_rollouts_patched_equal_plain(name: str, num_envs: int) -> None:
    plain, compiled = plain_and_patched(lambda: rollout(ENV_IDS[name], num_envs))
    # The plain run is plain everywhere, the patched one compiled everywhere.
    assert not plain["patched"] and not any(plain["compiled"])
    assert all(not patched and obs is not None and act is not None for patched, obs, act in plain["reports"])
    assert compiled["patched"] and all(compiled["compiled"]), compiled["compiled"]
    assert compiled["reports"] == [(True, None, None)] * max(num_envs, 1)
    for mine, reference in zip(compiled["specs"], plain["specs"], strict=True):
        assert mine == reference
    assert set(compiled["data"].keys(True, True)) == set(plain["data"].keys(True, True))
    for key in plain["data"].keys(True, True):
        assert torch.equal(compiled["data"][key], plain["data"][key]), key
