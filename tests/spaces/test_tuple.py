"""Unit tests of gymspaces.Tuple, with Gymnasium as the oracle where behaviour is subtle."""

from __future__ import annotations

import collections.abc
import copy
import pickle

import numpy as np
import pytest

import gymspaces
from support import common_checks
from support.differential import GS, GYM, assert_same_generator_state, assert_same_outcome, assert_same_value, outcome
from gymspaces import Box, Discrete, MultiDiscrete, Sequence, Text, Tuple
from gymspaces.error import Error


def pair():
    return Tuple((Discrete(2), Box(-1, 1, shape=(2,))))


# --------------------------------------------------------------------------- construction


def test_accepts_any_iterable_and_stores_a_tuple():
    space = Tuple(iter([Discrete(2), Discrete(3)]))
    assert space.spaces == (Discrete(2), Discrete(3))
    assert type(space.spaces) is tuple
    assert space.shape is None and space.dtype is None


def test_rejects_non_spaces():
    with pytest.raises(TypeError, match="does not inherit from `gymnasium.Space`. Actual Type"):
        Tuple((Discrete(2), 3))


def test_repr_and_equality():
    assert repr(pair()) == "Tuple(Discrete(2), Box(-1.0, 1.0, (2,), float32))"
    assert repr(Tuple(())) == "Tuple()"
    assert pair() == pair()
    assert pair() != Tuple((Discrete(2),))
    assert pair() != (Discrete(2), Box(-1, 1, shape=(2,)))


def test_unhashable():
    with pytest.raises(TypeError):
        hash(pair())


def test_sequence_protocol():
    space = Tuple((Discrete(2), Discrete(3), Discrete(2)))
    assert isinstance(space, collections.abc.Sequence)
    assert len(space) == 3
    assert space[1] == Discrete(3)
    assert space[-1] == Discrete(2)
    assert space[1:] == (Discrete(3), Discrete(2))
    assert list(space) == [Discrete(2), Discrete(3), Discrete(2)]
    assert list(reversed(space)) == [Discrete(2), Discrete(3), Discrete(2)]
    assert space.index(Discrete(3)) == 1
    assert space.count(Discrete(2)) == 2
    with pytest.raises(IndexError):
        space[3]


def test_in_tests_sample_membership_not_subspaces():
    """``x in space`` is ``contains`` (quirk Q21a, docs/quirks.md), not Sequence membership."""
    for lib in (GS, GYM):
        space = lib.Tuple((lib.Discrete(2), lib.Discrete(3)))
        assert lib.Discrete(2) not in space
        assert (1, 2) in space


def test_generic_subscription():
    assert Tuple[int] is not None
    assert GYM.Tuple[int] is not None


def test_is_np_flattenable():
    assert pair().is_np_flattenable is True
    assert Tuple(()).is_np_flattenable is True
    assert Tuple((Discrete(2), Sequence(Discrete(2)))).is_np_flattenable is False


# --------------------------------------------------------------------------- seeding


def test_int_seed_golden_values():
    space = Tuple((Discrete(2), Discrete(2)))
    assert space.seed(42) == (191664963, 1662057957)


def test_int_seed_leaves_own_generator_advanced():
    """The own generator ends after the sub-seed draws, and only the children's seeds are
    returned (quirk Q3, docs/quirks.md)."""
    for lib in (GS, GYM):
        space = lib.Tuple((lib.Discrete(2), lib.Discrete(3), lib.Discrete(4)))
        seeds = space.seed(7)
        reference = np.random.default_rng(7)
        expected = reference.integers(2**31 - 1, size=3)
        assert seeds == tuple(int(v) for v in expected)
        assert_same_generator_state(space.np_random, reference)
        for child, sub in zip(space.spaces, seeds):
            assert_same_generator_state(child.np_random, np.random.default_rng(sub))


def test_sequence_seed_seeds_children_and_leaves_own_unset():
    """A sequence seed leaves the own generator unset (quirk Q2, docs/quirks.md)."""
    for lib in (GS, GYM):
        space = lib.Tuple((lib.Discrete(2), lib.Tuple((lib.Discrete(3), lib.Discrete(4)))))
        assert space.seed([1, [2, 3]]) == (1, (2, 3))
        nested = lib.Tuple((lib.Discrete(3), lib.Discrete(4))).seed(6)
        assert space.seed((5, 6)) == (5, nested)
        assert space._np_random is None
        assert_same_generator_state(space.spaces[0].np_random, np.random.default_rng(5))


def test_none_seed_returns_fresh_entropy_and_leaves_own_unset():
    space = pair()
    seeds = space.seed(None)
    assert isinstance(seeds, tuple) and len(seeds) == 2
    assert all(type(s) is int for s in seeds)
    assert space._np_random is None


@pytest.mark.parametrize(
    "seed, error",
    [([1], ValueError), ((1, 2, 3), ValueError), ("12", TypeError), (np.int64(3), TypeError),
     (1.5, TypeError), ({"a": 1}, TypeError), (-1, Error)],
)
def test_bad_seeds(seed, error):
    common_checks.check_bad_seed(lambda lib: lib.Tuple((lib.Discrete(2), lib.Discrete(2))), seed, error)


