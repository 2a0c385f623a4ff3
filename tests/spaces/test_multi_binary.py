"""MultiBinary: construction, attributes, repr, equality, contains, jsonable, pickling, sampling."""

from __future__ import annotations

import numpy as np
import pytest

from support import common_checks
from support.differential import (
    GS,
    GYM,
    LIBS,
    assert_same_outcome,
    assert_same_state,
    assert_same_value,
    both,
    outcome,
    seeded_pair,
)
from support.recipes import recipe_params
from support.spaces_corpus import MULTI_BINARY_RECIPES

CONSTRUCTOR_ERRORS = {
    "np-int64": lambda lib: lib.MultiBinary(np.int64(5)),  # quirk Q17 (docs/quirks.md)
    "np-int32": lambda lib: lib.MultiBinary(np.int32(5)),
    "float": lambda lib: lib.MultiBinary(5.0),
    "None": lambda lib: lib.MultiBinary(None),
    "zero": lambda lib: lib.MultiBinary(0),
    "negative": lambda lib: lib.MultiBinary(-3),
    "False": lambda lib: lib.MultiBinary(False),
    "seq-with-zero": lambda lib: lib.MultiBinary([2, 0]),
    "seq-negative": lambda lib: lib.MultiBinary((3, -1)),
    "array-with-zero": lambda lib: lib.MultiBinary(np.array([0, 2])),
    "str": lambda lib: lib.MultiBinary("ab"),
    "set": lambda lib: lib.MultiBinary({2, 3}),
    "seq-of-None": lambda lib: lib.MultiBinary([None]),
}


@pytest.mark.parametrize("call", CONSTRUCTOR_ERRORS.values(), ids=CONSTRUCTOR_ERRORS.keys())
def test_constructor_errors(call):
    gs_result, gym_result = both(call)
    assert gym_result.raised, "the case is meant to be an error in Gymnasium"
    assert_same_outcome(gs_result, gym_result, same_message=True)


ODD_CONSTRUCTIONS = {
    "True": lambda lib: lib.MultiBinary(True),
    "empty-list": lambda lib: lib.MultiBinary([]),
    "str-digits": lambda lib: lib.MultiBinary("23"),
    "float-seq": lambda lib: lib.MultiBinary([2.7, 3.1]),
    "np-int-seq": lambda lib: lib.MultiBinary([np.int64(2), np.uint8(3)]),
    "range": lambda lib: lib.MultiBinary(range(1, 3)),
    "2d-array": lambda lib: lib.MultiBinary(np.array([[2, 3]])),
}


@pytest.mark.parametrize("call", ODD_CONSTRUCTIONS.values(), ids=ODD_CONSTRUCTIONS.keys())
def test_odd_constructions_match(call):
    gs_result, gym_result = both(lambda lib: _describe(call(lib)))
    assert_same_outcome(gs_result, gym_result, same_message=True)


def _describe(space):
    return (repr(space), space.n, space.shape, str(space.dtype))


@pytest.mark.parametrize("recipe", recipe_params(MULTI_BINARY_RECIPES))
def test_attributes_match_gymnasium(recipe):
    gs_space, gym_space = recipe.build(GS), recipe.build(GYM)
    assert_same_value(gs_space.n, gym_space.n, "n")
    assert gs_space.shape == gym_space.shape and all(type(d) is int for d in gs_space.shape)
    assert gs_space.dtype == np.dtype(np.int8)
    assert gs_space.is_np_flattenable is True


@pytest.mark.parametrize("recipe", recipe_params(MULTI_BINARY_RECIPES))
def test_repr_matches_gymnasium(recipe):
    common_checks.check_repr(recipe)


EQUALITY_PAIRS = {
    "int-vs-list": (lambda lib: lib.MultiBinary(5), lambda lib: lib.MultiBinary([5]), False),  # quirk Q17 (docs/quirks.md)
    "list-vs-tuple": (lambda lib: lib.MultiBinary([2, 3]), lambda lib: lib.MultiBinary((2, 3)), True),
    "tuple-vs-array": (lambda lib: lib.MultiBinary((2, 3)), lambda lib: lib.MultiBinary(np.array([2, 3])), True),
    "same-int": (lambda lib: lib.MultiBinary(4), lambda lib: lib.MultiBinary(4), True),
    "different": (lambda lib: lib.MultiBinary(4), lambda lib: lib.MultiBinary(5), False),
    "transposed": (lambda lib: lib.MultiBinary((2, 3)), lambda lib: lib.MultiBinary((3, 2)), False),
    "vs-multidiscrete": (lambda lib: lib.MultiBinary(2), lambda lib: lib.MultiDiscrete([2, 2]), False),
}


@pytest.mark.parametrize("pair", EQUALITY_PAIRS.values(), ids=EQUALITY_PAIRS.keys())
def test_equality(pair):
    common_checks.check_equality(*pair)


@pytest.mark.parametrize("recipe", recipe_params(MULTI_BINARY_RECIPES[:5]))
def test_unhashable(recipe):
    common_checks.check_hashing(recipe)


CONTAINS_SPACES = {
    "3": lambda lib: lib.MultiBinary(3),
    "(2,2)": lambda lib: lib.MultiBinary((2, 2)),
    "1": lambda lib: lib.MultiBinary(1),
}

