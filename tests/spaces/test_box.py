"""Box: construction, attributes, repr, equality, contains, jsonable, pickling, masks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import common_checks
import gymspaces
import gymspaces.error
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
from support.recipes import recipe_params
from support.spaces_corpus import BOX_RECIPES, INT_DTYPES
from support.sample_streams import SEEDS
# Under the name the moved stream tests call it by: Hypothesis derives a test's
# examples from its body, which keeps them as they were in tests/parity.
from support.sample_streams import pair_or_same_error as _pair_or_same_error

inf, nan = np.inf, np.nan
i64 = np.iinfo(np.int64)

# --------------------------------------------------------------------------- construction errors

CONSTRUCTOR_ERRORS = {
    "dtype-None": lambda lib: lib.Box(0, 1, (2,), dtype=None),
    "dtype-str": lambda lib: lib.Box(0, 1, (2,), dtype=str),
    "dtype-object": lambda lib: lib.Box(0, 1, (2,), dtype=object),
    "dtype-complex": lambda lib: lib.Box(0, 1, (2,), dtype=np.complex64),
    "dtype-datetime": lambda lib: lib.Box(0, 1, (2,), dtype="M8[s]"),
    "dtype-junk": lambda lib: lib.Box(0, 1, (2,), dtype="not-a-dtype"),
    "shape-int": lambda lib: lib.Box(0, 1, 5),
    "shape-float-entry": lambda lib: lib.Box(0, 1, (2.0,)),
    "shape-str-entry": lambda lib: lib.Box(0, 1, ("2",)),
    "shape-None-entry": lambda lib: lib.Box(0, 1, (None, 2)),
    "array-shapes-differ": lambda lib: lib.Box(np.zeros(2), np.ones(3)),
    "lists-no-shape": lambda lib: lib.Box([0, 0], [1, 1]),
    "low-list-with-shape": lambda lib: lib.Box([0, 0], 1, (2,)),
    "high-list-with-shape": lambda lib: lib.Box(0, [1, 1], (2,)),
    "low-None": lambda lib: lib.Box(None, 1),
    "low-None-with-shape": lambda lib: lib.Box(None, 1, (2,)),
    "bool-scalars": lambda lib: lib.Box(False, True),
    "bool-scalar-with-shape": lambda lib: lib.Box(False, True, (2,), dtype=bool),
    "low-nan": lambda lib: lib.Box(nan, 1, (2,)),
    "high-nan": lambda lib: lib.Box(0, nan, (2,)),
    "low-nan-array": lambda lib: lib.Box(np.array([0.0, nan]), np.ones(2)),
    "high-nan-array": lambda lib: lib.Box(np.zeros(2), np.array([nan, 1.0])),
    "uint-low-neginf": lambda lib: lib.Box(-inf, 1, (2,), np.uint8),
    "uint-high-inf": lambda lib: lib.Box(0, inf, (2,), np.uint16),
    "bool-high-inf": lambda lib: lib.Box(0, inf, (2,), bool),
    "uint-low-neginf-array": lambda lib: lib.Box(np.array([-inf, 0.0]), np.ones(2), dtype=np.uint32),
    "uint-high-inf-array": lambda lib: lib.Box(np.zeros(2), np.array([1.0, inf]), dtype=np.uint64),
    "uint8-low-negative": lambda lib: lib.Box(-1, 5, (2,), np.uint8),
    "uint8-high-256": lambda lib: lib.Box(0, 256, (2,), np.uint8),
    "int8-low-129": lambda lib: lib.Box(-129, 0, (2,), np.int8),
    "float32-high-too-big": lambda lib: lib.Box(0, 1e39, (2,), np.float32),
    "float16-low-too-small": lambda lib: lib.Box(-1e6, 0, (2,), np.float16),
    "bool-high-2": lambda lib: lib.Box(0, 2, (2,), bool),
    "uint8-low-array-negative": lambda lib: lib.Box(np.array([-1, 0]), np.array([3, 3]), dtype=np.uint8),
    "uint8-high-array-too-big": lambda lib: lib.Box(np.array([0, 0]), np.array([3, 300]), dtype=np.uint8),
    "low-str-array": lambda lib: lib.Box(np.array(["a", "b"]), np.ones(2)),
    "high-complex-array": lambda lib: lib.Box(np.zeros(2), np.ones(2, np.complex128)),
    "low-object-array": lambda lib: lib.Box(np.array([0, 1], dtype=object), np.ones(2)),
    "low-shape-mismatch": lambda lib: lib.Box(np.zeros(3), 1, (2,)),
    "high-shape-mismatch": lambda lib: lib.Box(0, np.ones(3), (2,)),
    "low-above-high": lambda lib: lib.Box(1, 0, (2,)),
    "low-above-high-array": lambda lib: lib.Box(np.array([0.0, 2.0]), np.array([1.0, 1.0])),
}


@pytest.mark.parametrize("call", CONSTRUCTOR_ERRORS.values(), ids=CONSTRUCTOR_ERRORS.keys())
def test_constructor_errors(call):
    gs_result, gym_result = both(call)
    assert gym_result.raised, "the case is meant to be an error in Gymnasium"
    assert_same_outcome(gs_result, gym_result, same_message=True)


def test_an_infinite_int64_bound_is_cast_as_the_machine_casts_it():
    """numpy's cast of inf to int64 is the CPU's: x86-64 gives INT64_MIN (the high
    bound wraps below the low and Gymnasium refuses the Box), aarch64 saturates to
    INT64_MAX (Gymnasium builds it). gymspaces does what the installed Gymnasium
    does on the running machine, error or Box (repr, warnings) alike."""
    gs_result, gym_result = both(
        lambda lib: repr(lib.Box(np.array([0.0, 1.0]), np.array([inf, 2.0]), dtype=np.int64))
    )
    with np.errstate(invalid="ignore"):
        wraps = int(np.array([inf]).astype(np.int64)[0]) < 0
    assert gym_result.raised == wraps
    assert_same_outcome(gs_result, gym_result, same_message=True)


CONSTRUCTOR_WARNINGS = {
    "float64-array-to-float32": lambda lib: lib.Box(np.zeros(2), np.ones(2), dtype=np.float32),
    "float32-array-to-float16": lambda lib: lib.Box(np.zeros(2, np.float32), 1, dtype=np.float16),
    "float64-high-only": lambda lib: lib.Box(0, np.ones(2), dtype=np.float32),
    "float16-array-to-float32": lambda lib: lib.Box(np.zeros(2, np.float16), np.ones(2, np.float16)),
    "int-array-to-float32": lambda lib: lib.Box(np.zeros(2, np.int64), np.ones(2, np.int64)),
}


@pytest.mark.parametrize("call", CONSTRUCTOR_WARNINGS.values(), ids=CONSTRUCTOR_WARNINGS.keys())
def test_constructor_precision_warnings(call):
    gs_result, gym_result = both(lambda lib: repr(call(lib)))
    assert not gym_result.raised
    assert_same_outcome(gs_result, gym_result)  # warnings (text and category) included


def test_precision_warning_text():
    with pytest.warns(UserWarning) as record:
        GS.Box(np.zeros(2), np.ones(2), dtype=np.float32)
    messages = [str(w.message) for w in record]
    assert "\x1b[33mWARN: Box low's precision lowered by casting to float32, current low.dtype=float64\x1b[0m" in messages
    assert "\x1b[33mWARN: Box high's precision lowered by casting to float32, current high.dtype=float64\x1b[0m" in messages


@pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.float32])
def test_infinite_bounds_in_callers_array(dtype):
    """Quirk Q11 (docs/quirks.md): signed-int Boxes overwrite infinities in the caller's arrays, like Gymnasium."""
    results = []
    for lib in (GS, GYM):
        low, high = np.array([-inf, 1.0, -3.0]), np.array([5.0, inf, inf])
        lib.Box(low, high, dtype=dtype)
        results.append((low, high))
    assert_same_value(results[0], results[1])
    if np.dtype(dtype).kind == "i":
        assert results[0][0][0] == np.iinfo(dtype).min and results[0][1][1] == np.iinfo(dtype).max


