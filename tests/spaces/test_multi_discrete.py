"""MultiDiscrete: construction, attributes, indexing, repr, equality, contains, jsonable, pickling."""

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
    assert_same_generator_state,
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
from support.spaces_corpus import INT_DTYPES, MULTI_DISCRETE_RECIPES
from support.sample_streams import INT_DTYPE, SEEDS, random_probability
# Under the name the moved stream tests call it by: Hypothesis derives a test's
# examples from its body, which keeps them as they were in tests/parity.
from support.sample_streams import pair_or_same_error as _pair_or_same_error

CONSTRUCTOR_ERRORS = {
    "dtype-None": lambda lib: lib.MultiDiscrete([2, 3], dtype=None),
    "dtype-float": lambda lib: lib.MultiDiscrete([2, 3], dtype=np.float64),
    "dtype-bool": lambda lib: lib.MultiDiscrete([2, 3], dtype=bool),
    "dtype-str": lambda lib: lib.MultiDiscrete([2, 3], dtype=str),
    "dtype-junk": lambda lib: lib.MultiDiscrete([2, 3], dtype="junk"),
    "nvec-zero": lambda lib: lib.MultiDiscrete([2, 0]),
    "nvec-negative": lambda lib: lib.MultiDiscrete([-1, 3]),
    "nvec-0d-zero": lambda lib: lib.MultiDiscrete(0),
    "nvec-str": lambda lib: lib.MultiDiscrete(["a", "b"]),
    "nvec-ragged": lambda lib: lib.MultiDiscrete([[1, 2], [3]]),
    "nvec-None": lambda lib: lib.MultiDiscrete(None),
    "nvec-overflow-int8": lambda lib: lib.MultiDiscrete([300], dtype=np.int8),
    "nvec-overflow-uint64": lambda lib: lib.MultiDiscrete([2**64]),
    "nvec-negative-uint8": lambda lib: lib.MultiDiscrete([-2], dtype=np.uint8),
    "start-shape": lambda lib: lib.MultiDiscrete([2, 3], start=[0, 0, 0]),
    "start-0d-for-1d": lambda lib: lib.MultiDiscrete([2, 3], start=0),
    "start-overflow": lambda lib: lib.MultiDiscrete([2], start=[-200], dtype=np.int8),
    "start-str": lambda lib: lib.MultiDiscrete([2], start=["x"]),
    "nvec-nan": lambda lib: lib.MultiDiscrete([np.nan, 2.0]),
}


# Errors only where numpy rejects Python integers out of the dtype's range
# (numpy >= 2); older numpy wraps them, and Gymnasium builds the space.
OUT_OF_BOUND_INT_CASES = {"nvec-overflow-int8", "nvec-negative-uint8", "start-overflow"}


@pytest.mark.parametrize("name", CONSTRUCTOR_ERRORS)
def test_constructor_errors(name):
    gs_result, gym_result = both(lambda lib: _describe(CONSTRUCTOR_ERRORS[name](lib)))
    if name in OUT_OF_BOUND_INT_CASES and not REJECTS_OUT_OF_BOUND_PYTHON_INTS:
        assert not gym_result.raised, "numpy wraps the integer: Gymnasium builds the space"
    else:
        assert gym_result.raised, "the case is meant to be an error in Gymnasium"
    assert_same_outcome(gs_result, gym_result, same_message=True)


ODD_CONSTRUCTIONS = {
    "float-nvec": lambda lib: lib.MultiDiscrete([2.9, 3.1]),
    "tuple-nvec": lambda lib: lib.MultiDiscrete((4, 5)),
    "np-array-uint8": lambda lib: lib.MultiDiscrete(np.array([4, 5], np.uint8)),
    "dtype-string": lambda lib: lib.MultiDiscrete([4, 5], dtype="int16"),
    "empty": lambda lib: lib.MultiDiscrete([]),
    "bool-nvec": lambda lib: lib.MultiDiscrete([True, True]),
}


@pytest.mark.parametrize("call", ODD_CONSTRUCTIONS.values(), ids=ODD_CONSTRUCTIONS.keys())
def test_odd_constructions_match(call):
    gs_result, gym_result = both(lambda lib: _describe(call(lib)))
    assert_same_outcome(gs_result, gym_result, same_message=True)


