"""Discrete: construction, attributes, repr, equality, contains, jsonable, pickling, sampling."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import common_checks
from support.differential import (
    GS,
    GYM,
    LIBS,
    assert_same_outcome,
    assert_same_state,
    assert_same_stream,
    assert_same_value,
    both,
    outcome,
    seeded_pair,
)
from support.numpy_behaviour import REJECTS_OUT_OF_BOUND_PYTHON_INTS
from support.recipes import recipe_params
from support.spaces_corpus import DISCRETE_RECIPES, INT_DTYPES
from support.sample_streams import INT_DTYPE, SEEDS, random_probability
# Under the name the moved stream tests call it by: Hypothesis derives a test's
# examples from its body, which keeps them as they were in tests/parity.
from support.sample_streams import pair_or_same_error as _pair_or_same_error

CONSTRUCTOR_ERRORS = {
    "n-float": lambda lib: lib.Discrete(3.0),
    "n-np-float": lambda lib: lib.Discrete(np.float64(3)),
    "n-bool": lambda lib: lib.Discrete(True),
    "n-np-bool": lambda lib: lib.Discrete(np.bool_(True)),
    "n-str": lambda lib: lib.Discrete("3"),
    "n-None": lambda lib: lib.Discrete(None),
    "n-0": lambda lib: lib.Discrete(0),
    "n-negative": lambda lib: lib.Discrete(-4),
    "n-np-0": lambda lib: lib.Discrete(np.int64(0)),
    "n-0-with-bad-start": lambda lib: lib.Discrete(0, start=1.5),
    "start-float": lambda lib: lib.Discrete(3, start=1.0),
    "start-np-float": lambda lib: lib.Discrete(3, start=np.float32(1)),
    "start-None": lambda lib: lib.Discrete(3, start=None),
    "start-bool": lambda lib: lib.Discrete(3, start=False),
    "dtype-None": lambda lib: lib.Discrete(3, dtype=None),
    "dtype-float": lambda lib: lib.Discrete(3, dtype=np.float32),
    "dtype-bool": lambda lib: lib.Discrete(3, dtype=bool),
    "dtype-str": lambda lib: lib.Discrete(3, dtype=str),
    "dtype-junk": lambda lib: lib.Discrete(3, dtype="junk"),
    "n-too-big-int8": lambda lib: lib.Discrete(300, dtype=np.int8),
    "n-too-big-uint64": lambda lib: lib.Discrete(2**64, dtype=np.uint64),
    "n-too-big-int64": lambda lib: lib.Discrete(2**63),
    "start-negative-uint8": lambda lib: lib.Discrete(3, start=-1, dtype=np.uint8),
    "start-too-small-int16": lambda lib: lib.Discrete(3, start=-(2**15) - 1, dtype=np.int16),
    "start-too-big-int64": lambda lib: lib.Discrete(3, start=2**63),
}


def _describe(space):
    return (repr(space), space.n, space.start, str(space.dtype))


# Errors only where numpy rejects Python integers out of the dtype's range
# (numpy >= 2); older numpy wraps them, and Gymnasium builds the space.
OUT_OF_BOUND_INT_CASES = {"n-too-big-int8", "start-negative-uint8", "start-too-small-int16"}


@pytest.mark.parametrize("name", CONSTRUCTOR_ERRORS)
def test_constructor_errors(name):
    gs_result, gym_result = both(lambda lib: _describe(CONSTRUCTOR_ERRORS[name](lib)))
    if name in OUT_OF_BOUND_INT_CASES and not REJECTS_OUT_OF_BOUND_PYTHON_INTS:
        assert not gym_result.raised, "numpy wraps the integer: Gymnasium builds the space"
    else:
        assert gym_result.raised, "the case is meant to be an error in Gymnasium"
    assert_same_outcome(gs_result, gym_result, same_message=True)


@pytest.mark.parametrize("recipe", recipe_params(DISCRETE_RECIPES))
def test_attributes_match_gymnasium(recipe):
    gs_space, gym_space = recipe.build(GS), recipe.build(GYM)
    assert_same_value(gs_space.n, gym_space.n, "n")
    assert_same_value(gs_space.start, gym_space.start, "start")
    assert gs_space.dtype == gym_space.dtype and isinstance(gs_space.dtype, np.dtype)
    assert gs_space.shape == () and gym_space.shape == ()
    assert gs_space.is_np_flattenable is True
    assert gs_space._np_random is None


@pytest.mark.parametrize("dtype", INT_DTYPES + ["int16", np.dtype(np.uint32), int])
def test_dtype_forms(dtype):
    gs_space, gym_space = GS.Discrete(5, start=1, dtype=dtype), GYM.Discrete(5, start=1, dtype=dtype)
    assert gs_space.dtype == gym_space.dtype
    assert type(gs_space.n) is gs_space.dtype.type and type(gs_space.start) is gs_space.dtype.type
    assert repr(gs_space) == repr(gym_space)


@pytest.mark.parametrize("recipe", recipe_params(DISCRETE_RECIPES))
def test_repr_matches_gymnasium(recipe):
    common_checks.check_repr(recipe)


def test_repr_examples():
    assert repr(GS.Discrete(3)) == "Discrete(3)"
    assert repr(GS.Discrete(3, start=-1)) == "Discrete(3, start=-1)"
    assert repr(GS.Discrete(3, dtype=np.int8)) == "Discrete(3, dtype=int8)"
    assert repr(GS.Discrete(3, start=2, dtype=np.uint16)) == "Discrete(3, start=2, dtype=uint16)"


EQUALITY_PAIRS = {
    "same": (lambda lib: lib.Discrete(3), lambda lib: lib.Discrete(3), True),
    "np-int-n": (lambda lib: lib.Discrete(3), lambda lib: lib.Discrete(np.int8(3)), True),
    "explicit-start-0": (lambda lib: lib.Discrete(3), lambda lib: lib.Discrete(3, start=0), True),
    "n-differs": (lambda lib: lib.Discrete(3), lambda lib: lib.Discrete(4), False),
    "start-differs": (lambda lib: lib.Discrete(3), lambda lib: lib.Discrete(3, start=1), False),
    "dtype-differs": (lambda lib: lib.Discrete(3), lambda lib: lib.Discrete(3, dtype=np.int32), False),
    "vs-multidiscrete": (lambda lib: lib.Discrete(3), lambda lib: lib.MultiDiscrete(3), False),
    "vs-int": (lambda lib: lib.Discrete(3), lambda lib: 3, False),
    "different-seeds": (lambda lib: lib.Discrete(3, seed=1), lambda lib: lib.Discrete(3, seed=2), True),
}


@pytest.mark.parametrize("pair", EQUALITY_PAIRS.values(), ids=EQUALITY_PAIRS.keys())
def test_equality(pair):
    common_checks.check_equality(*pair)


@pytest.mark.parametrize("recipe", recipe_params(DISCRETE_RECIPES[:8]))
def test_unhashable(recipe):
    common_checks.check_hashing(recipe)


CONTAINS_SPACES = {
    "n=3": lambda lib: lib.Discrete(3),
    "n=3-start=-1": lambda lib: lib.Discrete(3, start=-1),
    "int8-start=100": lambda lib: lib.Discrete(20, start=100, dtype=np.int8),
    "uint8": lambda lib: lib.Discrete(3, dtype=np.uint8),
    "int32": lambda lib: lib.Discrete(3, dtype=np.int32),
    "uint64-big": lambda lib: lib.Discrete(5, start=2**64 - 5, dtype=np.uint64),
    "int64-n=2**40": lambda lib: lib.Discrete(2**40),
}


def _contains_inputs():
    inputs = {
        "int-0": 0, "int-1": 1, "int-2": 2, "int-3": 3, "int-neg": -1, "int-100": 100,
        "int-huge": 2**70, "int-neg-huge": -(2**70), "int-2**64-1": 2**64 - 1,
        "bool-True": True, "bool-False": False, "np-bool": np.bool_(True),
        "float-1": 1.0, "np-float": np.float64(1), "nan": float("nan"),
        "str": "1", "None": None, "list": [1], "tuple": (1,),
        "0d-int64": np.array(1), "0d-int8": np.array(1, np.int8), "0d-float": np.array(1.0),
        "1d-int64": np.array([1]), "0d-bool": np.array(True), "0d-uint64-big": np.array(2**64 - 2, np.uint64),
        "complex": 1 + 0j,
        # Python ints at the edges of every integer dtype (checked in C).
        "int-119": 119, "int-127": 127, "int-128": 128, "int-neg-128": -128, "int-neg-129": -129,
        "int-255": 255, "int-256": 256, "int-2**63-1": 2**63 - 1, "int-2**63": 2**63,
        "int-2**64-5": 2**64 - 5, "int-2**64": 2**64, "int-neg-2**63": -(2**63), "int-2**40-1": 2**40 - 1,
        "int-2**40": 2**40,
    }
    for dtype in INT_DTYPES:
        inputs[f"np-{np.dtype(dtype).name}-1"] = np.dtype(dtype).type(1)
        inputs[f"np-{np.dtype(dtype).name}-max"] = np.dtype(dtype).type(np.iinfo(dtype).max)
    return inputs


CONTAINS_INPUTS = _contains_inputs()


@pytest.mark.parametrize("build", CONTAINS_SPACES.values(), ids=CONTAINS_SPACES.keys())
def test_contains_matches_gymnasium(build):
    common_checks.check_contains(build, CONTAINS_INPUTS)


def test_contains_examples():
    """Quirks Q15/Q18 (docs/quirks.md): bools are accepted; numpy ints must cast safely to the dtype."""
    space = GS.Discrete(3, dtype=np.int32)
    assert True in space
    assert np.int16(1) in space
    assert np.int64(1) not in space
    assert 1.0 not in space
    assert np.array([1]) not in space


@pytest.mark.parametrize("recipe", recipe_params(DISCRETE_RECIPES))
def test_jsonable_round_trip(recipe):
    common_checks.check_jsonable(recipe)


def test_jsonable_types():
    space = GS.Discrete(5, dtype=np.int16)
    data = space.to_jsonable([np.int16(1), np.int16(4)])
    assert data == [1, 4] and all(type(v) is int for v in data)
    back = space.from_jsonable(data)
    assert all(type(v) is np.int16 for v in back)


@pytest.mark.parametrize("recipe", recipe_params(DISCRETE_RECIPES))
def test_pickle_and_deepcopy_keep_stream(recipe):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # wrapping recipes (quirk Q15, docs/quirks.md)
        common_checks.check_pickle_and_deepcopy(recipe)


def test_copy_is_independent_and_shared_generators_stay_shared():
    common_checks.check_original_not_advanced_by_copy(DISCRETE_RECIPES[2])
    common_checks.check_shared_generator_stays_shared(DISCRETE_RECIPES[2])


def test_legacy_state_without_start():
    restored = []
    for lib in (GS, GYM):
        space = lib.Discrete(4, seed=1)
        state = {"n": np.int64(4), "dtype": np.dtype(np.int64), "shape": (), "np_random": np.random.default_rng(3)}
        legacy = lib.Discrete.__new__(lib.Discrete)
        legacy.__setstate__(state)
        assert_same_value(legacy.start, np.int64(0))
        assert legacy == space
        assert "start" not in state  # the caller's state is not mutated
        restored.append(legacy)
    assert_same_stream(restored[0], restored[1], 4, "legacy")


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_sample_type_is_dtype_scalar(dtype):
    for n, start in [(1, 0), (2, 1), (7, 0), (int(np.iinfo(dtype).max), 0)]:
        sample = GS.Discrete(n, start=start, dtype=dtype, seed=0).sample()
        assert type(sample) is np.dtype(dtype).type
        assert start <= int(sample) < start + n


def test_seed_pinned_values():
    for seed, expected in enumerate([[8, 6, 5], [4, 5, 7], [8, 2, 1], [8, 0, 1], [7, 9, 8]]):
        space = GS.Discrete(10, seed=seed)
        assert [int(space.sample()) for _ in range(3)] == expected
    space = GS.Discrete(5, start=-2, dtype=np.int8, seed=0)
    assert [int(space.sample()) for _ in range(4)] == [-1, 2, -2, 2]


def test_n_equal_one_draws_nothing():
    for dtype in INT_DTYPES:
        space = GS.Discrete(1, start=3, dtype=dtype, seed=0)
        state = space.np_random.bit_generator.state
        assert space.sample() == 3
        assert space.np_random.bit_generator.state == state


def test_overflowing_start_wraps_with_runtime_warning():
    """Quirk Q15 (docs/quirks.md): start + n - 1 beyond the dtype wraps, with numpy's
    overflow warning, in both."""
    gs_space, gym_space = seeded_pair(lambda lib: lib.Discrete(100, start=100, dtype=np.int8), 0)
    for i in range(30):
        gs_result, gym_result = both(lambda lib: (gs_space if lib is GS else gym_space).sample())
        assert_same_outcome(gs_result, gym_result, f"draw {i}")  # values and warnings


def test_attribute_reassignment_is_honoured():
    gs_space, gym_space = seeded_pair(lambda lib: lib.Discrete(10), 4)
    assert_same_stream(gs_space, gym_space, 2)
    for space in (gs_space, gym_space):
        space.n = np.int64(1000)
        space.start = np.int64(-50)
    assert_same_stream(gs_space, gym_space, 4, "after reassignment")


# Attributes reassigned with values outside the dtype: Gymnasium's numpy arithmetic raises.
REASSIGNED = {
    "n-int64-too-big-for-int8": (lambda lib: lib.Discrete(5, dtype=np.int8), {"n": np.int64(300)}),
    "start-python-int-too-big-for-int8": (lambda lib: lib.Discrete(5, dtype=np.int8), {"start": 1000}),
    "n-python-int": (lambda lib: lib.Discrete(5, dtype=np.int8), {"n": 7}),
    "start-python-int": (lambda lib: lib.Discrete(5, dtype=np.int16), {"start": -300}),
}


@pytest.mark.parametrize("build,attrs", REASSIGNED.values(), ids=REASSIGNED.keys())
def test_reassigned_attributes_of_another_type(build, attrs):
    gs_space, gym_space = seeded_pair(build, 0)
    for space in (gs_space, gym_space):
        for name, value in attrs.items():
            setattr(space, name, value)
    assert_same_stream(gs_space, gym_space, 10, "reassigned")


# Every integer dtype by type code (see test_multi_discrete's sweep): samples,
# membership of batches of each code, one-hot flattening.
INTEGER_TYPECODES = sorted(set(np.typecodes["AllInteger"]))


@pytest.mark.parametrize("code", INTEGER_TYPECODES)
def test_every_integer_dtype_samples_checks_and_flattens_as_gymnasium(code):
    import gymnasium.spaces.utils as gym_utils

    import gymspaces.utils as gs_utils
    from support.differential import assert_same_state

    start = 0 if np.dtype(code).kind == "u" else -2
    gs_space, gym_space = seeded_pair(lambda lib: lib.Discrete(5, start=start, dtype=code), 3)
    assert_same_stream(gs_space, gym_space, 3, code)
    assert_same_value(gs_space.sample_batch(2), np.array([gym_space.sample() for _ in range(2)], dtype=code), code)
    assert_same_state(gs_space, gym_space, code)
    for batch_code in INTEGER_TYPECODES + ["?"]:
        batch = np.array([start, start + 4, start + 5]).astype(batch_code)
        assert_same_value(gs_space.contains_batch(batch), np.array([gym_space.contains(v) for v in batch]), code)
    value = np.dtype(code).type(start + 3)
    flat = gym_utils.flatten(gym_space, value)
    assert_same_value(gs_utils.flatten(gs_space, value), flat, code)
    assert_same_value(gs_utils.unflatten(gs_space, flat), gym_utils.unflatten(gym_space, flat), code)


# --------------------------------------------------------------------------- mask and probability streams


def _discrete_kwargs(rng: np.random.Generator, n: int, variant: int) -> dict:
    if variant == 0:
        return {"mask": np.zeros(n, dtype=np.int8)}
    if variant == 1:
        mask = np.zeros(n, dtype=np.int8)
        mask[rng.integers(n)] = 1
        return {"mask": mask}
    if variant == 2:
        return {"mask": (rng.random(n) < 0.5).astype(np.int8)}
    if variant == 3:
        return {"mask": np.ones(n, dtype=np.int8)}
    if variant == 4:  # a strided, read-only view
        mask = (rng.random(2 * n) < 0.6).astype(np.int8)[::2]
        mask.flags.writeable = False
        return {"mask": mask}
    if variant == 5:
        return {"probability": random_probability(rng, n, 0.3)}
    if variant == 6:
        probability = np.zeros(n)
        probability[rng.integers(n)] = 1.0
        return {"probability": probability}
    if variant == 7:
        return {"probability": np.full(n, 1.0 / n)}
    # A strided view (not contiguous) of a valid probability vector.
    buffer = np.full(2 * n, 7.0)
    buffer[::2] = random_probability(rng, n, 0.2)
    return {"probability": buffer[::2]}


DISCRETE_MASK_SPACES = {
    "n=1": lambda lib, **kw: lib.Discrete(1, **kw),
    "n=2": lambda lib, **kw: lib.Discrete(2, **kw),
    "n=10": lambda lib, **kw: lib.Discrete(10, **kw),
    "n=10-start=-3": lambda lib, **kw: lib.Discrete(10, start=-3, **kw),
    "n=7-start=5-int8": lambda lib, **kw: lib.Discrete(7, start=5, dtype=np.int8, **kw),
    "n=300-uint16": lambda lib, **kw: lib.Discrete(300, dtype=np.uint16, **kw),
    "n=1000": lambda lib, **kw: lib.Discrete(1000, **kw),
    "n=5-uint64-start=2**63": lambda lib, **kw: lib.Discrete(5, start=2**63, dtype=np.uint64, **kw),
    "n=100-int8-overflowing": lambda lib, **kw: lib.Discrete(100, start=100, dtype=np.int8, **kw),
    "n=6-int32-start=-2**31": lambda lib, **kw: lib.Discrete(6, start=-(2**31), dtype=np.int32, **kw),
}


@pytest.mark.parametrize("build", DISCRETE_MASK_SPACES.values(), ids=DISCRETE_MASK_SPACES.keys())
def test_discrete_mask_and_probability_streams(build):
    for seed in range(30):
        gs_space, gym_space = seeded_pair(build, seed)
        n = int(gym_space.n)
        rng = np.random.default_rng(10_000 + seed)
        for draw in range(9):
            kwargs = _discrete_kwargs(rng, n, (draw + seed) % 9)
            before = {k: v.copy() for k, v in kwargs.items()}
            assert_same_outcome(
                outcome(lambda: gs_space.sample(**kwargs)),
                outcome(lambda: gym_space.sample(**kwargs)),
                f"seed={seed} draw={draw} {kwargs}",
            )
            for key, value in kwargs.items():
                np.testing.assert_array_equal(value, before[key])
        assert_same_state(gs_space, gym_space, f"seed={seed}")


def test_discrete_mask_without_choice_consumes_nothing():
    """All-zero and single-entry masks return without drawing, in both libraries."""
    for lib in LIBS:
        space = lib.Discrete(6, start=4, seed=3)
        state = space.np_random.bit_generator.state
        assert space.sample(mask=np.zeros(6, dtype=np.int8)) == 4
        single = np.zeros(6, dtype=np.int8)
        single[2] = 1
        assert space.sample(mask=single) == 6
        assert space.np_random.bit_generator.state == state


# --------------------------------------------------------------------------- Hypothesis streams


@st.composite
def discrete_args(draw):
    """Mostly valid spaces of every dtype; sometimes out-of-range n/start (both must raise)."""
    dtype = draw(INT_DTYPE)
    info = np.iinfo(dtype)
    if draw(st.integers(0, 9)) == 0:
        n = draw(st.integers(-5, 2**64))
        start = draw(st.integers(-(2**63) - 2, 2**64))
    else:
        n = draw(st.one_of(st.integers(1, 70), st.integers(1, int(info.max))))
        start = draw(st.one_of(st.integers(-3, 3), st.integers(int(info.min), int(info.max))))
    return n, start, dtype


@settings(max_examples=300)
@given(args=discrete_args(), seed=SEEDS, mask_seed=st.integers(0, 2**32))
def test_hypothesis_discrete_streams(args, seed, mask_seed):
    n, start, dtype = args
    gs_space, gym_space = _pair_or_same_error(lambda lib: lib.Discrete(n, start=start, dtype=dtype))
    if gym_space is None:
        return
    gs_space.seed(seed)
    gym_space.seed(seed)
    assert_same_stream(gs_space, gym_space, 3, f"{gym_space!r}")
    if n <= 70:
        rng = np.random.default_rng(mask_seed)
        for variant in range(9):
            kwargs = _discrete_kwargs(rng, n, variant)
            assert_same_outcome(
                outcome(lambda: gs_space.sample(**kwargs)),
                outcome(lambda: gym_space.sample(**kwargs)),
                f"{gym_space!r} {kwargs}",
                same_warnings=False,
            )
        assert_same_state(gs_space, gym_space, repr(gym_space))