@pytest.mark.parametrize(
    "low, high, dtype, expected",
    [
        (np.array([-inf, -300.0]), np.array([5.0, 5.0]), np.int8, ("low", [-128, -44])),
        (np.array([-5.0, -5.0]), np.array([inf, 300.0]), np.int8, ("high", [127, 44])),
        (np.array([-inf, -5.0]), np.array([5.0, 70000.0]), np.int16, ValueError),
    ],
    ids=["int8-low-wraps", "int8-high-wraps", "int16-high-without-inf-is-checked"],
)
def test_dtype_range_check_is_skipped_for_a_bound_holding_infinities(low, high, dtype, expected):
    """Quirk Q11 (docs/quirks.md): a bound holding an infinity is not range-checked, so its
    other out-of-range values wrap on the cast; a bound without one is still checked."""
    names = ("low", "high", "bounded_below", "bounded_above")

    def build(lib):
        box = lib.Box(low.copy(), high.copy(), dtype=dtype)
        return {name: getattr(box, name) for name in names}

    gs_result, gym_result = both(build)
    assert_same_outcome(gs_result, gym_result, same_message=True)
    if expected is ValueError:
        assert type(gs_result.error) is ValueError
    else:
        attribute, values = expected
        assert_same_value(gs_result.value[attribute], np.array(values, dtype=dtype))


