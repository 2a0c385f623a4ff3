"""Unit tests of gymspaces.Sequence: lengths, length masks, stacking, seeding."""

from __future__ import annotations

import numpy as np
import pytest

from support import common_checks
from support.differential import GS, GYM, assert_same_generator_state, assert_same_outcome, assert_same_value, outcome
from gymspaces import Box, Dict, Discrete, MultiDiscrete, Sequence, Text, Tuple
from gymspaces.error import Error

# --------------------------------------------------------------------------- construction


def test_rejects_non_space_features():
    with pytest.raises(TypeError, match="Expects the feature space to be instance of a gym Space"):
        Sequence(Discrete)


def test_attributes_repr_equality():
    space = Sequence(Discrete(3))
    assert space.feature_space == Discrete(3) and space.stack is False
    assert not hasattr(space, "stacked_feature_space")
    assert space.shape is None and space.dtype is None
    assert space.is_np_flattenable is False
    assert repr(space) == "Sequence(Discrete(3), stack=False)"
    assert repr(Sequence(Box(0, 1), stack=True)) == "Sequence(Box(0.0, 1.0, (1,), float32), stack=True)"
    assert space == Sequence(Discrete(3))
    assert space != Sequence(Discrete(3), stack=True)
    assert space != Sequence(Discrete(4))
    with pytest.raises(TypeError):
        hash(space)


def test_stacked_feature_space_is_the_batched_feature():
    assert Sequence(Box(0, 1, (2,)), stack=True).stacked_feature_space == Box(0, 1, (1, 2))
    assert repr(Sequence(Discrete(3), stack=True).stacked_feature_space) == "MultiDiscrete([3])"


def test_stack_construction_touches_the_feature_generator():
    """Building the stacked feature space lazily seeds the feature (quirk Q1, docs/quirks.md)."""
    for lib in (GS, GYM):
        feature = lib.Discrete(3)
        lib.Sequence(feature)
        assert feature._np_random is None
        lib.Sequence(feature, stack=True)
        assert feature._np_random is not None


def test_not_generic():
    for lib in (GS, GYM):
        with pytest.raises(TypeError):
            lib.Sequence[int]


# --------------------------------------------------------------------------- seeding


def test_int_seed():
    space = Sequence(Discrete(4))
    own, feature = space.seed(3)
    assert own == 3
    assert feature == int(np.random.default_rng(3).integers(2**31 - 1))
    # The own generator is reseeded after drawing the feature seed.
    assert_same_generator_state(space.np_random, np.random.default_rng(3))
    assert_same_generator_state(space.feature_space.np_random, np.random.default_rng(feature))


def test_pair_and_none_seeds():
    space = Sequence(Tuple((Discrete(2), Discrete(2))))
    assert space.seed([5, [6, 7]]) == (5, (6, 7))
    assert space.seed((8, 9))[0] == 8
    own, feature = space.seed(None)
    assert type(own) is int and isinstance(feature, tuple)


@pytest.mark.parametrize(
    "seed, error",
    [((1,), ValueError), ([1, 2, 3], ValueError), ("ab", TypeError), (np.int64(1), TypeError),
     ({"a": 1}, TypeError), (-1, Error), ((-1, 2), Error)],
)
def test_bad_seeds_match_gymnasium(seed, error):
    common_checks.check_bad_seed(lambda lib: lib.Sequence(lib.Discrete(2)), seed, error)


# --------------------------------------------------------------------------- sampling


def test_golden_samples():
    space = Sequence(Discrete(4), seed=0)
    assert_same_value(space.sample(), tuple(np.int64(v) for v in (1, 2, 3)))
    assert_same_value(space.sample(), tuple(np.int64(v) for v in (0, 1, 0, 2)))
    first = Sequence(Box(0, 1), seed=0).sample()
    assert len(first) == 3
    np.testing.assert_allclose(np.concatenate(first), [0.6822636, 0.18933342, 0.19049619], rtol=1e-6)


def test_default_length_is_geometric_on_own_generator():
    space = Sequence(Discrete(4), seed=11)
    reference = np.random.default_rng(11)
    for _ in range(20):
        assert len(space.sample()) == reference.geometric(0.25)
        assert_same_generator_state(space.np_random, reference)


@pytest.mark.parametrize("length", [0, 3, np.int64(2), np.uint8(4)])
def test_integer_length_mask(length):
    space = Sequence(Discrete(4), seed=0)
    state = space.np_random.bit_generator.state
    assert len(space.sample(mask=(length, None))) == length
    assert len(space.sample(probability=(length, None))) == length
    assert space.np_random.bit_generator.state == state  # no length draw


