"""gymspaces.gymnasium.from_gymnasium / to_gymnasium.

A converted space tree must continue exactly the sample streams of the
original: every generator's state is carried over, generators shared between
spaces stay shared, and a round trip changes nothing.
"""

from __future__ import annotations

import collections
import copy

import gymnasium
import gymnasium.spaces as gym_spaces
import numpy as np
import pytest
from support.composite_helpers import assert_same_sample_tree

import gymspaces
from gymspaces.gymnasium import from_gymnasium, to_gymnasium


def _walk(space):
    """Every space of a tree, parents first."""
    yield space
    children = getattr(space, "spaces", None)
    if isinstance(children, dict):
        children = list(children.values())
    for child in children or ():
        yield from _walk(child)
    for name in ("feature_space", "stacked_feature_space", "node_space", "edge_space",
                 "batch_node_space", "batch_edge_space"):
        child = getattr(space, name, None)
        if child is not None:
            yield from _walk(child)


def _family(space):
    """The libraries the classes of a tree come from."""
    return {type(node).__module__.split(".")[0] for node in _walk(space)}


def _assert_continues(original, converted, draws=6):
    """``converted`` draws what ``original`` (untouched) would draw, at every node."""
    reference = copy.deepcopy(original)
    for _ in range(draws):
        assert_same_sample_tree(converted.sample(), reference.sample(), type_names=True)
    for ours, theirs in zip(_walk(converted), _walk(reference)):
        if getattr(theirs, "_np_random", None) is not None:
            assert ours.np_random.bit_generator.state == theirs.np_random.bit_generator.state


def _rich_space(lib, seed=None):
    return lib.Dict(
        {
            "box": lib.Box(-np.inf, np.inf, (2,), np.float64),
            "ints": lib.Box(0, 9, (3,), np.int32),
            "discrete": lib.Discrete(7, start=3),
            "binary": lib.MultiBinary(4),
            "multi": lib.MultiDiscrete([[2, 3], [4, 5]], start=[[0, 1], [2, 3]]),
            "text": lib.Text(5, charset="abc"),
            "tuple": lib.Tuple([lib.Discrete(2), lib.Box(-1, 1, (1,))]),
            "sequence": lib.Sequence(lib.Discrete(3)),
            "stacked": lib.Sequence(lib.Box(0, 1, (2,)), stack=True),
            "graph": lib.Graph(lib.Box(-1, 1, (2,)), lib.Discrete(4)),
            "oneof": lib.OneOf([lib.Discrete(2), lib.MultiBinary(2)]),
        },
        seed=seed,
    )


class DictObservationEnv(gymnasium.Env):
    """An environment whose Dict observation space covers every space kind."""

    def __init__(self):
        self.observation_space = _rich_space(gym_spaces)
        self.action_space = gym_spaces.MultiDiscrete([3, 2])

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self.observation_space.seed(seed)
        return self.observation_space.sample(), {}

    def step(self, action):
        return self.observation_space.sample(), 0.0, False, False, {}


def _used_env_spaces(env, seed):
    env.reset(seed=seed)
    env.observation_space.seed(seed)
    env.action_space.seed(seed + 1)
    for _ in range(3):
        env.observation_space.sample()
        env.action_space.sample()
    return env.observation_space, env.action_space


@pytest.mark.parametrize("env_id", ["CartPole-v1", "Blackjack-v1"])
def test_spaces_of_real_environments(env_id):
    env = gymnasium.make(env_id)
    for space in _used_env_spaces(env, 5):
        converted = from_gymnasium(space)
        assert _family(converted) == {"gymspaces"}
        assert repr(converted) == repr(space)
        _assert_continues(space, converted)
        back = to_gymnasium(from_gymnasium(space))
        assert _family(back) == {"gymnasium"} and back == space
        _assert_continues(space, back)
    env.close()


def test_dict_observation_env():
    env = DictObservationEnv()
    observation_space, action_space = _used_env_spaces(env, 9)
    for space in (observation_space, action_space):
        converted = from_gymnasium(space)
        assert _family(converted) == {"gymspaces"} and repr(converted) == repr(space)
        _assert_continues(space, converted)
        _assert_continues(space, to_gymnasium(from_gymnasium(space)))
        # The env's own stream goes on untouched by the conversion.
        expected = copy.deepcopy(space).sample()
        assert_same_sample_tree(space.sample(), expected, type_names=True)


def test_unseeded_but_used_spaces_carry_their_entropy_seeded_state():
    space = _rich_space(gym_spaces)
    for node in _walk(space):
        node.np_random  # seeded from OS entropy on first use
    space.sample()
    _assert_continues(space, from_gymnasium(space))


def test_never_seeded_spaces_stay_unseeded():
    converted = from_gymnasium(gym_spaces.Tuple([gym_spaces.Discrete(3)]))
    assert converted._np_random is None and converted[0]._np_random is None


