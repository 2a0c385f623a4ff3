"""Conversion of old ``gym`` 0.26 spaces (the last gym release) with the real ``gym``.

gym 0.26 stores nearly Gymnasium's attributes; ``from_gymnasium``,
``to_gymnasium`` fill in what it lacked and carry the
generator state over. Where gym 0.26 sampled like Gymnasium 1.4 (every kind
but ``Text`` and ``Graph``), the converted space continues the gym space's
stream value for value; ``Text`` and ``Graph`` then sample as Gymnasium 1.4
does from the carried-over state.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import gym  # the test extra pins gym==0.26.2; a missing gym must fail, not skip
    import gym.spaces as old
    from gym.utils import seeding as old_seeding

import gymspaces
from gymspaces.gymnasium import from_gymnasium, to_gymnasium

CONVERSIONS = {
    "gymspaces": (from_gymnasium, gymspaces),
    "gymnasium": (to_gymnasium, gymnasium.spaces),
}


def _kinds(lib):
    """The same spaces built with gym 0.26 or Gymnasium 1.4 (``lib`` is either ``spaces`` module)."""
    return {
        "box": lib.Box(-1.0, 2.0, (3,)),
        "box_unbounded": lib.Box(-np.inf, np.inf, (2, 2)),
        "box_half": lib.Box(0.0, np.inf, (3,), dtype=np.float64),
        "box_uint8": lib.Box(0, 255, (4, 3), dtype=np.uint8),
        "discrete": lib.Discrete(5, start=-2),
        "multi_binary": lib.MultiBinary([2, 3]),
        "multi_discrete": lib.MultiDiscrete([[2, 3], [4, 5]]),
        "tuple": lib.Tuple((lib.Discrete(3), lib.Box(0.0, 1.0, (2,)))),
        "dict": lib.Dict({"velocity": lib.Box(-1.0, 1.0, (2,)), "mode": lib.Discrete(4)}),
        "sequence": lib.Sequence(lib.MultiDiscrete([3, 2])),
        "text": lib.Text(6, min_length=2),
        "graph": lib.Graph(lib.Box(0.0, 1.0, (2,)), lib.Discrete(3)),
        "graph_no_edges": lib.Graph(lib.Box(0.0, 1.0, (2,)), None),
    }


# gym 0.26 drew Text (numpy ``choice`` over characters) and Graph (every part
# from the Graph's own generator) differently from Gymnasium 1.4.
SAME_ALGORITHM = sorted(set(_kinds(gymnasium.spaces)) - {"text", "graph", "graph_no_edges"})


def _plain(value):
    """A sample as plain Python data (gym returned Python ints where Gymnasium returns numpy scalars)."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tolist())
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):  # GraphInstance included
        return tuple(_plain(item) for item in value)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, (int, np.integer)):
        return int(value)
    return value


def _states(space):
    """Every generator state in a space tree, in a fixed order."""
    found = [space.np_random.bit_generator.state]
    children = getattr(space, "spaces", None)
    if isinstance(children, dict):
        children = list(children.values())
    for child in children or ():
        found += _states(child)
    for name in ("feature_space", "node_space", "edge_space"):
        child = getattr(space, name, None)
        if child is not None:
            found += _states(child)
    return found


def _seeded_legacy(kind):
    space = _kinds(old)[kind]
    space.seed(11)
    if kind.startswith("graph"):  # gym's Graph.seed left the node and edge spaces unseeded
        space.node_space.seed(12)
        if space.edge_space is not None:
            space.edge_space.seed(13)
    space.sample()  # a stream already under way
    return space


@pytest.mark.parametrize("target", sorted(CONVERSIONS))
@pytest.mark.parametrize("kind", sorted(_kinds(gymnasium.spaces)))
def test_converted_gym_space_is_the_gymnasium_space(kind, target):
    convert, library = CONVERSIONS[target]
    legacy = _seeded_legacy(kind)
    converted = convert(legacy)
    reference = _kinds(gymnasium.spaces)[kind]

    assert type(converted) is getattr(library, type(reference).__name__)
    assert converted == convert(reference) and repr(converted) == repr(reference)
    # Every attribute Gymnasium 1.4 gives the class is there (gym lacked some).
    assert set(vars(reference)) <= set(vars(converted))
    assert _states(converted) == _states(legacy)
    samples = [converted.sample() for _ in range(4)]
    assert all(converted.contains(sample) for sample in samples)
    assert _plain(converted.from_jsonable(converted.to_jsonable(samples))) == _plain(samples)


@pytest.mark.parametrize("target", sorted(CONVERSIONS))
@pytest.mark.parametrize("kind", SAME_ALGORITHM)
def test_converted_gym_space_continues_the_gym_stream(kind, target):
    convert, _ = CONVERSIONS[target]
    legacy = _seeded_legacy(kind)
    converted = convert(legacy)
    theirs = [legacy.sample() for _ in range(20)]
    ours = [converted.sample() for _ in range(20)]
    assert _plain(ours) == _plain(theirs)
    assert _states(converted) == _states(legacy)


@pytest.mark.parametrize("kind", sorted(_kinds(gymnasium.spaces)))
def test_every_target_samples_as_gymnasium_from_the_carried_state(kind):
    """Text and Graph included: from the same state, gymspaces and Gymnasium 1.4 agree exactly."""
    legacy = _seeded_legacy(kind)
    results = {target: CONVERSIONS[target][0](legacy) for target in CONVERSIONS}
    draws = {target: [repr(space.sample()) for _ in range(10)] for target, space in results.items()}
    assert draws["gymspaces"] == draws["gymnasium"]


def test_masks_reach_the_converted_children():
    legacy = _seeded_legacy("dict")
    converted = from_gymnasium(legacy)
    mask = {"velocity": None, "mode": np.array([0, 0, 1, 0], dtype=np.int8)}
    assert all(converted.sample(mask)["mode"] == 2 for _ in range(10))


def test_generators_shared_in_a_gym_tree_stay_shared():
    generator, _ = old_seeding.np_random(7)
    legacy = old.Tuple((old.Discrete(3, seed=generator), old.Box(0.0, 1.0, (2,), seed=generator)))
    converted = from_gymnasium(legacy)
    assert converted[0].np_random is converted[1].np_random
    assert converted[0].np_random is not generator  # a copy, unless share_rng=True
    assert from_gymnasium(legacy, share_rng=True)[0].np_random is generator
    theirs = [_plain(legacy.sample()) for _ in range(10)]
    assert [_plain(converted.sample()) for _ in range(10)] == theirs


@pytest.mark.parametrize("env_id", ["CartPole-v1", "Blackjack-v1"])
def test_spaces_of_real_gym_environments(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gym.make(env_id)
        observation, _ = env.reset(seed=3)
    try:
        for space in (env.observation_space, env.action_space):
            space.seed(5)
            ours = from_gymnasium(space)
            theirs = to_gymnasium(space)
            assert repr(ours) == repr(theirs) == repr(space)
            gym_draws = [_plain(space.sample()) for _ in range(25)]
            assert [_plain(ours.sample()) for _ in range(25)] == gym_draws
            assert [_plain(theirs.sample()) for _ in range(25)] == gym_draws
        assert from_gymnasium(env.observation_space).contains(observation)
    finally:
        env.close()


def test_subclasses_of_gym_spaces_are_kept_or_refused_by_name_when_strict():
    class Pixels(old.Box):
        pass

    pixels = Pixels(0, 255, (2,), dtype=np.uint8)
    assert from_gymnasium(pixels) is pixels
    with pytest.raises(TypeError, match=r"Pixels"):
        from_gymnasium(pixels, strict=True)