def _describe(space):
    return (repr(space), space.nvec, space.start, space.shape, str(space.dtype))


@pytest.mark.parametrize("recipe", recipe_params(MULTI_DISCRETE_RECIPES))
def test_attributes_match_gymnasium(recipe):
    gs_space, gym_space = recipe.build(GS), recipe.build(GYM)
    assert_same_value(gs_space.nvec, gym_space.nvec, "nvec")
    assert_same_value(gs_space.start, gym_space.start, "start")
    assert gs_space.shape == gym_space.shape and gs_space.dtype == gym_space.dtype
    assert gs_space.is_np_flattenable is True


def test_nvec_and_start_are_copies():
    nvec, start = np.array([3, 4]), np.array([1, 1])
    space = GS.MultiDiscrete(nvec, start=start)
    nvec[0], start[0] = 99, 99
    assert space.nvec.tolist() == [3, 4] and space.start.tolist() == [1, 1]


@pytest.mark.parametrize("recipe", recipe_params(MULTI_DISCRETE_RECIPES))
def test_repr_matches_gymnasium(recipe):
    common_checks.check_repr(recipe)


def test_repr_examples():
    assert repr(GS.MultiDiscrete([5, 2, 2])) == "MultiDiscrete([5 2 2])"
    assert repr(GS.MultiDiscrete([2, 2], start=[10, 10])) == "MultiDiscrete([2 2], start=[10 10])"


EQUALITY_PAIRS = {
    "same": (lambda lib: lib.MultiDiscrete([2, 3]), lambda lib: lib.MultiDiscrete([2, 3]), True),
    "explicit-zero-start": (lambda lib: lib.MultiDiscrete([2, 3]), lambda lib: lib.MultiDiscrete([2, 3], start=[0, 0]), True),
    "start-differs": (lambda lib: lib.MultiDiscrete([2, 3]), lambda lib: lib.MultiDiscrete([2, 3], start=[0, 1]), False),
    "nvec-differs": (lambda lib: lib.MultiDiscrete([2, 3]), lambda lib: lib.MultiDiscrete([2, 4]), False),
    "dtype-differs": (lambda lib: lib.MultiDiscrete([2, 3]), lambda lib: lib.MultiDiscrete([2, 3], dtype=np.int32), False),
    "shape-differs": (lambda lib: lib.MultiDiscrete([2, 2]), lambda lib: lib.MultiDiscrete([[2, 2]]), False),
    "length-differs": (lambda lib: lib.MultiDiscrete([2, 2]), lambda lib: lib.MultiDiscrete([2, 2, 2]), False),
    "vs-discrete": (lambda lib: lib.MultiDiscrete(3), lambda lib: lib.Discrete(3), False),
}


@pytest.mark.parametrize("pair", EQUALITY_PAIRS.values(), ids=EQUALITY_PAIRS.keys())
def test_equality(pair):
    common_checks.check_equality(*pair)


@pytest.mark.parametrize("recipe", recipe_params(MULTI_DISCRETE_RECIPES[:6]))
def test_unhashable(recipe):
    common_checks.check_hashing(recipe)


# --------------------------------------------------------------------------- indexing

INDEXING_SPACES = {
    "1d": lambda lib: lib.MultiDiscrete([3, 5, 7], start=[0, -2, 4]),
    "2d": lambda lib: lib.MultiDiscrete([[2, 3], [4, 5]], start=[[1, 0], [0, -1]], dtype=np.int16),
    "3d": lambda lib: lib.MultiDiscrete(np.arange(1, 9).reshape(2, 2, 2)),
    "uint8": lambda lib: lib.MultiDiscrete([9, 4], dtype=np.uint8, start=[3, 3]),
}
INDICES = [0, 1, -1, slice(0, 2), slice(None), (0, 1), (1,), (slice(None), 0), np.int64(1), [0, 1], 5, (0, 0, 0), "a"]


