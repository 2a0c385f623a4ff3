"""Checks shared by the per-space test modules (each module runs them on its own recipes)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from support.differential import (
    GS,
    GYM,
    assert_same_outcome,
    assert_same_state,
    assert_same_value,
    both,
    outcome,
    seeded_pair,
)


def check_equality(left, right, expected: bool) -> None:
    """``left(lib) == right(lib)`` is ``expected`` in both libraries, with the same result type,
    in both directions, and ``!=`` says the opposite."""
    gs_eq, gym_eq = left(GS) == right(GS), left(GYM) == right(GYM)
    assert bool(gs_eq) is bool(gym_eq) is expected
    assert type(gs_eq) is type(gym_eq)  # Gymnasium may return numpy bools here
    assert bool(right(GS) == left(GS)) is expected
    assert bool(left(GS) != right(GS)) is (not expected)


def check_contains(build, inputs: dict) -> None:
    """``contains`` and ``in`` of every input give Gymnasium's outcome (value, exception
    type, warnings), and a ``bool`` whenever they return."""
    gs_space, gym_space = build(GS), build(GYM)
    for name, value in inputs.items():
        gs_result, gym_result = both(lambda lib: (gs_space if lib is GS else gym_space).contains(value))
        assert_same_outcome(gs_result, gym_result, name)
        gs_in, gym_in = both(lambda lib: value in (gs_space if lib is GS else gym_space))
        assert_same_outcome(gs_in, gym_in, f"`in` {name}")
        if not gym_result.raised:
            assert type(gs_result.value) is bool, (name, type(gs_result.value))


def check_bad_seed(build, seed, error: type[BaseException]):
    """``build(lib).seed(seed)`` raises ``error`` in gymspaces, and Gymnasium's outcome (the
    exception type); the two outcomes, for more checks."""
    results = [outcome(lambda lib=lib: build(lib).seed(seed)) for lib in (GS, GYM)]
    assert isinstance(results[0].error, error)
    assert_same_outcome(*results, same_warnings=False)
    return results


def check_hashing(recipe) -> None:
    """Unhashable, as in Gymnasium, and equal to itself and to a rebuilt copy."""
    check_unhashable(recipe)
    check_equal_to_itself_and_rebuilt(recipe)


def check_repr(recipe) -> None:
    gs_space, gym_space = recipe.build(GS), recipe.build(GYM)
    assert repr(gs_space) == repr(gym_space)
    assert str(gs_space) == str(gym_space)


def check_equal_to_itself_and_rebuilt(recipe) -> None:
    a, b = recipe.build(GS, seed=1), recipe.build(GS, seed=2)
    assert a == a
    assert a == b and b == a
    assert not (a != b)
    assert a != object()
    assert (a == recipe.build(GYM)) is False  # a Gymnasium space is not a gymspaces space


def check_unhashable(recipe) -> None:
    for lib in (GS, GYM):
        with pytest.raises(TypeError):
            hash(recipe.build(lib))


def check_pickle_and_deepcopy(recipe) -> None:
    """Round trips keep equality and continue the same random stream as the original."""
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        original, reference = seeded_pair(recipe.build, 5 + protocol)
        outcome(original.sample)
        outcome(reference.sample)
        restored = pickle.loads(pickle.dumps(original, protocol=protocol))
        assert type(restored) is type(original)
        assert restored == original
        assert repr(restored) == repr(original)
        assert restored.np_random is not original.np_random
        assert_same_state(restored, reference, f"protocol {protocol}")
        for i in range(3):
            expected = outcome(reference.sample)
            assert_same_outcome(outcome(original.sample), expected, f"original {i}", same_warnings=False)
            assert_same_outcome(outcome(restored.sample), expected, f"restored {i}", same_warnings=False)

    original, reference = seeded_pair(recipe.build, 99)
    outcome(original.sample)
    outcome(reference.sample)
    duplicate = copy.deepcopy(original)
    assert duplicate == original and duplicate.np_random is not original.np_random
    for i in range(3):
        expected = outcome(reference.sample)
        assert_same_outcome(outcome(duplicate.sample), expected, f"deepcopy {i}", same_warnings=False)
    assert_same_state(duplicate, reference, "deepcopy")


def check_original_not_advanced_by_copy(recipe) -> None:
    original = recipe.build(GS, seed=3)
    state = original.np_random.bit_generator.state
    duplicate = copy.deepcopy(original)
    for _ in range(3):
        outcome(duplicate.sample)
    assert original.np_random.bit_generator.state == state


def check_shared_generator_stays_shared(recipe) -> None:
    generator = np.random.default_rng(0)
    a, b = recipe.build(GS, seed=generator), recipe.build(GS, seed=generator)
    for restored in (pickle.loads(pickle.dumps((a, b))), copy.deepcopy((a, b))):
        assert restored[0].np_random is restored[1].np_random
        assert restored[0].np_random is not generator


def check_jsonable(recipe) -> None:
    """``to_jsonable`` gives Gymnasium's output; ``from_jsonable`` gives back the samples."""
    gs_space, gym_space = seeded_pair(recipe.build, 3)
    gs_samples, gym_samples = [], []
    for _ in range(3):
        a, b = outcome(gs_space.sample), outcome(gym_space.sample)
        if b.raised:
            return
        gs_samples.append(a.value)
        gym_samples.append(b.value)
    gs_json, gym_json = both(lambda lib: (gs_space if lib is GS else gym_space).to_jsonable(
        gs_samples if lib is GS else gym_samples))
    assert_same_outcome(gs_json, gym_json, "to_jsonable")
    if gym_json.raised:
        return
    gs_back, gym_back = gs_space.from_jsonable(gs_json.value), gym_space.from_jsonable(gym_json.value)
    assert_same_value(gs_back, gym_back, "from_jsonable")
    for sample, restored in zip(gs_samples, gs_back):
        np.testing.assert_array_equal(np.asarray(restored), np.asarray(sample))
