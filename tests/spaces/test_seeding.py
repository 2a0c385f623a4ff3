"""gymspaces.seeding.np_random against gymnasium.utils.seeding.np_random."""

from __future__ import annotations

import re

import gymnasium.error
import gymnasium.utils.seeding as gym_seeding
import numpy as np
import pytest

import gymspaces.error
import gymspaces.seeding as gs_seeding
from support.differential import LIBS, assert_same_generator_state, states_equal

SPECIAL_SEEDS = [0, 1, 2, 7, 42, 123, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**40, 2**63 - 1, 2**63,
                 2**64 - 1, 2**64, 2**64 + 1, 2**127, 2**128 - 1, 2**128 + 7, 10**50, True, False]


@pytest.mark.parametrize("seed", SPECIAL_SEEDS, ids=repr)
def test_same_generator_and_entropy_as_gymnasium(seed):
    gs_rng, gs_entropy = gs_seeding.np_random(seed)
    gym_rng, gym_entropy = gym_seeding.np_random(seed)
    assert type(gs_rng) is np.random.Generator
    assert type(gs_rng.bit_generator) is np.random.PCG64
    assert_same_generator_state(gs_rng, gym_rng, repr(seed))
    assert type(gs_entropy) is type(gym_entropy) and gs_entropy == gym_entropy == seed
    np.testing.assert_array_equal(gs_rng.random(5), gym_rng.random(5))
    assert gs_rng.integers(2**40) == gym_rng.integers(2**40)


def test_many_seeds_match_gymnasium_and_default_rng():
    for seed in list(range(300)) + [3**k for k in range(40)]:
        gs_rng, entropy = gs_seeding.np_random(seed)
        gym_rng, _ = gym_seeding.np_random(seed)
        assert entropy == seed
        assert states_equal(gs_rng.bit_generator.state, gym_rng.bit_generator.state), seed
        assert states_equal(gs_rng.bit_generator.state, np.random.default_rng(seed).bit_generator.state)


def test_none_gives_fresh_entropy():
    rng, entropy = gs_seeding.np_random(None)
    assert type(entropy) is int and 0 <= entropy < 2**128
    assert type(rng) is np.random.Generator and type(rng.bit_generator) is np.random.PCG64
    # The returned entropy reproduces the generator, as with Gymnasium.
    again, _ = gs_seeding.np_random(entropy)
    assert states_equal(again.bit_generator.state, rng.bit_generator.state)
    gym_again, _ = gym_seeding.np_random(entropy)
    assert states_equal(gym_again.bit_generator.state, rng.bit_generator.state)
    entropies = {gs_seeding.np_random()[1] for _ in range(8)}
    assert len(entropies) == 8


def test_default_argument_is_none():
    _, entropy = gs_seeding.np_random()
    assert type(entropy) is int and entropy >= 0


BAD_SEEDS = [np.int64(3), np.uint8(1), np.int32(0), 1.0, 1.5, float("nan"), "1", b"1", (1, 2), [1],
             np.array(1), np.array([1, 2]), -1, -(2**70), object(), 1 + 0j, np.random.default_rng(0),
             np.random.SeedSequence(1)]


def _seed_id(seed):
    """The type and repr, without the object addresses that would change the node id per run."""
    return re.sub(r"0x[0-9a-fA-F]+", "0x?", f"{type(seed).__name__}:{seed!r}")[:40]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=_seed_id)
def test_bad_seed_raises_library_error_with_gymnasium_message(seed):
    with pytest.raises(gymnasium.error.Error) as gym_error:
        gym_seeding.np_random(seed)
    with pytest.raises(gymspaces.error.Error) as gs_error:
        gs_seeding.np_random(seed)
    assert type(gs_error.value) is gymspaces.error.Error
    assert str(gs_error.value) == str(gym_error.value)


def test_error_messages():
    with pytest.raises(gymspaces.error.Error, match=r"^Seed must be a python integer, actual type: <class 'numpy.int64'>$"):
        gs_seeding.np_random(np.int64(1))
    with pytest.raises(gymspaces.error.Error, match=r"^Seed must be greater or equal to zero, actual value: -5$"):
        gs_seeding.np_random(-5)


def test_bool_seeds_are_ints():
    for flag in (True, False):
        gs_rng, entropy = gs_seeding.np_random(flag)
        assert entropy is flag
        assert states_equal(gs_rng.bit_generator.state, np.random.default_rng(int(flag)).bit_generator.state)


def test_space_seed_uses_np_random(lib):
    space = lib.Discrete(4)
    assert space.seed(17) == 17
    assert states_equal(space.np_random.bit_generator.state, np.random.default_rng(17).bit_generator.state)
    entropy = space.seed()
    assert type(entropy) is int
    assert states_equal(space.np_random.bit_generator.state, np.random.default_rng(entropy).bit_generator.state)


LEAF_BUILDERS = [
    lambda lib, **kw: lib.Box(0, 1, (2,), **kw),
    lambda lib, **kw: lib.Discrete(3, **kw),
    lambda lib, **kw: lib.MultiBinary(2, **kw),
    lambda lib, **kw: lib.MultiDiscrete([2], **kw),
    lambda lib, **kw: lib.Text(2, **kw),
    lambda lib, **kw: lib.Space(**kw),
]


@pytest.mark.parametrize("seed", [np.int64(1), -1, 1.0, "1", (1, 2), [3]], ids=repr)
def test_space_seed_rejects_bad_seeds_like_gymnasium(seed):
    for lib, error in zip(LIBS, (gymspaces.error.Error, gymnasium.error.Error)):
        for build in LEAF_BUILDERS:
            with pytest.raises(error):
                build(lib).seed(seed)
            with pytest.raises(error):
                build(lib, seed=seed)