# --------------------------------------------------------------------------- attributes


@pytest.mark.parametrize("recipe", recipe_params(BOX_RECIPES))
def test_attributes_match_gymnasium(recipe):
    gs_space, gym_space = recipe.build(GS), recipe.build(GYM)
    for name in ("low", "high", "bounded_below", "bounded_above"):
        assert_same_value(getattr(gs_space, name), getattr(gym_space, name), name)
    assert gs_space.shape == gym_space.shape and type(gs_space.shape) is tuple
    assert all(type(d) is int for d in gs_space.shape)
    assert gs_space.dtype == gym_space.dtype and isinstance(gs_space.dtype, np.dtype)
    for manner in ("both", "below", "above"):
        assert gs_space.is_bounded(manner) is gym_space.is_bounded(manner)
    assert gs_space.is_bounded() is gym_space.is_bounded()
    assert gs_space.is_np_flattenable is True
    assert gs_space.low_repr is None and gs_space.high_repr is None
    assert gs_space._np_random is None


@pytest.mark.parametrize("manner", ["", "BOTH", "left", None, 1])
def test_is_bounded_bad_manner(manner):
    gs_result, gym_result = both(lambda lib: lib.Box(0, 1, (2,)).is_bounded(manner))
    assert gym_result.raised
    assert_same_outcome(gs_result, gym_result, same_message=True)


@pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")
def test_shape_inference():
    assert GS.Box(0, 1).shape == (1,)
    assert GS.Box(np.float64(0), np.int32(1)).shape == (1,)
    assert GS.Box(np.array(0.0), np.array(1.0)).shape == ()
    assert GS.Box(np.zeros((2, 3)), 1).shape == (2, 3)
    assert GS.Box(0, np.ones((4,))).shape == (4,)
    shape = GS.Box(0, 1, (np.int64(2), np.uint8(3))).shape
    assert shape == (2, 3) and all(type(d) is int for d in shape)
    assert GS.Box(0, 1, [2, 3]).shape == (2, 3)


def test_bounds_are_copies():
    low = np.zeros(3, dtype=np.float32)
    box = GS.Box(low, 1.0)
    low[0] = -5
    assert box.low[0] == 0


def test_subscriptable_for_typing():
    assert GS.Box[np.float32] is not None


# --------------------------------------------------------------------------- repr / eq / hash


@pytest.mark.parametrize("recipe", recipe_params(BOX_RECIPES))
def test_repr_matches_gymnasium(recipe):
    common_checks.check_repr(recipe)


@pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")
def test_repr_examples():
    assert repr(GS.Box(-1.0, 2.0, (3, 4))) == "Box(-1.0, 2.0, (3, 4), float32)"
    assert repr(GS.Box(np.array([-1.0, -2.0]), np.array([2.0, 4.0]), dtype=np.float32)) == (
        "Box([-1. -2.], [2. 4.], (2,), float32)"
    )
    assert repr(GS.Box(0, 255, (2,), np.uint8)) == "Box(0, 255, (2,), uint8)"


def test_repr_is_cached_after_in_place_edit():
    """Quirk Q14 (docs/quirks.md): the bounds text is computed once; later in-place edits do
    not show."""
    reprs = []
    for lib in (GS, GYM):
        box = lib.Box(0.0, 1.0, (2,))
        first = repr(box)
        box.low[0] = -1.0
        reprs.append((first, repr(box), box.low_repr, box.high_repr))
    assert reprs[0] == reprs[1]
    assert reprs[0][0] == reprs[0][1]


EQUALITY_PAIRS = {
    "identical": (lambda lib: lib.Box(0, 1, (2,)), lambda lib: lib.Box(0, 1, (2,)), True),
    "within-allclose": (lambda lib: lib.Box(0, 1, (2,), np.float64), lambda lib: lib.Box(1e-9, 1, (2,), np.float64), True),
    "outside-allclose": (lambda lib: lib.Box(0, 1, (2,)), lambda lib: lib.Box(0.01, 1, (2,)), False),
    "dtype-differs": (lambda lib: lib.Box(0, 1, (2,), np.float32), lambda lib: lib.Box(0, 1, (2,), np.float64), False),
    "int-dtype-differs": (lambda lib: lib.Box(0, 1, (2,), np.int32), lambda lib: lib.Box(0, 1, (2,), np.int64), False),
    "shape-differs": (lambda lib: lib.Box(0, 1, (2,)), lambda lib: lib.Box(0, 1, (3,)), False),
    "shape-()-vs-(1,)": (lambda lib: lib.Box(0, 1, ()), lambda lib: lib.Box(0, 1, (1,)), False),
    "high-differs": (lambda lib: lib.Box(0, 1, (2,)), lambda lib: lib.Box(0, 2, (2,)), False),
    "scalar-vs-array-bounds": (lambda lib: lib.Box(0, 1, (2,)), lambda lib: lib.Box(np.zeros(2, np.float32), np.ones(2, np.float32)), True),
    "inf-bounds": (lambda lib: lib.Box(-inf, inf, (2,)), lambda lib: lib.Box(-inf, inf, (2,)), True),
    "vs-discrete": (lambda lib: lib.Box(0, 1, (2,)), lambda lib: lib.Discrete(2), False),
    "different-seeds": (lambda lib: lib.Box(0, 1, (2,), seed=1), lambda lib: lib.Box(0, 1, (2,), seed=2), True),
}