@pytest.mark.parametrize("build", INDEXING_SPACES.values(), ids=INDEXING_SPACES.keys())
def test_getitem_matches_gymnasium(build):
    for index in INDICES:
        gs_space, gym_space = seeded_pair(build, 13)
        outcome(gs_space.sample)
        outcome(gym_space.sample)
        gs_result = outcome(lambda: gs_space[index])
        gym_result = outcome(lambda: gym_space[index])
        assert gs_result.raised == gym_result.raised, (index, gs_result.describe(), gym_result.describe())
        if gym_result.raised:
            assert type(gs_result.error) is type(gym_result.error), index
            continue
        gs_child, gym_child = gs_result.value, gym_result.value
        assert type(gs_child).__name__ == type(gym_child).__name__, index
        assert repr(gs_child) == repr(gym_child), index
        # Quirk Q28 (docs/quirks.md): the child continues from a copy of the parent's generator state.
        assert_same_state(gs_child, gym_child, f"child {index}")
        assert gs_child.np_random is not gs_space.np_random
        assert_same_stream(gs_child, gym_child, 3, f"child {index}")
        assert_same_stream(gs_space, gym_space, 2, f"parent after {index}")


def test_getitem_child_replays_parent_stream():
    parent = GS.MultiDiscrete([4, 4], seed=1)
    child = parent[0]
    assert child.np_random.bit_generator.state == parent.np_random.bit_generator.state
    assert type(child).__name__ == "Discrete" and child.n == 4


def test_getitem_of_unseeded_parent_seeds_it():
    parent = GS.MultiDiscrete([4, 4])
    child = parent[1]
    assert parent._np_random is not None
    assert child.np_random.bit_generator.state == parent.np_random.bit_generator.state


def test_len():
    for lib in (GS, GYM):
        assert len(lib.MultiDiscrete([2, 3, 4])) == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(GS.MultiDiscrete([2, 3])) == 2


def test_len_multi_dimensional_warns_like_gymnasium():
    gs_result, gym_result = both(lambda lib: len(lib.MultiDiscrete([[2, 3], [4, 5], [6, 7]])))
    assert gs_result.value == 3
    assert gym_result.warnings, "Gymnasium warns here"
    assert_same_outcome(gs_result, gym_result)
    with pytest.warns(UserWarning, match="Getting the length of a multi-dimensional MultiDiscrete space"):
        len(GS.MultiDiscrete(np.ones((2, 2, 2), int)))


def test_len_of_0d_nvec_raises_like_gymnasium():
    gs_result, gym_result = both(lambda lib: len(lib.MultiDiscrete(4)))
    assert gym_result.raised
    assert_same_outcome(gs_result, gym_result)


# --------------------------------------------------------------------------- contains

CONTAINS_SPACES = {
    "[3,2]": lambda lib: lib.MultiDiscrete([3, 2]),
    "[3,2]-start": lambda lib: lib.MultiDiscrete([3, 2], start=[-1, 5]),
    "int8": lambda lib: lib.MultiDiscrete([3, 2], dtype=np.int8),
    "uint8-wrap": lambda lib: lib.MultiDiscrete([10, 3], dtype=np.uint8, start=[250, 0]),
    "2d": lambda lib: lib.MultiDiscrete([[2, 2], [3, 3]]),
    "0d": lambda lib: lib.MultiDiscrete(4),
}

CONTAINS_INPUTS = {
    "list-ok": [1, 1],
    "list-out": [3, 1],
    "list-negative": [-1, 0],
    "tuple-ok": (0, 1),
    "int64-ok": np.array([1, 1]),
    "int8-ok": np.array([1, 1], np.int8),
    "uint8-ok": np.array([1, 1], np.uint8),
    "uint64-ok": np.array([1, 1], np.uint64),
    "float-ok": np.array([1.0, 1.0]),
    "bool-ok": np.array([True, False]),
    "start-shifted": np.array([0, 5]),
    "start-shifted-list": [1, 6],
    "wrong-shape": np.array([1, 1, 1]),
    "2d-ok": np.array([[1, 1], [2, 2]]),
    "2d-list": [[1, 1], [2, 2]],
    "0d-int": np.array(2),
    "python-int": 2,
    "np-int": np.int64(2),
    "u8-250": np.array([250, 0], np.uint8),
    "u8-3": np.array([3, 2], np.uint8),
    "str": "11",
    "None": None,
    "ragged": [[1], [1, 2]],
}
for _dtype in [np.float32, np.float64, np.int8, np.uint8, np.int16, np.int64, np.uint64, np.bool_]:
    CONTAINS_INPUTS[f"np-scalar-{np.dtype(_dtype).name}"] = np.dtype(_dtype).type(1)
    CONTAINS_INPUTS[f"0d-{np.dtype(_dtype).name}"] = np.array(1, dtype=_dtype)
    CONTAINS_INPUTS[f"pair-{np.dtype(_dtype).name}"] = np.array([1, 0], dtype=_dtype)
    CONTAINS_INPUTS[f"triple-{np.dtype(_dtype).name}"] = np.array([1, 0, 1], dtype=_dtype)


