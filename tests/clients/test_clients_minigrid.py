"""MiniGrid with compatible spaces: its custom MissionSpace child, vector envs, wrappers.

Every MiniGrid observation is a Dict whose ``mission`` child is MiniGrid's own
``MissionSpace`` (a custom Gymnasium space). Converted with ``to_compat`` the
Dict becomes compatible and keeps that child as it is; vector envs and
MiniGrid's observation wrappers must then behave exactly as on the plain env.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import pytest
from support.clients import framework
from support.differential import assert_same_value

from gymspaces.gymnasium import is_compiled, spaces, to_compat

minigrid = framework("minigrid")
import minigrid.wrappers as W  # noqa: E402
from minigrid.core.mission import MissionSpace  # noqa: E402

ENV_ID = "MiniGrid-Empty-5x5-v0"


def make(compat: bool, wrapper: Any = None) -> Any:
    env = gymnasium.make(ENV_ID)
    if compat:
        raw = env.unwrapped
        raw.observation_space = to_compat(raw.observation_space)
        raw.action_space = to_compat(raw.action_space)
    return wrapper(env) if wrapper is not None else env


def test_to_compat_keeps_the_mission_space() -> None:
    plain = gymnasium.make(ENV_ID).observation_space
    converted = to_compat(plain)
    assert isinstance(converted, spaces.Dict) and isinstance(converted, gymnasium.spaces.Dict)
    assert converted["mission"] is plain["mission"] and type(converted["mission"]) is MissionSpace
    assert is_compiled(converted["image"]) and not is_compiled(converted)  # the custom child is not
    with pytest.raises(TypeError, match="MissionSpace"):
        to_compat(plain, strict=True)


def rollout(env: Any, steps: int = 20) -> list[Any]:
    observations = [env.reset(seed=11)[0]]
    env.action_space.seed(12)
    for _ in range(steps):
        observations.append(env.step(env.action_space.sample())[0])
    env.close()
    return observations


def assert_same_rollouts(actual: list[Any], expected: list[Any]) -> None:
    for step, (a, b) in enumerate(zip(actual, expected, strict=True)):
        assert_same_value(a, b, f"step {step}")


WRAPPERS = {
    "ImgObsWrapper": W.ImgObsWrapper,
    "FlatObsWrapper": W.FlatObsWrapper,
    "OneHotPartialObsWrapper": W.OneHotPartialObsWrapper,
    "FullyObsWrapper": W.FullyObsWrapper,
    "DictObservationSpaceWrapper": W.DictObservationSpaceWrapper,
    "DirectionObsWrapper": W.DirectionObsWrapper,
    "ViewSizeWrapper": lambda env: W.ViewSizeWrapper(env, agent_view_size=5),
    "SymbolicObsWrapper": W.SymbolicObsWrapper,
}


@pytest.mark.parametrize("name", list(WRAPPERS))
def test_observation_wrappers_on_compatible_spaces(name: str) -> None:
    assert_same_rollouts(rollout(make(True, WRAPPERS[name])), rollout(make(False, WRAPPERS[name])))


VECTOR_ENVS = {
    "sync": lambda compat: gymnasium.vector.SyncVectorEnv([lambda: make(compat)] * 2),
    "async-shared-memory-off": lambda compat: gymnasium.vector.AsyncVectorEnv(
        [lambda: make(compat)] * 2, shared_memory=False
    ),
}


@pytest.mark.parametrize("kind", list(VECTOR_ENVS))
def test_vector_envs_of_compatible_minigrid_envs(kind: str) -> None:
    compat, plain = VECTOR_ENVS[kind](True), VECTOR_ENVS[kind](False)
    assert repr(compat.single_observation_space) == repr(plain.single_observation_space)
    assert_same_rollouts(rollout(compat, 10), rollout(plain, 10))


def test_async_vector_env_with_shared_memory_fails_as_plain_gymnasium_does() -> None:
    """Gymnasium has no shared-memory rule for MissionSpace: both refuse alike."""
    outcomes = []
    for compat in (True, False):
        try:
            env = gymnasium.vector.AsyncVectorEnv([lambda compat=compat: make(compat)] * 2, shared_memory=True)
            env.close()
            outcomes.append("built")
        except Exception as error:  # noqa: BLE001 - the exception type is the outcome
            outcomes.append(f"{type(error).__module__}.{type(error).__name__}")
    assert outcomes[0] == outcomes[1]