@pytest.mark.parametrize("pair", EQUALITY_PAIRS.values(), ids=EQUALITY_PAIRS.keys())
def test_equality(pair):
    common_checks.check_equality(*pair)


@pytest.mark.parametrize("recipe", recipe_params(BOX_RECIPES[:12]))
def test_unhashable(recipe):
    common_checks.check_hashing(recipe)


# --------------------------------------------------------------------------- contains

CONTAINS_SPACES = {
    "float32-(2,)": lambda lib: lib.Box(0, 1, (2,)),
    "float32-()": lambda lib: lib.Box(0, 1, ()),
    "float32-(1,)": lambda lib: lib.Box(0, 1),
    "float64-unbounded": lambda lib: lib.Box(-inf, inf, (2,), np.float64),
    "float16-(2,)": lambda lib: lib.Box(-1, 1, (2,), np.float16),
    "int8-(2,)": lambda lib: lib.Box(-3, 3, (2,), np.int8),
    "uint8-(2,)": lambda lib: lib.Box(0, 200, (2,), np.uint8),
    "int64-(2,)": lambda lib: lib.Box(-5, 5, (2,), np.int64),
    "bool-(2,)": lambda lib: lib.Box(0, 1, (2,), bool),
    "int32-inf-(2,)": lambda lib: lib.Box(-inf, inf, (2,), np.int32),
    "float32-(2,2)": lambda lib: lib.Box(0, 1, (2, 2)),
    "float16-(2,2)-per-coordinate": lambda lib: lib.Box(
        np.array([[0, -1], [2, 0]], np.float16), np.array([[1, 1], [3, 0.5]], np.float16), dtype=np.float16),
}

CONTAINS_INPUTS = {
    "f32-inside": np.array([0.5, 0.25], np.float32),
    "f32-edge": np.array([0.0, 1.0], np.float32),
    "f32-outside": np.array([0.5, 1.5], np.float32),
    "f32-nan": np.array([nan, 0.5], np.float32),
    "f32-inf": np.array([inf, 0.5], np.float32),
    "f64-inside": np.array([0.5, 0.25]),
    "f16-inside": np.array([0.5, 0.25], np.float16),
    "f32-F-order-2x1": np.asfortranarray(np.array([[0.5], [0.25]], np.float32)),
    "f32-strided": np.array([0.5, 9.0, 0.25, 9.0], np.float32)[::2],
    "f32-big-endian": np.array([0.5, 0.25], ">f4"),
    "f32-wrong-shape": np.array([0.5, 0.25, 0.1], np.float32),
    "f32-0d": np.array(0.5, np.float32),
    "f32-(1,)": np.array([0.5], np.float32),
    "i8-inside": np.array([1, 0], np.int8),
    "i8-negative": np.array([-1, 0], np.int8),
    "i64-inside": np.array([1, 0], np.int64),
    "u8-inside": np.array([1, 0], np.uint8),
    "u8-big": np.array([250, 0], np.uint8),
    "bool-array": np.array([True, False]),
    "list-floats": [0.5, 0.25],
    "list-ints": [1, 0],
    "list-too-long": [0.5, 0.25, 0.1],
    "tuple-floats": (0.5, 0.25),
    "python-float": 0.5,
    "python-int": 1,
    "python-bool": True,
    "np-float32-scalar": np.float32(0.5),
    "np-int64-scalar": np.int64(1),
    "huge-int-list": [2**70, 0],
    "nan-list": [nan, 0.0],
    "str": "ab",
    "str-list": ["a", "b"],
    "None": None,
    "nested-list": [[0.5], [0.25]],
    "ragged": [[0.5], [0.25, 0.1]],
    "object-array": np.array([0.5, 0.25], dtype=object),
    "dict": {"a": 1},
    "f32-2x2-C": np.array([[0.5, 0.25], [0.0, 1.0]], np.float32),
    "f32-2x2-F": np.asfortranarray(np.array([[0.5, 0.25], [0.0, 1.0]], np.float32)),
    "f32-2x2-transposed-view": np.array([[0.5, 2.5], [0.25, 0.5]], np.float32).T,
    "f16-2x2-F": np.asfortranarray(np.array([[0.5, 0.0], [2.5, 0.25]], np.float16)),
    "f16-2x2-out": np.array([[0.5, 0.0], [2.5, 0.75]], np.float16),
    "f16-2x2-negative-zero": np.array([[-0.0, -0.0], [2.0, -0.0]], np.float16),
}
for _dtype in [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int32, np.uint64, np.bool_]:
    CONTAINS_INPUTS[f"np-scalar-{np.dtype(_dtype).name}"] = np.dtype(_dtype).type(1)
    CONTAINS_INPUTS[f"0d-{np.dtype(_dtype).name}"] = np.array(0, dtype=_dtype)
    CONTAINS_INPUTS[f"pair-{np.dtype(_dtype).name}"] = np.array([1, 0], dtype=_dtype)


