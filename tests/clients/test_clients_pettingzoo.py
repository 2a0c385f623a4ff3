"""PettingZoo environments run on plain and on patched Gymnasium.

PettingZoo keeps ``observation_spaces`` / ``action_spaces`` dicts, often with
one space object shared by several agents (``dict.fromkeys(agents, space)``).
Patch mode replaces no space object, so shared objects stay shared and
per-agent seeding gives the plain env's numbers. Patched, every agent's
spaces run compiled, PettingZoo's own API and seed tests pass, and seeded
games (masked action samples included) equal the plain run's.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import pytest
from support.clients import framework, plain_and_patched
from support.differential import assert_same_value

from gymspaces.gymnasium import plain_reason

pettingzoo = framework("pettingzoo")
from pettingzoo import ParallelEnv  # noqa: E402
from pettingzoo.classic import connect_four_v3, rps_v2, tictactoe_v3  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402
from pettingzoo.utils import parallel_to_aec  # noqa: E402

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched

G = gymnasium.spaces


class SharedSpacesEnv(ParallelEnv):
    """A parallel env whose agents share one observation and one action space object."""

    metadata = {"name": "shared_spaces_v0", "render_modes": []}

    def __init__(self) -> None:
        self.possible_agents = [f"agent_{index}" for index in range(3)]
        observation = G.Dict({"position": G.Box(-1, 1, (2,)), "mode": G.Discrete(3)})
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, G.Discrete(4))
        self.steps = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Any = None) -> Any:
        self.agents = list(self.possible_agents)
        self.steps = 0
        if seed is not None:
            for offset, agent in enumerate(self.agents):  # per-agent seeding: shared objects reseed together
                self.observation_spaces[agent].seed(seed + offset)
                self.action_spaces[agent].seed(seed + offset)
        return {agent: self.observation_spaces[agent].sample() for agent in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> Any:
        self.steps += 1
        observations = {agent: self.observation_spaces[agent].sample() for agent in self.agents}
        rewards = {agent: float(actions[agent]) for agent in self.agents}
        done = self.steps >= 25
        terminations = dict.fromkeys(self.agents, False)
        truncations = dict.fromkeys(self.agents, done)
        infos = {agent: {} for agent in self.agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def reasons(env: Any) -> list[str | None]:
    """``plain_reason`` of every agent's observation and action space (``None``: compiled)."""
    return [plain_reason(space(agent)) for agent in env.possible_agents
            for space in (env.observation_space, env.action_space)]


def assert_plain_then_compiled(plain: list[str | None], compiled: list[str | None]) -> None:
    assert plain and None not in plain  # the plain run was plain
    assert compiled == [None] * len(plain)


def play_aec(env: Any, seed: int) -> list[Any]:
    """A seeded game: each turn's observation, reward, flags and membership, and the
    agent's action sampled from its space (with the observation's action mask, if any)."""
    env.reset(seed=seed)
    for offset, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + offset)
    record = []
    for agent in env.agent_iter(max_iter=200):
        observation, reward, termination, truncation, _ = env.last()
        record.append((agent, observation, reward, termination, truncation))
        record.append(env.observation_space(agent).contains(observation))
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"] if isinstance(observation, dict) else None
            action = env.action_space(agent).sample(mask)
        record.append(action)
        env.step(action)
    env.close()
    return record


AEC_ENVS = {"rps": rps_v2.env, "tictactoe": tictactoe_v3.env, "connect_four": connect_four_v3.env}


@pytest.mark.parametrize("name", list(AEC_ENVS))
def test_aec_api_seed_tests_and_games_patched_as_plain(name: str) -> None:
    def run() -> tuple[list[str | None], list[Any]]:
        api_test(AEC_ENVS[name](), num_cycles=40)
        seed_test(AEC_ENVS[name], num_cycles=40)
        env = AEC_ENVS[name]()
        return reasons(env), play_aec(env, seed=7)

    (plain_reasons, plain), (compiled_reasons, compiled) = plain_and_patched(run)
    assert_plain_then_compiled(plain_reasons, compiled_reasons)
    assert_same_value(compiled, plain)


def test_parallel_api_and_seed_tests_with_shared_spaces() -> None:
    def run() -> list[str | None]:
        env = SharedSpacesEnv()
        parallel_api_test(env, num_cycles=30)
        assert env.observation_spaces["agent_0"] is env.observation_spaces["agent_2"]  # still shared
        parallel_seed_test(SharedSpacesEnv, num_cycles=30)
        api_test(parallel_to_aec(SharedSpacesEnv()), num_cycles=30)
        return reasons(env)

    assert_plain_then_compiled(*plain_and_patched(run))


def play(env: Any, seed: int) -> list[Any]:
    observations, _ = env.reset(seed=seed)
    record = [observations]
    while env.agents:
        actions = {agent: env.action_space(agent).sample() for agent in env.agents}
        observations, *_ = env.step(actions)
        record.append(observations)
    return record


def test_shared_spaces_give_the_plain_envs_numbers() -> None:
    """Per-agent seeding reseeds each shared object once per agent that holds it:
    patched, the last seed wins as it does plain."""

    def run() -> tuple[list[str | None], list[Any]]:
        env = SharedSpacesEnv()
        return reasons(env), play(env, 5)

    (plain_reasons, plain), (compiled_reasons, compiled) = plain_and_patched(run)
    assert_plain_then_compiled(plain_reasons, compiled_reasons)
    for step, (mine, reference) in enumerate(zip(compiled, plain, strict=True)):
        assert_same_value(mine, reference, f"step {step}")