@pytest.mark.parametrize("build", CONTAINS_SPACES.values(), ids=CONTAINS_SPACES.keys())
def test_contains_matches_gymnasium(build):
    common_checks.check_contains(build, CONTAINS_INPUTS)


def test_contains_list_needs_safe_cast():
    """Quirk Q18 (docs/quirks.md): a Python list (int64) is rejected by narrower dtypes."""
    for dtype in INT_DTYPES:
        gs_space, gym_space = GS.MultiDiscrete([3, 3], dtype=dtype), GYM.MultiDiscrete([3, 3], dtype=dtype)
        assert_same_value(gs_space.contains([1, 1]), gym_space.contains([1, 1]), np.dtype(dtype).name)
        assert gs_space.contains(np.array([1, 1], dtype=dtype)) is True


# --------------------------------------------------------------------------- jsonable / pickle


@pytest.mark.parametrize("recipe", recipe_params(MULTI_DISCRETE_RECIPES))
def test_jsonable_round_trip(recipe):
    common_checks.check_jsonable(recipe)


@pytest.mark.parametrize("recipe", recipe_params(MULTI_DISCRETE_RECIPES))
def test_pickle_and_deepcopy_keep_stream(recipe):
    common_checks.check_pickle_and_deepcopy(recipe)


def test_copy_is_independent_and_shared_generators_stay_shared():
    common_checks.check_original_not_advanced_by_copy(MULTI_DISCRETE_RECIPES[0])
    common_checks.check_shared_generator_stays_shared(MULTI_DISCRETE_RECIPES[0])


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16])
def test_legacy_state_without_start(dtype):
    restored = []
    for lib in (GS, GYM):
        state = {"nvec": np.array([[2, 3], [4, 5]], dtype=dtype), "dtype": np.dtype(dtype),
                 "_shape": (2, 2), "_np_random": np.random.default_rng(1)}
        legacy = lib.MultiDiscrete.__new__(lib.MultiDiscrete)
        legacy.__setstate__(state)
        assert "start" not in state
        restored.append(legacy)
    assert_same_value(restored[0].start, restored[1].start)
    assert restored[0] == GS.MultiDiscrete([[2, 3], [4, 5]], dtype=dtype)
    assert_same_stream(restored[0], restored[1], 3, "legacy")


# --------------------------------------------------------------------------- sampling specifics


def test_seed_pinned_values():
    assert GS.MultiDiscrete([5, 2, 7], seed=0).sample().tolist() == [3, 0, 0]
    assert GS.MultiDiscrete([[1, 2], [3, 4]], seed=42).sample().tolist() == [[0, 0], [2, 2]]


def test_0d_nvec_sample_type_matches_gymnasium():
    gs_sample, gym_sample = GS.MultiDiscrete(5, seed=0).sample(), GYM.MultiDiscrete(5, seed=0).sample()
    assert_same_value(gs_sample, gym_sample)


def test_mask_leaf_with_nothing_allowed_gives_start_without_drawing():
    for lib in (GS, GYM):
        space = lib.MultiDiscrete([3, 3], start=[5, -5], seed=0)
        state = space.np_random.bit_generator.state
        result = space.sample(mask=(np.zeros(3, np.int8), np.array([0, 1, 0], np.int8)))
        assert result.tolist() == [5, -4]
        assert space.np_random.bit_generator.state == state