@pytest.mark.parametrize("build", CONTAINS_SPACES.values(), ids=CONTAINS_SPACES.keys())
def test_contains_matches_gymnasium(build):
    common_checks.check_contains(build, CONTAINS_INPUTS)


def test_contains_examples():
    box = GS.Box(0, 1, (2,))
    assert box.contains(np.array([0.5, 0.5], np.float32))
    assert not box.contains(np.array([0.5, 0.5], np.float64))  # quirk Q13 (docs/quirks.md): safe casting only
    with pytest.warns(UserWarning, match="Casting input x to numpy array"):
        assert box.contains([0.5, 0.5])
    int_box = GS.Box(0, 5, (2,), np.int32)
    with pytest.warns(UserWarning):
        assert int_box.contains([1.7, 4.9])  # quirk Q13: lists are force-cast (truncated)
    with pytest.warns(UserWarning):
        assert GS.Box(0, 1, ()).contains(0.5)
    with pytest.warns(UserWarning):
        assert not GS.Box(0, 1).contains(0.5)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.parametrize("recipe", recipe_params(BOX_RECIPES))
def test_own_samples_are_contained_as_in_gymnasium(recipe):
    gs_space, gym_space = seeded_pair(recipe.build, 0)
    for _ in range(3):
        try:
            gym_sample = gym_space.sample()
        except (ValueError, OverflowError):
            return
        gs_sample = gs_space.sample()
        assert_same_value(gs_sample, gym_sample)
        gs_result, gym_result = both(
            lambda lib: (gs_space.contains(gs_sample) if lib is GS else gym_space.contains(gym_sample)))
        assert_same_outcome(gs_result, gym_result)


# --------------------------------------------------------------------------- jsonable / pickle


@pytest.mark.parametrize("recipe", recipe_params(BOX_RECIPES))
def test_jsonable_round_trip(recipe):
    common_checks.check_jsonable(recipe)


def test_jsonable_explicit():
    box = GS.Box(0, 10, (2,), np.int16)
    data = box.to_jsonable([np.array([1, 2], np.int16), np.array([3, 4], np.int16)])
    assert data == [[1, 2], [3, 4]] and type(data[0][0]) is int
    back = box.from_jsonable(data)
    assert all(b.dtype == np.int16 for b in back)
    assert GS.Box(0, 1, (2,)).to_jsonable([]) == []


PICKLE_RECIPES = [r for r in BOX_RECIPES if "(84,84,3)" not in r.id]


@pytest.mark.parametrize("recipe", recipe_params(PICKLE_RECIPES))
def test_pickle_and_deepcopy_keep_stream(recipe):
    common_checks.check_pickle_and_deepcopy(recipe)


def test_copy_is_independent_and_shared_generators_stay_shared():
    recipe = BOX_RECIPES[0]
    common_checks.check_original_not_advanced_by_copy(recipe)
    common_checks.check_shared_generator_stays_shared(recipe)


def test_legacy_state_without_repr_cache():
    results = []
    for lib in (GS, GYM):
        box = lib.Box(0, 1, (2,), seed=4)
        state = dict(box.__dict__)
        state.pop("low_repr")
        state.pop("high_repr")
        state["shape"] = state.pop("_shape")
        state["np_random"] = state.pop("_np_random")
        state.pop("_rng_handle", None)
        restored = lib.Box.__new__(lib.Box)
        restored.__setstate__(state)
        results.append((restored.low_repr, restored.high_repr, restored.shape, repr(restored)))
        assert restored.np_random is box.np_random
        assert "shape" not in restored.__dict__ and "np_random" not in restored.__dict__
    assert results[0] == results[1]


