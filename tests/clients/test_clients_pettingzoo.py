"""PettingZoo environments whose per-agent spaces were converted as one mapping.

PettingZoo keeps ``observation_spaces`` / ``action_spaces`` dicts, often with
one space object shared by several agents (``dict.fromkeys(agents, space)``).
Converted in one call, shared objects stay shared, so per-agent seeding gives
the plain env's numbers; PettingZoo's own API and seed tests must pass.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from support.clients import framework
from support.differential import assert_same_value

from gymspaces.gymnasium import is_compiled, to_compat

pettingzoo = framework("pettingzoo")
from pettingzoo import ParallelEnv  # noqa: E402
from pettingzoo.classic import connect_four_v3, rps_v2, tictactoe_v3  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402
from pettingzoo.utils import parallel_to_aec  # noqa: E402

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


def converted(env: Any) -> Any:
    """``env`` with its per-agent spaces converted, each dict in one call."""
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    before = {agent: id(space) for agent, space in raw.observation_spaces.items()}
    raw.observation_spaces = to_compat(raw.observation_spaces)
    raw.action_spaces = to_compat(raw.action_spaces)
    for agent in raw.observation_spaces:
        assert is_compiled(raw.observation_spaces[agent]) and is_compiled(raw.action_spaces[agent])
        for other in raw.observation_spaces:  # shared before <=> shared after
            shared_before = before[agent] == before[other]
            assert (raw.observation_spaces[agent] is raw.observation_spaces[other]) == shared_before
    return env


AEC_ENVS = {"rps": rps_v2.env, "tictactoe": tictactoe_v3.env, "connect_four": connect_four_v3.env}


@pytest.mark.parametrize("name", list(AEC_ENVS))
def test_aec_api_and_seed_tests_on_converted_envs(name: str) -> None:
    api_test(converted(AEC_ENVS[name]()), num_cycles=40)
    seed_test(lambda: converted(AEC_ENVS[name]()), num_cycles=40)


def test_parallel_api_and_seed_tests_with_shared_spaces() -> None:
    env = converted(SharedSpacesEnv())
    assert env.observation_spaces["agent_0"] is env.observation_spaces["agent_2"]
    parallel_api_test(env, num_cycles=30)
    parallel_seed_test(lambda: converted(SharedSpacesEnv()), num_cycles=30)
    api_test(converted(parallel_to_aec(SharedSpacesEnv())), num_cycles=30)


def play(env: Any, seed: int) -> list[Any]:
    observations, _ = env.reset(seed=seed)
    record = [observations]
    while env.agents:
        actions = {agent: env.action_space(agent).sample() for agent in env.agents}
        observations, *_ = env.step(actions)
        record.append(observations)
    return record


def test_shared_spaces_give_the_plain_envs_numbers() -> None:
    """Converting agent by agent would split shared spaces and change the numbers."""
    plain, compat = play(SharedSpacesEnv(), 5), play(converted(SharedSpacesEnv()), 5)
    for step, (mine, reference) in enumerate(zip(compat, plain, strict=True)):
        assert_same_value(mine, reference, f"step {step}")
    split = SharedSpacesEnv()
    split.observation_spaces = {agent: to_compat(space) for agent, space in split.observation_spaces.items()}
    split.action_spaces = {agent: to_compat(space) for agent, space in split.action_spaces.items()}
    different = play(split, 5)
    assert any(
        not np.array_equal(a[agent]["position"], b[agent]["position"])
        for a, b in zip(different, plain)
        for agent in a
    ), "converting one by one should have changed the numbers (the test would prove nothing)"