def test_attribute_reassignment_is_honoured():
    gs_space, gym_space = seeded_pair(lambda lib: lib.MultiDiscrete([3, 4]), 6)
    for space in (gs_space, gym_space):
        space.nvec = np.array([100, 2])
        space.start[1] = 7
    assert_same_stream(gs_space, gym_space, 4, "after reassignment")


# nvec/start reassigned with another dtype: Gymnasium's arithmetic uses them as they are.
REASSIGNED = {
    "float-nvec": (lambda lib: lib.MultiDiscrete([3, 4]), {"nvec": lambda: np.array([3.5, 10.2])}),
    "int64-nvec-on-int8": (lambda lib: lib.MultiDiscrete([3, 4], dtype=np.int8), {"nvec": lambda: np.array([300, 4])}),
    "int64-start-on-int8": (lambda lib: lib.MultiDiscrete([3, 4], dtype=np.int8), {"start": lambda: np.array([1000, 4])}),
    "int32-nvec-on-int64": (lambda lib: lib.MultiDiscrete([3, 4]), {"nvec": lambda: np.array([300000, 4], np.int32)}),
    "list-start": (lambda lib: lib.MultiDiscrete([3, 4]), {"start": lambda: [1, 2]}),
}


@pytest.mark.parametrize("build,attrs", REASSIGNED.values(), ids=REASSIGNED.keys())
def test_reassigned_attributes_of_another_dtype(build, attrs):
    gs_space, gym_space = seeded_pair(build, 0)
    for space in (gs_space, gym_space):
        for name, make in attrs.items():
            setattr(space, name, make())
    assert_same_stream(gs_space, gym_space, 20, "reassigned")


@pytest.mark.parametrize("build, mask", [
    (lambda L: L.MultiDiscrete([5, 2, 2]), lambda: (np.array([1, 0, 1, 0, 1], np.int8), np.array([1, 1], np.int8), np.array([0, 1], np.int8))),
    (lambda L: L.MultiDiscrete([3, 4], dtype=np.int8, start=[-128, 120]), lambda: (np.array([1, 1, 1], np.int8), np.array([0, 0, 1, 1], np.int8))),
    (lambda L: L.MultiDiscrete([3, 9], dtype=np.int8, start=[0, 120]), lambda: (np.array([1, 1, 1], np.int8), np.ones(9, np.int8))),
    (lambda L: L.MultiDiscrete([6, 2], dtype=np.uint8, start=[250, 0]), lambda: (np.ones(6, np.int8), np.array([0, 0], np.int8))),
    (lambda L: L.MultiDiscrete([4, 4], dtype=np.uint32, start=[2**32 - 4, 0]), lambda: (np.ones(4, np.int8), np.ones(4, np.int8))),
    (lambda L: L.MultiDiscrete([4, 4], dtype=np.uint64), lambda: (np.ones(4, np.int8), np.ones(4, np.int8))),
    (lambda L: L.MultiDiscrete([4, 3], dtype=np.int16), lambda: (np.ones(4, np.int8)[::-1], np.zeros(3, np.int8))),
    (lambda L: L.MultiDiscrete([4, 3]), lambda: (np.array([1, 0, 2, 1], np.int8), np.zeros(3, np.int8))),
    (lambda L: L.MultiDiscrete([4, 3]), lambda: (np.ones(4, np.int8), np.array([1, 0, 5], np.int8))),
    (lambda L: L.MultiDiscrete([4, 3]), lambda: (np.ones(4, np.int8), np.ones(3, np.int16))),
    (lambda L: L.MultiDiscrete([4, 3]), lambda: (np.ones(4, np.int8), np.ones(2, np.int8))),
    (lambda L: L.MultiDiscrete([4, 3]), lambda: (np.ones(4, np.int8),)),
    (lambda L: L.MultiDiscrete([4, 3]), lambda: (np.ones(4, np.int8), [1, 1, 1])),
    (lambda L: L.MultiDiscrete([[2, 3], [4, 5]]), lambda: ((np.ones(2, np.int8), np.ones(3, np.int8)), (np.ones(4, np.int8), np.ones(5, np.int8)))),
])
def test_flat_masked_fast_path_matches_gymnasium(build, mask):
    """Tuple-of-int8 masks of 1-D spaces take a compiled path: same values, errors and stream."""
    spaces = [build(lib) for lib in (GS, GYM)]
    for space in spaces:
        space.seed(8)
    for _ in range(4):
        results = [outcome(lambda s=s: s.sample(mask=mask())) for s in spaces]
        assert_same_outcome(*results, "masked sample")
    assert_same_generator_state(spaces[0].np_random, spaces[1].np_random)