def test_composite_and_child_generators_and_int_seeding():
    space = _rich_space(gym_spaces, seed=4)
    converted = from_gymnasium(space)
    _assert_continues(space, converted)
    # Reseeding the converted tree behaves as reseeding a Gymnasium one.
    reference = _rich_space(gym_spaces)
    assert repr(converted.seed(8)) == repr(reference.seed(8))
    assert_same_sample_tree(converted.sample(), reference.sample(), type_names=True)


def test_shared_generators_stay_shared():
    shared = np.random.default_rng(1)
    box = gym_spaces.Box(-1, 1, (2,), seed=shared)
    discrete = gym_spaces.Discrete(5, seed=shared)
    space = gym_spaces.Tuple([box, discrete, box], seed=shared)
    space.sample()
    converted = from_gymnasium(space)
    assert converted[0] is converted[2]
    generators = {id(node.np_random) for node in (converted, converted[0], converted[1])}
    assert len(generators) == 1 and converted.np_random is not shared
    _assert_continues(space, converted)
    # Sharing across separately converted spaces needs one call: convert a tuple.
    assert from_gymnasium(box, share_rng=True).np_random is shared


def test_the_original_is_independent_of_the_copy():
    space = gym_spaces.Box(0, 1, (3,), seed=2)
    converted = from_gymnasium(space)
    assert converted.low is not space.low and converted.np_random is not space.np_random
    converted.sample()
    assert_same_sample_tree(space.sample(), gym_spaces.Box(0, 1, (3,), seed=2).sample(), type_names=True)


def test_share_rng_shares_the_generators():
    space = _rich_space(gym_spaces, seed=3)
    converted = from_gymnasium(space, share_rng=True)
    for ours, theirs in zip(_walk(converted), _walk(space)):
        assert ours._np_random is theirs._np_random


def test_to_gymnasium_from_gymspaces():
    space = _rich_space(gymspaces, seed=6)
    space.sample()
    converted = to_gymnasium(space)
    again = from_gymnasium(converted)
    assert _family(converted) == {"gymnasium"} and repr(converted) == repr(space)
    _assert_continues(space, converted)
    assert _family(again) == {"gymspaces"} and again == space
    _assert_continues(space, again)


def test_unknown_spaces_are_kept_unless_strict():
    class Custom(gym_spaces.Space):
        pass

    class MyBox(gym_spaces.Box):
        pass

    custom, subclass = Custom(), MyBox(0, 1)
    for convert in (from_gymnasium, to_gymnasium):
        assert convert(custom) is custom and convert(subclass) is subclass
        converted = convert(gym_spaces.Tuple([custom, gym_spaces.Discrete(2)]))
        assert converted[0] is custom and repr(converted[1]) == "Discrete(2)"
        for space in (custom, subclass, gym_spaces.Tuple([Custom()])):
            with pytest.raises(TypeError, match=r"test_gymnasium_convert\..*(Custom|MyBox)"):
                convert(space, strict=True)
    with pytest.raises(TypeError, match="builtins.int"):
        from_gymnasium(3)


Agents = collections.namedtuple("Agents", ["agent_0", "agent_1", "agent_2"])


def _by_default() -> None:
    return None


@pytest.mark.parametrize("convert", [from_gymnasium, to_gymnasium])
@pytest.mark.parametrize("container", [dict, list, tuple, collections.defaultdict, Agents])
def test_containers_keep_their_type_and_sharing(convert, container):
    """PettingZoo shares one space object between agents: it stays one object.

    Subclasses whose constructor is not ``type(x)(items)`` keep their type
    too: a ``defaultdict`` with its ``default_factory``, a namedtuple.
    """
    shared = gym_spaces.Dict({"pos": gym_spaces.Box(-1, 1, (2,)), "id": gym_spaces.Discrete(3)}, seed=4)
    other = gym_spaces.Discrete(5, seed=shared.np_random)  # shares the generator, not the space
    mapping = container in (dict, collections.defaultdict)
    if container is dict:
        spaces = {"agent_0": shared, "agent_1": shared, "agent_2": other}
    elif container is collections.defaultdict:
        spaces = collections.defaultdict(_by_default, agent_0=shared, agent_1=shared, agent_2=other)
    elif container is Agents:
        spaces = Agents(shared, shared, other)
    else:
        spaces = container([shared, shared, other])
    converted = convert(spaces)
    assert type(converted) is container
    if container is collections.defaultdict:
        assert converted.default_factory is _by_default
    if mapping:
        assert list(converted) == ["agent_0", "agent_1", "agent_2"]
    first, second, third = converted.values() if mapping else converted
    assert first is second and first is not shared
    assert third.np_random is first.np_random  # the generator stays shared as well
    if container is Agents:
        assert converted.agent_2 is third
    # Seeding one agent's space reaches the other, as with the original objects.
    first.seed(9)
    shared.seed(9)
    for _ in range(3):
        assert str(second.sample()) == str(shared.sample())
        assert third.sample() == other.sample()
