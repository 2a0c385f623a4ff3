"""MiniGrid on patched Gymnasium: its custom MissionSpace child, vector envs, wrappers.

Every MiniGrid observation is a Dict whose ``mission`` child is MiniGrid's own
``MissionSpace`` (a custom Gymnasium space). Patched, that child runs
Gymnasium's code and so does the Dict holding it (``plain_reason`` names the
child), while the Box and Discrete children and the action space run
compiled. Rollouts through MiniGrid's observation wrappers and through
vector envs (their worker processes included) must equal the plain run's.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium
import pytest
from support.clients import framework, plain_and_patched
from support.clients_envs import reporting
from support.differential import assert_same_value

from gymspaces.gymnasium import is_compiled, patched, plain_reason

minigrid = framework("minigrid")
import minigrid.wrappers as W  # noqa: E402
from minigrid.core.mission import MissionSpace  # noqa: E402

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched

ENV_ID = "MiniGrid-Empty-5x5-v0"
MISSION = "MissionSpace is not one of the classes patch mode compiles"
MISSION_REASON = f"not-a-gymnasium-class: {MISSION}"
IN_A_TREE = f"not-a-gymnasium-class: sub-space MissionSpace: {MISSION}"


def holds_mission(space: Any) -> bool:
    """Whether a MissionSpace is in the tree of ``space`` (a MiniGrid Dict's child)."""
    if isinstance(space, MissionSpace):
        return True
    return isinstance(space, gymnasium.spaces.Dict) and any(map(holds_mission, space.spaces.values()))


def test_the_mission_space_runs_plain_and_its_siblings_compiled() -> None:
    with patched():
        env = gymnasium.make(ENV_ID)
        observation_space = env.observation_space
        assert type(observation_space) is gymnasium.spaces.Dict
        assert type(observation_space["mission"]) is MissionSpace  # patch mode replaces nothing
        assert is_compiled(observation_space["image"]) and is_compiled(observation_space["direction"])
        assert is_compiled(env.action_space)
        assert plain_reason(observation_space["mission"]) == MISSION_REASON
        # The Dict as a whole runs Gymnasium's code, which calls its compiled children.
        assert plain_reason(observation_space) == IN_A_TREE
        env.close()


def test_the_dict_with_the_mission_space_samples_and_checks_as_plain() -> None:
    def stream() -> tuple[bool, list[Any], list[bool]]:
        space = gymnasium.make(ENV_ID).observation_space
        space.seed(3)
        samples = [space.sample() for _ in range(5)]
        return is_compiled(space["image"]), samples, [space.contains(sample) for sample in samples]

    (plain_image, *plain), (compiled_image, *compiled) = plain_and_patched(stream)
    assert not plain_image and compiled_image
    assert compiled[1] == [True] * 5
    assert_same_value(compiled, plain)


def make(wrapper: Any = None) -> Any:
    env = gymnasium.make(ENV_ID)
    return wrapper(env) if wrapper is not None else env


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
def test_observation_wrappers_patched_equal_plain(name: str) -> None:
    def run() -> tuple[Any, ...]:
        env = make(WRAPPERS[name])
        mission = holds_mission(env.observation_space)
        reasons = (plain_reason(env.observation_space), plain_reason(env.action_space))
        return rollout(env), mission, reasons

    (plain, mission, plain_reasons), (compiled, _, patched_reasons) = plain_and_patched(run)
    assert None not in plain_reasons  # the plain run was plain
    # Patched: compiled unless the wrapper kept the MissionSpace child.
    expected = IN_A_TREE if mission else None
    assert patched_reasons == (expected, None)
    assert_same_rollouts(compiled, plain)


VECTOR_ENVS = {
    "sync": lambda: gymnasium.vector.SyncVectorEnv([functools.partial(reporting, f"minigrid:{ENV_ID}")] * 2),
    # Forked workers inherit the patch; spawned ones patch themselves (GYMSPACES_PATCH=1).
    "async-fork": lambda: gymnasium.vector.AsyncVectorEnv(
        [functools.partial(reporting, f"minigrid:{ENV_ID}")] * 2, shared_memory=False, context="fork"
    ),
    "async-spawn": lambda: gymnasium.vector.AsyncVectorEnv(
        [functools.partial(reporting, f"minigrid:{ENV_ID}")] * 2, shared_memory=False, context="spawn"
    ),
}


@pytest.mark.parametrize("kind", list(VECTOR_ENVS))
def test_vector_envs_of_minigrid_envs_patched_equal_plain(kind: str) -> None:
    def run() -> tuple[Any, ...]:
        env = VECTOR_ENVS[kind]()
        reports = list(env.call("spaces_report"))  # from the sub-envs: the workers' processes for async
        reasons = (plain_reason(env.single_observation_space), plain_reason(env.single_action_space))
        return rollout(env, 10), repr(env.single_observation_space), reasons, reports

    plain, compiled = plain_and_patched(run)
    assert compiled[1] == plain[1]
    not_patched = "not-patched: Gymnasium is not patched"
    assert plain[2] == (not_patched, not_patched)
    assert plain[3] == [(False, not_patched, not_patched)] * 2
    assert compiled[2] == (IN_A_TREE, None)
    assert compiled[3] == [(True, IN_A_TREE, None)] * 2
    assert_same_rollouts(compiled[0], plain[0])


def test_async_vector_env_with_shared_memory_fails_patched_as_plain() -> None:
    """Gymnasium has no shared-memory rule for MissionSpace: both refuse alike."""

    def outcome() -> str:
        try:
            env = gymnasium.vector.AsyncVectorEnv([make] * 2, shared_memory=True)
        except Exception as error:  # noqa: BLE001 - the exception is the outcome
            cause = error.__cause__
            return f"{type(error).__qualname__}: {error} (from {type(cause).__qualname__}: {cause})"
        env.close()
        return "built"

    plain, compiled = plain_and_patched(outcome)
    assert plain.startswith("ValueError: ") and "CustomSpaceError" in plain, plain
    assert compiled == plain