# Every integer dtype by type code: numpy gives one width two type codes
# (``l``/``q`` for int64 on Linux, ``i``/``l`` for int32 on Windows). The
# kernels dispatch on kind and width, so each code samples, checks and
# flattens as Gymnasium does.
INTEGER_TYPECODES = sorted(set(np.typecodes["AllInteger"]))


@pytest.mark.parametrize("code", INTEGER_TYPECODES)
def test_every_integer_dtype_samples_checks_and_flattens_as_gymnasium(code):
    import gymnasium.spaces.utils as gym_utils

    import gymspaces.utils as gs_utils

    start = [0, 1, 0] if np.dtype(code).kind == "u" else [-1, 2, 0]
    gs_space, gym_space = seeded_pair(lambda lib: lib.MultiDiscrete([3, 2, 4], dtype=code, start=start), 5)
    assert_same_stream(gs_space, gym_space, 3, code)
    mask = (np.array([1, 0, 1], np.int8), np.array([0, 1], np.int8), np.array([1, 1, 1, 1], np.int8))
    assert_same_stream(gs_space, gym_space, 3, code, mask=mask)
    candidates = [np.array(start, dtype=code), np.array([2, 3, 3], dtype=code), np.array([1, 1, 1], dtype=bool),
                  np.array(start, dtype=np.int8)]
    for x in candidates:
        assert_same_outcome(outcome(lambda: gs_space.contains(x)), outcome(lambda: gym_space.contains(x)), code)
    rows = np.stack(candidates[:2])
    assert_same_value(gs_space.contains_batch(rows), np.array([gym_space.contains(row) for row in rows]), code)
    assert_same_value(gs_space.sample_batch(2), np.stack([gym_space.sample() for _ in range(2)]), code)
    assert_same_state(gs_space, gym_space, code)
    x = np.array(start, dtype=code)
    assert gs_space.to_jsonable([x]) == gym_space.to_jsonable([x])
    # (uint64: Gymnasium's int32 offsets + uint64 values index with floats and raise)
    flat = outcome(lambda: gym_utils.flatten(gym_space, x))
    assert_same_outcome(outcome(lambda: gs_utils.flatten(gs_space, x)), flat, code)
    if not flat.raised:
        assert_same_value(gs_utils.unflatten(gs_space, flat.value), gym_utils.unflatten(gym_space, flat.value), code)
        assert_same_value(gs_utils.flatten_batch(gs_space, rows[:1]), flat.value[None, :], code)


# --------------------------------------------------------------------------- mask and probability streams


def _nested(nvec: np.ndarray, leaf):
    if nvec.ndim == 0:
        return leaf(int(nvec))
    return tuple(_nested(sub, leaf) for sub in nvec)


def _multi_discrete_mask_leaf(rng: np.random.Generator):
    def leaf(n: int) -> np.ndarray:
        choice = rng.integers(5)
        if choice == 0:
            return np.zeros(n, dtype=np.int8)
        if choice == 1:
            mask = np.zeros(n, dtype=np.int8)
            mask[rng.integers(n)] = 1
            return mask
        if choice == 2:
            return (rng.random(2 * n) < 0.5).astype(np.int8)[1::2]
        return (rng.random(n) < 0.5).astype(np.int8)

    return leaf


def _multi_discrete_probability_leaf(rng: np.random.Generator):
    def leaf(n: int) -> np.ndarray:
        choice = rng.integers(4)
        if choice == 0:
            p = np.zeros(n)
            p[rng.integers(n)] = 1.0
            return p
        if choice == 1:
            return np.full(n, 1.0 / n)
        return random_probability(rng, n, 0.4)

    return leaf


