"""Unit tests of gymspaces.OneOf."""

from __future__ import annotations

import numpy as np
import pytest

from support import common_checks
from support.differential import GS, GYM, assert_same_generator_state, assert_same_outcome, assert_same_value, outcome
from support.composite_helpers import assert_same_tree_states
from gymspaces import Box, Discrete, OneOf, Sequence, Text
from gymspaces.error import Error


def two():
    return OneOf((Discrete(2), Box(-1, 1, shape=(2,))))


# --------------------------------------------------------------------------- construction


@pytest.mark.parametrize(
    "build, error, message",
    [
        (lambda L: L.OneOf(3), TypeError, "3 is not an iterable"),
        (lambda L: L.OneOf([]), ValueError, "Empty `OneOf` spaces are not supported."),
        (lambda L: L.OneOf((L.Discrete(2), "x")), TypeError, "x does not inherit from `gymnasium.Space`"),
    ],
)
def test_construction_errors(build, error, message):
    results = [outcome(lambda lib=lib: build(lib)) for lib in (GS, GYM)]
    assert isinstance(results[0].error, error) and message in str(results[0].error)
    assert_same_outcome(*results, same_warnings=False)
    assert str(results[0].error) == str(results[1].error)


def test_attributes():
    space = two()
    assert space.spaces == (Discrete(2), Box(-1, 1, shape=(2,)))
    assert len(space) == 2 and space[1] == Box(-1, 1, shape=(2,))
    assert space.shape is None and space.dtype is None
    assert space.is_np_flattenable is True
    assert OneOf((Discrete(2), Sequence(Discrete(2)))).is_np_flattenable is False
    assert repr(space) == "OneOf(Discrete(2), Box(-1.0, 1.0, (2,), float32))"
    assert space == two() and space != OneOf((Discrete(2),))
    assert OneOf[int] is not None
    with pytest.raises(TypeError):
        hash(space)


# --------------------------------------------------------------------------- seeding


def test_seed_golden_and_reseeding():
    space = OneOf((Discrete(2), Box(-1, 1, shape=(2,))))
    assert space.seed(7) == (7, 2029167940, 1342382291)
    assert_same_generator_state(space.np_random, np.random.default_rng(7))


def test_sequence_and_none_seeds():
    space = OneOf((Discrete(2), OneOf((Discrete(3),))))
    assert space.seed([1, 2, (3, 4)]) == (1, 2, (3, 4))
    seeds = space.seed(None)
    assert len(seeds) == 3 and type(seeds[0]) is int and len(seeds[2]) == 2


@pytest.mark.parametrize(
    "seed, error",
    [([1, 2], ValueError), ((1, 2, 3, 4), ValueError), ("x", TypeError), (np.int64(1), TypeError),
     ({"a": 1}, TypeError), (-5, Error)],
)
def test_bad_seeds_match_gymnasium(seed, error):
    common_checks.check_bad_seed(lambda lib: lib.OneOf((lib.Discrete(2), lib.Discrete(3))), seed, error)


# --------------------------------------------------------------------------- sampling


def test_golden_samples():
    space = OneOf((Discrete(2), Box(-1, 1, shape=(2,))), seed=123)
    first, second = space.sample(), space.sample()
    assert_same_value(first, (np.int64(0), np.int64(0)))
    assert type(second[0]) is np.int64 and second[0] == 1
    np.testing.assert_allclose(second[1], [-0.00711833, -0.7257502], rtol=1e-6)  # printed digits


def test_index_is_one_bounded_draw_on_own_generator():
    space = OneOf((Discrete(2), Discrete(2), Discrete(2)), seed=3)
    reference = np.random.default_rng(3)
    for _ in range(20):
        index, _ = space.sample()
        assert index == reference.integers(0, 3, dtype=np.int64)
        assert_same_generator_state(space.np_random, reference)


def test_single_alternative_draws_no_index():
    space = OneOf((Discrete(4),), seed=0)
    state = space.np_random.bit_generator.state
    assert space.sample()[0] == 0
    assert space.np_random.bit_generator.state == state