def test_restored_legacy_state_samples_like_gymnasium():
    spaces = []
    for lib in (GS, GYM):
        box = lib.Box(-1, 1, (3,))
        state = {"low": box.low, "high": box.high, "bounded_below": box.bounded_below,
                 "bounded_above": box.bounded_above, "dtype": box.dtype, "shape": (3,),
                 "np_random": np.random.default_rng(8)}
        restored = lib.Box.__new__(lib.Box)
        restored.__setstate__(list(state.items()))
        spaces.append(restored)
    assert_same_stream(spaces[0], spaces[1], 3)


# --------------------------------------------------------------------------- sampling specifics


@pytest.mark.parametrize(
    "kwargs",
    [{"mask": np.ones(3, np.int8)}, {"mask": 0}, {"probability": np.ones(3)}, {"mask": [], "probability": None}],
    ids=["mask-array", "mask-zero", "probability", "mask-empty-list"],
)
def test_sample_rejects_masks_with_library_error(kwargs):
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(-1, 1, (3,)), 0)
    state = gs_box.np_random.bit_generator.state
    with pytest.raises(gymspaces.error.Error) as excinfo:
        gs_box.sample(**kwargs)
    assert isinstance(excinfo.value, Exception)
    gym_result = outcome(lambda: gym_box.sample(**kwargs))
    assert gym_result.raised
    assert str(excinfo.value) == str(gym_result.error)
    assert gs_box.np_random.bit_generator.state == state
    assert_same_state(gs_box, gym_box)


def test_sample_seed_pinned_values():
    np.testing.assert_array_equal(
        GS.Box(-1, 2, (3,), seed=0).sample(),
        np.array([0.91088504, -0.19063985, -0.8770794], np.float32),
    )
    np.testing.assert_array_equal(GS.Box(0, 255, (4,), np.uint8, seed=0).sample(), [163, 69, 10, 4])
    np.testing.assert_array_equal(
        GS.Box(-inf, inf, (2,), seed=0).sample(), np.array([0.12573022, -0.13210486], np.float32))
    np.testing.assert_array_equal(
        GS.Box(0, inf, (2,), seed=0).sample(), np.array([0.6799319, 1.019597], np.float32))


def test_in_place_bound_edits_take_effect():
    """Bounds are read at every sample; bounded_* flags are not recomputed."""
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(0.0, 1.0, (3,), np.float64), 1)
    assert_same_stream(gs_box, gym_box, 1)
    for box in (gs_box, gym_box):
        box.low[1] = 0.9
        box.high[2] = 50.0
    assert_same_stream(gs_box, gym_box, 3, "in-place edit")
    for box in (gs_box, gym_box):
        box.low = np.full(3, -10.0)
    assert_same_stream(gs_box, gym_box, 3, "reassigned low")
    for box in (gs_box, gym_box):
        box.bounded_above = np.array([False, True, False])
    assert_same_stream(gs_box, gym_box, 3, "edited bounded_above")


def test_in_place_edit_of_integer_box():
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(0, 10, (4,), np.int32), 2)
    for box in (gs_box, gym_box):
        box.high[:] = [1, 2, 3, 1000]
        box.low[0] = -7
    assert_same_stream(gs_box, gym_box, 4, "int edit")


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_sample_dtype_and_shape():
    for recipe in BOX_RECIPES:
        box = recipe.build(GS, seed=0)
        try:
            sample = box.sample()
        except (ValueError, OverflowError):
            continue
        assert np.asarray(sample).dtype == box.dtype, recipe.id
        assert np.shape(sample) == box.shape, recipe.id


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, bool])
def test_integer_box_of_shape_0d_returns_numpy_scalar_like_gymnasium(dtype):
    """Gymnasium's integer/bool Box of shape () returns a numpy scalar (floor of a 0-d array)."""
    gs_sample = GS.Box(0, 1, (), dtype, seed=0).sample()
    gym_sample = GYM.Box(0, 1, (), dtype, seed=0).sample()
    assert isinstance(gym_sample, np.generic), type(gym_sample)
    assert_same_value(gs_sample, gym_sample)  # type, dtype and value


# Every dtype a Box accepts, by type code: numpy gives one width two type codes
# (``l``/``q`` for int64 on Linux, ``i``/``l`` for int32 on Windows), and a long
# double (``g``) has no kernel. The kernels dispatch on kind and width, and
# leave a dtype they have no code for to numpy (whose ``uniform`` refuses long
# double bounds, as in Gymnasium): never a guessed width, never an error of
# their own.
BOX_TYPECODES = sorted(set(np.typecodes["AllInteger"] + np.typecodes["Float"] + "?"))