MULTI_DISCRETE_MASK_SPACES = {
    "[5,2,7]": lambda lib, **kw: lib.MultiDiscrete([5, 2, 7], **kw),
    "[1]": lambda lib, **kw: lib.MultiDiscrete([1], **kw),
    "[3,4]-int8-start": lambda lib, **kw: lib.MultiDiscrete([3, 4], dtype=np.int8, start=[-1, 5], **kw),
    "2d-start": lambda lib, **kw: lib.MultiDiscrete([[2, 3], [4, 1]], start=[[0, 1], [-2, 7]], **kw),
    "3d": lambda lib, **kw: lib.MultiDiscrete(np.full((2, 2, 2), 3), **kw),
    "uint8-start": lambda lib, **kw: lib.MultiDiscrete([6, 9, 2], dtype=np.uint8, start=[10, 0, 200], **kw),
    "[40,33]": lambda lib, **kw: lib.MultiDiscrete([40, 33], **kw),
    "uint64-big-start": lambda lib, **kw: lib.MultiDiscrete(
        [3, 4], dtype=np.uint64, start=[2**63 + 5, 2**60 + 1], **kw),
}


@pytest.mark.parametrize(
    "build", MULTI_DISCRETE_MASK_SPACES.values(), ids=MULTI_DISCRETE_MASK_SPACES.keys()
)
def test_multi_discrete_mask_and_probability_streams(build):
    for seed in range(30):
        gs_space, gym_space = seeded_pair(build, seed)
        rng = np.random.default_rng(20_000 + seed)
        for draw in range(6):
            if draw % 2 == 0:
                kwargs = {"mask": _nested(gym_space.nvec, _multi_discrete_mask_leaf(rng))}
            else:
                kwargs = {"probability": _nested(gym_space.nvec, _multi_discrete_probability_leaf(rng))}
            assert_same_outcome(
                outcome(lambda: gs_space.sample(**kwargs)),
                outcome(lambda: gym_space.sample(**kwargs)),
                f"seed={seed} draw={draw} {kwargs}",
            )
        assert_same_state(gs_space, gym_space, f"seed={seed}")


# --------------------------------------------------------------------------- Hypothesis streams


@st.composite
def multi_discrete_args(draw):
    dtype = draw(INT_DTYPE)
    info = np.iinfo(dtype)
    shape = draw(st.lists(st.integers(0, 3), min_size=0, max_size=2).map(tuple))
    size = int(np.prod(shape))
    small = draw(st.booleans())
    top = min(int(info.max), 6 if small else int(info.max))
    nvec = [draw(st.integers(1, top)) for _ in range(size)]
    start = None
    if draw(st.booleans()):
        start = [draw(st.integers(int(info.min), int(info.max) - v + 1)) for v in nvec]
    nvec = np.array(nvec, dtype=dtype).reshape(shape)
    if start is not None:
        start = np.array(start, dtype=dtype).reshape(shape)
    return nvec, start, dtype


@settings(max_examples=300)
@given(args=multi_discrete_args(), seed=SEEDS, mask_seed=st.integers(0, 2**32))
def test_hypothesis_multi_discrete_streams(args, seed, mask_seed):
    nvec, start, dtype = args
    gs_space, gym_space = _pair_or_same_error(
        lambda lib: lib.MultiDiscrete(nvec, dtype=dtype, start=start))
    if gym_space is None:
        return
    gs_space.seed(seed)
    gym_space.seed(seed)
    assert_same_stream(gs_space, gym_space, 3, f"{gym_space!r}")
    if nvec.ndim >= 1 and nvec.size and int(nvec.max()) <= 64:
        rng = np.random.default_rng(mask_seed)
        for kwargs in (
            {"mask": _nested(nvec, _multi_discrete_mask_leaf(rng))},
            {"probability": _nested(nvec, _multi_discrete_probability_leaf(rng))},
        ):
            assert_same_outcome(
                outcome(lambda: gs_space.sample(**kwargs)),
                outcome(lambda: gym_space.sample(**kwargs)),
                f"{gym_space!r} {kwargs}",
            )
        assert_same_state(gs_space, gym_space, repr(gym_space))