CONTAINS_INPUTS = {
    "int8-ok": np.array([0, 1, 1], np.int8),
    "int64-ok": np.array([0, 1, 1]),
    "float-ok": np.array([0.0, 1.0, 1.0]),
    "bool-ok": np.array([False, True, True]),
    "value-2": np.array([0, 2, 1], np.int8),
    "value-half": np.array([0, 0.5, 1]),
    "negative": np.array([0, -1, 1]),
    "list-ok": [0, 1, 1],
    "tuple-ok": (1, 1, 0),
    "list-2": [0, 2, 1],
    "2x2-ok": np.array([[0, 1], [1, 0]]),
    "2x2-list": [[0, 1], [1, 0]],
    "1-elem": np.array([1]),
    "0d": np.array(1),
    "python-int": 1,
    "str": "011",
    "str-1": "1",
    "None": None,
    "nan": np.array([np.nan, 0, 1]),
    "ragged": [[0, 1], [1]],
    "dict": {"a": 1},
}
for _dtype in [np.float32, np.float64, np.int8, np.uint8, np.int16, np.int64, np.uint64, np.bool_]:
    CONTAINS_INPUTS[f"np-scalar-{np.dtype(_dtype).name}"] = np.dtype(_dtype).type(1)
    CONTAINS_INPUTS[f"0d-{np.dtype(_dtype).name}"] = np.array(1, dtype=_dtype)
    CONTAINS_INPUTS[f"pair-{np.dtype(_dtype).name}"] = np.array([1, 0], dtype=_dtype)
    CONTAINS_INPUTS[f"triple-{np.dtype(_dtype).name}"] = np.array([1, 0, 1], dtype=_dtype)


@pytest.mark.parametrize("build", CONTAINS_SPACES.values(), ids=CONTAINS_SPACES.keys())
def test_contains_matches_gymnasium(build):
    common_checks.check_contains(build, CONTAINS_INPUTS)


@pytest.mark.parametrize("recipe", recipe_params(MULTI_BINARY_RECIPES))
def test_jsonable_round_trip(recipe):
    common_checks.check_jsonable(recipe)


@pytest.mark.parametrize("recipe", recipe_params(MULTI_BINARY_RECIPES))
def test_pickle_and_deepcopy_keep_stream(recipe):
    common_checks.check_pickle_and_deepcopy(recipe)


def test_copy_is_independent_and_shared_generators_stay_shared():
    common_checks.check_original_not_advanced_by_copy(MULTI_BINARY_RECIPES[3])
    common_checks.check_shared_generator_stays_shared(MULTI_BINARY_RECIPES[3])


def test_seed_pinned_values():
    assert GS.MultiBinary(10, seed=0).sample().tolist() == [0, 1, 1, 1, 1, 1, 0, 1, 0, 1]
    assert GS.MultiBinary(5, seed=42).sample().tolist() == [1, 0, 1, 0, 1]


def test_sample_is_int8_of_shape():
    for recipe in MULTI_BINARY_RECIPES:
        space = recipe.build(GS, seed=0)
        sample = space.sample()
        assert type(sample) is np.ndarray and sample.dtype == np.int8 and sample.shape == space.shape
        assert set(np.unique(sample).tolist()) <= {0, 1}


def test_mask_fixes_entries_and_consumes_like_plain_sampling():
    plain, masked = GS.MultiBinary(6, seed=7), GS.MultiBinary(6, seed=7)
    drawn = plain.sample()
    mask = np.array([0, 1, 2, 2, 0, 1], np.int8)
    result = masked.sample(mask=mask)
    assert result.tolist() == [0, 1, int(drawn[2]), int(drawn[3]), 0, 1]
    assert plain.np_random.bit_generator.state == masked.np_random.bit_generator.state


def test_probability_extremes():
    space = GS.MultiBinary(5, seed=1)
    assert space.sample(probability=np.ones(5)).tolist() == [1] * 5
    assert space.sample(probability=np.zeros(5)).tolist() == [0] * 5


# --------------------------------------------------------------------------- mask and probability streams


MULTI_BINARY_SHAPES = [1, 3, 4, 5, 8, 13, (2, 3), (3, 2, 2)]


@pytest.mark.parametrize("n", MULTI_BINARY_SHAPES, ids=str)
def test_multi_binary_mask_and_probability_streams(n):
    for seed in range(30):
        gs_space, gym_space = seeded_pair(lambda lib: lib.MultiBinary(n), seed)
        shape = gym_space.shape
        rng = np.random.default_rng(30_000 + seed)
        variants = [
            lambda: {"mask": rng.integers(0, 3, size=shape).astype(np.int8)},
            lambda: {"mask": np.full(shape, 2, dtype=np.int8)},
            lambda: {"mask": np.zeros(shape, dtype=np.int8)},
            lambda: {"mask": np.asfortranarray(rng.integers(0, 3, size=shape).astype(np.int8))},
            lambda: {"probability": rng.random(shape)},
            lambda: {"probability": rng.choice([0.0, 1.0, 0.5, 0.25], size=shape)},
            lambda: {"probability": np.zeros(shape)},
            lambda: {"probability": np.asfortranarray(rng.random(shape))},
        ]
        for draw, variant in enumerate(variants):
            kwargs = variant()
            assert_same_outcome(
                outcome(lambda: gs_space.sample(**kwargs)),
                outcome(lambda: gym_space.sample(**kwargs)),
                f"seed={seed} draw={draw} {kwargs}",
            )
        assert_same_state(gs_space, gym_space, f"seed={seed}")


def test_multi_binary_probability_compares_with_less_or_equal():
    """Quirk Q17 (docs/quirks.md): an entry is 1 when ``u <= p``; p equal to the uniform
    draw itself gives 1."""
    for lib in LIBS:
        uniforms = np.random.default_rng(0).random(6)
        assert lib.MultiBinary(6, seed=0).sample(probability=uniforms.copy()).tolist() == [1] * 6
        below = np.nextafter(uniforms, 0.0)
        assert lib.MultiBinary(6, seed=0).sample(probability=below).tolist() == [0] * 6