@pytest.mark.parametrize("code", BOX_TYPECODES)
def test_every_accepted_dtype_samples_and_checks_membership_as_gymnasium(code):
    kind = np.dtype(code).kind
    if kind == "f":
        low, high = np.array([-3.0, -inf, 0.5, -inf], code), np.array([5.0, 2.0, inf, inf], code)
    else:
        low, high = np.array([0, -3 * (kind == "i"), 0, 1], code), np.array([1, 5, 1, 7], code)
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(low, high, dtype=code), 7)
    assert_same_stream(gs_box, gym_box, 3, code)
    inputs = [np.zeros(4, dtype=code), np.ones(4, dtype=code), np.zeros(3, dtype=code)]
    for x in inputs:
        assert_same_outcome(outcome(lambda: gs_box.contains(x)), outcome(lambda: gym_box.contains(x)), code)
    rows = np.stack([np.zeros(4, dtype=code), np.full(4, 9, dtype=code)])
    assert_same_value(gs_box.contains_batch(rows), np.array([gym_box.contains(row) for row in rows]), code)
    batch = outcome(lambda: gs_box.sample_batch(2))
    stacked = outcome(lambda: np.stack([gym_box.sample() for _ in range(2)]))
    assert_same_outcome(batch, stacked, code)
    assert_same_state(gs_box, gym_box, code)
    assert_same_value(gs_box.to_jsonable(list(rows) + [rows[1, ::2]]), gym_box.to_jsonable(list(rows) + [rows[1, ::2]]))


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_sample_raises_like_gymnasium_for_wrapping_bounds():
    """Quirks Q8/Q9 (docs/quirks.md): both libraries raise the same exception for
    unsampleable ranges, and a uint64 Box up to 2**64 - 1 samples zeros."""
    for build, error in [
        (lambda lib: lib.Box(0, int(i64.max), (2,), np.int64), ValueError),
        (lambda lib: lib.Box(0, 2**63, (2,), np.uint64), ValueError),
        (lambda lib: lib.Box(-1.7e308, 1.7e308, (2,), np.float64), OverflowError),
    ]:
        gs_box, gym_box = seeded_pair(build, 0)
        gs_result, gym_result = outcome(gs_box.sample), outcome(gym_box.sample)
        assert type(gym_result.error) is error, gym_result.describe()
        assert_same_outcome(gs_result, gym_result, same_message=True)
        assert_same_state(gs_box, gym_box)
    zeros = GS.Box(0, 2**64 - 1, (3,), np.uint64, seed=0).sample()
    assert_same_value(zeros, GYM.Box(0, 2**64 - 1, (3,), np.uint64, seed=0).sample())


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_sample_error_of_the_uniform_pass_comes_after_the_other_draws():
    """Quirk Q10 (docs/quirks.md): the normal and exponential coordinates are drawn before
    the uniform pass raises, so the failed sample still moves the generator."""
    build = lambda lib: lib.Box(np.array([-inf, -1.7e308, 0.0]), np.array([inf, 1.7e308, inf]),  # noqa: E731
                                dtype=np.float64)
    gs_box, gym_box = seeded_pair(build, 0)
    gs_result, gym_result = outcome(gs_box.sample), outcome(gym_box.sample)
    assert type(gym_result.error) is OverflowError, gym_result.describe()
    assert_same_outcome(gs_result, gym_result, same_message=True)
    assert_same_state(gs_box, gym_box)
    reference = np.random.default_rng(0)
    reference.normal(size=1), reference.exponential(size=1)
    assert_same_generator_state(gs_box.np_random, reference)


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
def test_int64_draws_rounding_to_2_63_go_through_numpys_cast_then_the_clip():
    """Quirk Q25 (docs/quirks.md): near 2**63 the int64 clip margin is below float64's
    spacing, so a draw that rounds up to 2**63 reaches the cast out of range (INT64_MIN
    on x86-64, where the final clip turns it into ``low``) -- as numpy's cast does here."""
    low, high = 2**63 - 1000, 2**63 - 10  # uniform over [2**63 - 1024, 2**63] in float64
    cast = int(np.array([2.0**63]).astype(np.int64)[0])  # this machine's out-of-range cast
    rounded_up = min(max(cast, low), high)
    seen = set()
    # Values and generator states are compared; warnings are not: numpy's cast warns
    # "invalid value encountered in cast" in Gymnasium, gymspaces' C cast does not
    # (a known difference, listed under Q25 in docs/quirks.md).
    for seed in range(5):
        gs_box, gym_box = seeded_pair(lambda lib: lib.Box(low, high, (16,), np.int64), seed)
        for _ in range(3):
            gs_sample, gym_sample = gs_box.sample(), gym_box.sample()
            assert_same_value(gs_sample, gym_sample, f"seed {seed}")
            seen.update(gs_sample.tolist())
        assert_same_state(gs_box, gym_box)
    assert seen == {low, rounded_up}  # below low clips to low; 2**63 takes the cast