def test_constructor_seed_forms():
    assert_same_value(
        Tuple((Discrete(5), Discrete(5)), seed=[3, 4]).sample(),
        (Discrete(5, seed=3).sample(), Discrete(5, seed=4).sample()),
    )
    generator = np.random.default_rng(0)
    space = Tuple((Discrete(5),), seed=generator)
    assert space.np_random is generator


def test_touching_np_random_of_unseeded_tuple_reseeds_children():
    """Quirk Q1 (docs/quirks.md): the property calls seed(None), which reseeds every child."""
    for lib in (GS, GYM):
        child = lib.Discrete(5, seed=1)
        before = child.np_random
        space = lib.Tuple((child,))
        generator = space.np_random
        assert isinstance(generator, np.random.Generator)
        assert child.np_random is not before


# --------------------------------------------------------------------------- sampling


def test_golden_sample():
    sample = Tuple((Discrete(2), Box(-1, 1, shape=(2,))), seed=42).sample()
    assert sample[0] == 0 and type(sample[0]) is np.int64
    np.testing.assert_allclose(sample[1], [-0.3991573, 0.21649833], rtol=1e-6)  # printed digits
    assert sample[1].dtype == np.float32


def test_sample_never_uses_own_generator():
    space = Tuple((Discrete(3), Discrete(3)), seed=0)
    state = space.np_random.bit_generator.state
    space.sample()
    space.sample(mask=(None, np.array([1, 0, 1], dtype=np.int8)))
    assert space.np_random.bit_generator.state == state


def test_mask_and_probability_are_forwarded():
    space = Tuple((Discrete(3), MultiDiscrete([2, 2])), seed=0)
    for _ in range(20):
        first, second = space.sample(
            mask=(np.array([0, 0, 1], dtype=np.int8), (np.array([1, 0], dtype=np.int8), np.ones(2, np.int8)))
        )
        assert first == 2 and second[0] == 0
        first, _ = space.sample(probability=(np.array([0.0, 1.0, 0.0]), None))
        assert first == 1


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"mask": [None, None]}, AssertionError),
        ({"mask": (None,)}, AssertionError),
        ({"probability": (None, None, None)}, AssertionError),
        ({"probability": np.zeros(2)}, AssertionError),
        ({"mask": (None, None), "probability": (None, None)}, ValueError),
        ({"mask": (np.zeros(3, dtype=np.int8), None)}, AssertionError),
        ({"mask": (np.array([1, 0], dtype=np.int8), np.ones(2, dtype=np.int8))}, Error),
    ],
)
def test_bad_masks_match_gymnasium(kwargs, error):
    spaces = [lib.Tuple((lib.Discrete(2), lib.Box(-1, 1, shape=(2,))), seed=3) for lib in (GS, GYM)]
    results = [outcome(lambda s=s: s.sample(**kwargs)) for s in spaces]
    assert results[0].raised
    assert isinstance(results[0].error, error)
    assert_same_outcome(*results, same_warnings=False)
    for gs_child, gym_child in zip(spaces[0].spaces, spaces[1].spaces):
        assert_same_generator_state(gs_child.np_random, gym_child.np_random)


# --------------------------------------------------------------------------- contains / jsonable


def test_contains():
    space = Tuple((Discrete(3), Discrete(2)))
    assert space.contains((np.int64(2), 1))
    assert space.contains([2, 1])  # lists are promoted
    assert space.contains(np.array([2, 1]))  # so are arrays
    assert not space.contains((2,))
    assert not space.contains((3, 1))
    assert not space.contains(2)
    assert not space.contains({0: 1, 1: 1})


def test_jsonable_round_trip():
    space = Tuple((Discrete(3), Box(0, 1, (2,)), Text(3)), seed=0)
    samples = [space.sample() for _ in range(3)]
    data = space.to_jsonable(samples)
    assert isinstance(data, list) and len(data) == 3
    back = space.from_jsonable(data)
    assert len(back) == 3
    for original, restored in zip(samples, back):
        assert type(restored) is tuple
        assert restored[0] == original[0] and restored[2] == original[2]
        np.testing.assert_array_equal(restored[1], original[1])


# --------------------------------------------------------------------------- copies


def test_deepcopy_and_pickle_keep_streams_and_sharing():
    generator = np.random.default_rng(5)
    space = Tuple((Discrete(7, seed=generator), Discrete(7, seed=generator)))
    for clone in (copy.deepcopy(space), pickle.loads(pickle.dumps(space))):
        assert clone == space
        assert clone.spaces[0].np_random is clone.spaces[1].np_random
        assert clone.spaces[0].np_random is not generator
        reference = copy.deepcopy(space)
        assert_same_value([clone.sample() for _ in range(4)], [reference.sample() for _ in range(4)])
    assert generator.bit_generator.state == np.random.default_rng(5).bit_generator.state


def test_is_exported():
    assert gymspaces.Tuple is Tuple
    assert "Tuple" in gymspaces.__all__