def test_index_is_drawn_before_the_mask_probability_check():
    """Quirk Q7 (docs/quirks.md): the ValueError comes after the index draw."""
    spaces = [lib.OneOf((lib.Discrete(2), lib.Discrete(3)), seed=0) for lib in (GS, GYM)]
    for space in spaces:
        with pytest.raises(ValueError, match="Only one of `mask` or `probability`"):
            space.sample(mask=(None, None), probability=(None, None))
    reference = np.random.default_rng(0)
    reference.integers(0, 2)
    assert_same_generator_state(spaces[0].np_random, reference)
    assert_same_tree_states(*spaces)


def test_only_the_chosen_entry_is_used():
    space = OneOf((Discrete(3), Box(0, 1)), seed=0)
    outcomes = set()
    for _ in range(30):
        # The Box entry would raise if it were read; the Discrete one restricts to 2.
        result = outcome(lambda: space.sample(mask=(np.array([0, 0, 1], np.int8), "box mask")))
        if result.raised:
            assert isinstance(result.error, Error)
            outcomes.add("box")
        else:
            assert result.value == (0, 2)
            outcomes.add("discrete")
    assert outcomes == {"box", "discrete"}


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"mask": [None, None]}, AssertionError),
        ({"mask": (None,)}, AssertionError),
        ({"probability": (None, None, None)}, AssertionError),
        ({"probability": np.ones(2)}, AssertionError),
        ({"mask": (np.zeros(2, np.int8), np.ones(2, np.int8))}, None),
    ],
)
def test_bad_masks_match_gymnasium(kwargs, error):
    for seed in range(6):
        spaces = [lib.OneOf((lib.Discrete(2), lib.Box(0, 1, (2,))), seed=seed) for lib in (GS, GYM)]
        results = [outcome(lambda s=s: s.sample(**kwargs)) for s in spaces]
        if error is not None:
            assert isinstance(results[0].error, error)
        assert_same_outcome(*results, same_warnings=False)
        assert_same_tree_states(*spaces)


def test_sample_streams_match_gymnasium():
    for seed in range(20):
        spaces = [lib.OneOf((lib.Text(3), lib.MultiDiscrete([3, 2]), lib.Sequence(lib.Discrete(2))),
                            seed=seed) for lib in (GS, GYM)]
        for _ in range(5):
            assert_same_value(spaces[0].sample(), spaces[1].sample())
        mask = (None, (np.array([1, 0, 1], np.int8), np.array([0, 1], np.int8)), (2, None))
        for _ in range(3):
            assert_same_value(spaces[0].sample(mask=mask), spaces[1].sample(mask=mask))
        assert_same_tree_states(*spaces)


# --------------------------------------------------------------------------- contains / jsonable


def test_contains():
    space = OneOf((Discrete(2), Text(3)))
    assert space.contains((0, 1)) and space.contains((np.int64(1), "ab"))
    assert not space.contains((np.int32(0), 1))  # other numpy ints are rejected
    assert not space.contains((2, 1)) and not space.contains((-1, 1))
    assert not space.contains((0, "ab")) and not space.contains([0, 1])
    assert not space.contains((0,)) and not space.contains((0, 1, 2))
    for x in [(0, 1), (np.int64(3), 1), (np.int16(0), 1), (True, "a"), (0.0, 1)]:
        assert_same_value(space.contains(x), GYM.OneOf((GYM.Discrete(2), GYM.Text(3))).contains(x))


def test_jsonable_round_trip():
    space = OneOf((Discrete(3), Box(0, 1, (2,))), seed=1)
    samples = [space.sample() for _ in range(5)]
    data = space.to_jsonable(samples)
    assert all(type(entry[0]) is int for entry in data)
    back = space.from_jsonable(data)
    for (i, value), (j, restored) in zip(samples, back):
        assert type(j) is np.int64 and i == j
        np.testing.assert_array_equal(value, restored)