# Bounds reassigned with another dtype than the Box's: Gymnasium computes with the
# assigned arrays as they are (numpy promotion), it does not cast them first.
REASSIGNED_BOUNDS = {
    "float32-box-float64-bounds": (
        lambda lib: lib.Box(0, 1, (3,)),
        {"low": lambda: np.array([0.1, 0.2, 0.3]), "high": lambda: np.array([0.7, 1.3, 2.9])},
    ),
    "float16-box-float64-low": (
        lambda lib: lib.Box(0, 1, (3,), np.float16), {"low": lambda: np.array([0.1, 0.2, 0.3])}),
    "int32-box-float-low": (
        lambda lib: lib.Box(0, 10, (3,), np.int32), {"low": lambda: np.array([0.5, 1.5, 2.7])}),
    "uint8-box-negative-int64-low": (
        lambda lib: lib.Box(0, 10, (3,), np.uint8), {"low": lambda: np.array([-5, 1, 2])}),
    "float32-box-int-bounds": (
        lambda lib: lib.Box(0, 1, (2,)), {"low": lambda: np.array([-3, 0]), "high": lambda: np.array([4, 9])}),
}


@pytest.mark.parametrize("build,attrs", REASSIGNED_BOUNDS.values(), ids=REASSIGNED_BOUNDS.keys())
def test_reassigned_bounds_of_another_dtype(build, attrs):
    gs_box, gym_box = seeded_pair(build, 0)
    for box in (gs_box, gym_box):
        for name, make in attrs.items():
            setattr(box, name, make())
    assert_same_stream(gs_box, gym_box, 40, "reassigned bounds")


@pytest.mark.parametrize("dtype, high", [(np.uint8, 255), (np.int8, 127), (np.uint16, 2**16 - 1),
                                         (np.int32, 2**31 - 1), (np.uint8, 1)])
@pytest.mark.parametrize("size", [1, 15, 16, 17, 19, 20, 255, 256, 257, 259, 1021, 84 * 84 * 3])
def test_power_of_two_integer_boxes_draw_gymnasiums_stream(dtype, high, size):
    """Bounds [0, 2**k - 1] take the lane-parallel fill (four LCG lanes, blocks of 256
    draws): every length around those sizes gives Gymnasium's values and state."""
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(0, high, (size,), dtype), size)
    assert_same_stream(gs_box, gym_box, 3)
    assert_same_state(gs_box, gym_box)


def test_a_power_of_two_box_with_one_other_bound_takes_the_general_path():
    low = np.zeros(300, np.uint8)
    low[-1] = 1  # one coordinate [1, 255]: not a top-bits box
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(low, 255, (300,), np.uint8), 7)
    assert_same_stream(gs_box, gym_box, 3)
    assert_same_state(gs_box, gym_box)


# --------------------------------------------------------------------------- Hypothesis streams


_box_dtype = st.sampled_from(
    [np.dtype(d) for d in [np.float16, np.float32, np.float64, np.bool_, *INT_DTYPES]]
)
_shape = st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple)


@st.composite
def box_args(draw):
    dtype = draw(_box_dtype)
    shape = draw(_shape)
    size = int(np.prod(shape))
    kind = dtype.kind
    if kind == "f":
        finite = st.floats(
            min_value=float(np.finfo(dtype).min), max_value=float(np.finfo(dtype).max),
            allow_nan=False, allow_infinity=False, width=64,
        )
    elif kind == "b":
        finite = st.integers(0, 1)
    else:
        info = np.iinfo(dtype)
        finite = st.integers(int(info.min), int(info.max))
    lows, highs = [], []
    for _ in range(size):
        a, b = draw(finite), draw(finite)
        lo, hi = min(a, b), max(a, b)
        category = draw(st.sampled_from("BBBLAU"))
        if kind == "f" or kind == "i":
            if category in "AU":
                lo = -np.inf
            if category in "LU":
                hi = np.inf
        lows.append(lo)
        highs.append(hi)
    if kind == "f" or any(isinstance(v, float) for v in lows + highs):
        low = np.array(lows, dtype=np.float64).reshape(shape)
        high = np.array(highs, dtype=np.float64).reshape(shape)
        if kind == "f":
            low, high = low.astype(dtype), high.astype(dtype)
    else:
        low = np.array(lows, dtype=dtype).reshape(shape)
        high = np.array(highs, dtype=dtype).reshape(shape)
    return low, high, dtype


@settings(max_examples=300)
@given(args=box_args(), seed=SEEDS)
def test_hypothesis_box_streams(args, seed):
    low, high, dtype = args
    gs_space, gym_space = _pair_or_same_error(
        lambda lib: lib.Box(low.copy(), high.copy(), dtype=dtype))
    if gym_space is None:
        return
    gs_space.seed(seed)
    gym_space.seed(seed)
    assert_same_stream(gs_space, gym_space, 3, f"{gym_space!r}")