def test_array_length_mask_and_feature_mask():
    space = Sequence(Discrete(4), seed=0)
    for _ in range(20):
        sample = space.sample(mask=(np.array([2, 5]), np.array([0, 0, 1, 0], np.int8)))
        assert len(sample) in (2, 5) and set(sample) == {2}
        sample = space.sample(probability=(None, np.array([0.0, 1.0, 0.0, 0.0])))
        assert set(sample) <= {1}


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"mask": (-1, None)}, AssertionError),
        ({"mask": (np.int64(-2), None)}, AssertionError),
        ({"mask": (True, None)}, TypeError),
        ({"mask": (2.0, None)}, TypeError),
        ({"probability": ([1, 2], None)}, TypeError),
        ({"mask": (np.array([[1, 2]]), None)}, AssertionError),
        ({"mask": (np.array([1, -2]), None)}, AssertionError),
        ({"mask": (np.array([1.0, 2.0]), None)}, AssertionError),
        ({"mask": (np.array([], dtype=np.int64), None)}, ValueError),
        ({"mask": (None, None), "probability": (None, None)}, ValueError),
        ({"mask": (3,)}, IndexError),
        ({"mask": 3}, TypeError),
        ({"mask": (2, np.zeros(3, np.int8))}, AssertionError),
        ({"probability": (2, np.array([0.5, 0.5, 0.5, 0.5]))}, AssertionError),
    ],
)
def test_bad_masks_match_gymnasium(kwargs, error):
    spaces = [lib.Sequence(lib.Discrete(4), seed=2) for lib in (GS, GYM)]
    results = [outcome(lambda s=s: s.sample(**kwargs)) for s in spaces]
    assert isinstance(results[0].error, error)
    assert_same_outcome(*results, same_warnings=False)
    assert_same_generator_state(spaces[0].np_random, spaces[1].np_random)
    assert_same_generator_state(spaces[0].feature_space.np_random, spaces[1].feature_space.np_random)


def test_length_zero_with_index_error_mask_returns_empty():
    """The feature entry of the mask is never read when nothing is sampled."""
    assert Sequence(Discrete(2), seed=0).sample(mask=(0,)) == ()


# --------------------------------------------------------------------------- stacking


def test_stacked_samples():
    box = Sequence(Box(0, 1, (2,)), stack=True, seed=0)
    sample = box.sample()
    assert isinstance(sample, np.ndarray) and sample.shape[1:] == (2,) and sample.dtype == np.float32
    discrete = Sequence(Discrete(3), stack=True, seed=0).sample(mask=(4, None))
    assert discrete.shape == (4,) and discrete.dtype == np.int64
    nested = Sequence(Dict(a=Discrete(3), b=Box(0, 1, (2,))), stack=True, seed=0).sample(mask=(3, None))
    assert list(nested) == ["a", "b"] and nested["a"].shape == (3,) and nested["b"].shape == (3, 2)
    texts = Sequence(Text(3), stack=True, seed=0).sample(mask=(2, None))
    assert type(texts) is tuple and len(texts) == 2


def test_stacked_length_zero_raises():
    """Quirk Q20 (docs/quirks.md): np.stack of nothing."""
    for lib in (GS, GYM):
        with pytest.raises(ValueError, match="need at least one array"):
            lib.Sequence(lib.Discrete(3), stack=True, seed=0).sample(mask=(0, None))


def test_stacked_sample_parity():
    for seed in range(20):
        spaces = [lib.Sequence(lib.Tuple((lib.Box(-1, 1, (2,)), lib.MultiDiscrete([2, 3]))),
                               stack=True, seed=seed) for lib in (GS, GYM)]
        for _ in range(3):
            assert_same_value(spaces[0].sample(), spaces[1].sample())


# --------------------------------------------------------------------------- contains / jsonable


def test_contains():
    space = Sequence(Discrete(3))
    assert space.contains(()) and space.contains((1, 2))
    assert not space.contains([1, 2])  # only tuples
    assert not space.contains((1, 5))
    stacked = Sequence(Box(0, 1, (2,)), stack=True)
    assert stacked.contains(np.full((3, 2), 0.5, np.float32))
    assert not stacked.contains(np.full((3, 2), 2.0, np.float32))
    assert stacked.contains(np.zeros((0, 2), np.float32))


def test_stacked_contains_of_a_non_iterable_raises():
    """Quirk Q27 (docs/quirks.md), as in Gymnasium."""
    for lib in (GS, GYM):
        with pytest.raises(TypeError):
            lib.Sequence(lib.Box(0, 1, (2,)), stack=True).contains(3)


@pytest.mark.parametrize("stack", [False, True])
def test_jsonable_round_trip(stack):
    spaces = [lib.Sequence(lib.Box(0, 1, (2,)), stack=stack, seed=4) for lib in (GS, GYM)]
    samples = [[space.sample() for _ in range(3)] for space in spaces]
    data = [space.to_jsonable(batch) for space, batch in zip(spaces, samples)]
    assert_same_value(data[0], data[1])
    back = [space.from_jsonable(d) for space, d in zip(spaces, data)]
    assert_same_value(back[0], back[1])
    for original, restored in zip(samples[0], back[0]):
        np.testing.assert_array_equal(np.asarray(original), np.asarray(restored))


def test_generate_sample_length_is_public():
    space = Sequence(MultiDiscrete([2]), seed=0)
    assert space.generate_sample_length(5, "mask") == 5
    assert space.generate_sample_length(np.array([7]), "mask") == 7
    assert isinstance(space.generate_sample_length(None, None), int)
