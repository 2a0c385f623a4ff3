"""flatdim / flatten / unflatten / flatten_space / is_space_dtype_shape_equiv vs Gymnasium 1.4.0.

Every recipe builds the same space in both libraries; elements are Gymnasium's
own samples, so both libraries flatten identical inputs. Results are compared
exactly (Python type, dtype, shape, values, key order) and errors by type.
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium.spaces.utils as gym_utils
import numpy as np
import pytest
from support.differential import GS, GYM, assert_same_outcome, assert_same_stream, assert_same_value, both, error_kind, outcome

import gymspaces
import gymspaces.utils as gs_utils
from gymspaces import _flatten


def assert_same_tree(actual: Any, expected: Any, where: str = "") -> None:
    """Exact structural equality of flatten/unflatten results."""
    assert type(actual).__name__ == type(expected).__name__, (
        f"{where}: type {type(actual)} vs {type(expected)}"
    )
    if isinstance(expected, np.ndarray) or isinstance(expected, np.generic):
        assert type(actual) is type(expected), where
        assert actual.dtype == expected.dtype and actual.shape == expected.shape, (
            f"{where}: {actual.dtype}{actual.shape} vs {expected.dtype}{expected.shape}"
        )
        assert np.array_equal(actual, expected, equal_nan=actual.dtype.kind == "f"), (
            f"{where}: {actual} vs {expected}"
        )
    elif isinstance(expected, dict):
        assert list(actual) == list(expected), f"{where}: keys {list(actual)} vs {list(expected)}"
        for key in expected:
            assert_same_tree(actual[key], expected[key], f"{where}[{key!r}]")
    elif isinstance(expected, tuple):  # tuples and GraphInstance
        assert len(actual) == len(expected), where
        for i, (a, b) in enumerate(zip(actual, expected)):
            assert_same_tree(a, b, f"{where}[{i}]")
    elif isinstance(expected, (GS.Space, GYM.Space)):
        assert repr(actual) == repr(expected), f"{where}: {actual!r} vs {expected!r}"
    else:
        assert actual == expected, f"{where}: {actual!r} vs {expected!r}"


def values_equal(a: Any, b: Any) -> bool:
    """Same element value, whatever container/scalar flavour holds it."""
    if isinstance(b, dict):
        return isinstance(a, dict) and a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in b)
    if isinstance(b, tuple):
        return isinstance(a, tuple) and len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    if isinstance(b, str):
        return a == b
    if b is None:
        return a is None
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def same_outcome(actual, expected, where):
    if expected.raised or actual.raised:
        assert expected.raised and actual.raised, (
            f"{where}: gymspaces {actual.describe()} / gymnasium {expected.describe()}"
        )
        assert error_kind(actual.error) == error_kind(expected.error), (
            f"{where}: gymspaces {actual.describe()} / gymnasium {expected.describe()}"
        )
    else:
        assert_same_tree(actual.value, expected.value, where)


def _dict4(lib):
    return lib.Dict(
        {
            "a": lib.Box(-1, 1, (3,)),
            "b": lib.Box(-1, 1, (3,)),
            "c": lib.Discrete(5),
            "d": lib.MultiDiscrete([3, 4]),
        }
    )


RECIPES = {
    "box": lambda lib: lib.Box(-1, 1, (2, 3)),
    "box-scalar": lambda lib: lib.Box(0, 1, (), np.float16),
    "box-uint8": lambda lib: lib.Box(0, 255, (4,), np.uint8),
    "box-int-inf": lambda lib: lib.Box(-np.inf, np.inf, (2,), np.int32),
    "discrete": lambda lib: lib.Discrete(5),
    "discrete-start": lambda lib: lib.Discrete(4, start=-2, dtype=np.int8),
    "discrete-uint": lambda lib: lib.Discrete(6, start=3, dtype=np.uint16),
    "multi-binary": lambda lib: lib.MultiBinary((2, 3)),
    "multi-discrete": lambda lib: lib.MultiDiscrete([3, 2, 4]),
    "multi-discrete-2d": lambda lib: lib.MultiDiscrete([[2, 3], [4, 5]], dtype=np.int16, start=[[1, -1], [0, 2]]),
    "multi-discrete-uint64": lambda lib: lib.MultiDiscrete([3, 2], dtype=np.uint64),
    "text": lambda lib: lib.Text(6, min_length=0, charset="abcd"),
    "dict4": _dict4,
    "tuple-mixed": lambda lib: lib.Tuple(
        (lib.Discrete(3, dtype=np.int8), lib.Box(0, 1, (2,), np.float16), lib.MultiBinary(3))
    ),
    "nested": lambda lib: lib.Dict(
        {
            "x": lib.Tuple((lib.Discrete(3), lib.Box(-2, 2, (2,), np.float32))),
            "y": lib.Dict({"p": lib.MultiDiscrete([2, 2]), "q": lib.Box(0, 9, (1,), np.int64)}),
        }
    ),
    "dict-with-text": lambda lib: lib.Dict({"t": lib.Text(4, charset="xyz"), "d": lib.Discrete(2)}),
    "oneof": lambda lib: lib.OneOf((lib.Discrete(3), lib.Box(-1, 1, (4,)))),
    "sequence": lambda lib: lib.Sequence(lib.Box(0, 1, (2,))),
    "sequence-stacked": lambda lib: lib.Sequence(lib.Discrete(4), stack=True),
    "graph": lambda lib: lib.Graph(lib.Box(0, 1, (2,)), lib.Discrete(3)),
    "graph-no-edges": lambda lib: lib.Graph(lib.Discrete(4), None),
    "tuple-with-sequence": lambda lib: lib.Tuple((lib.Sequence(lib.Discrete(2)), lib.Box(0, 1, (1,)))),
}


def _elements(build, count=6):
    space = build(GYM)
    space.seed(7)
    return [space.sample() for _ in range(count)]


@pytest.mark.parametrize("build", RECIPES.values(), ids=RECIPES.keys())
def test_flatdim_and_flatten_space_match(build):
    gs_space, gym_space = build(GS), build(GYM)
    same_outcome(outcome(lambda: gs_utils.flatdim(gs_space)), outcome(lambda: gym_utils.flatdim(gym_space)), "flatdim")
    a, b = outcome(lambda: gs_utils.flatten_space(gs_space)), outcome(lambda: gym_utils.flatten_space(gym_space))
    same_outcome(a, b, "flatten_space")
    if not b.raised:
        assert isinstance(a.value, GS.Space)


@pytest.mark.parametrize("build", RECIPES.values(), ids=RECIPES.keys())
def test_flatten_and_unflatten_match_and_round_trip(build):
    gs_space, gym_space = build(GS), build(GYM)
    flat_gs_space = gs_utils.flatten_space(gs_space)
    for i, element in enumerate(_elements(build)):
        flat = outcome(lambda: gs_utils.flatten(gs_space, element))
        expected = outcome(lambda: gym_utils.flatten(gym_space, element))
        same_outcome(flat, expected, f"flatten #{i}")
        if expected.raised:  # e.g. uint64 MultiDiscrete: Gymnasium cannot flatten it either
            continue
        back = outcome(lambda: gs_utils.unflatten(gs_space, expected.value))
        expected_back = outcome(lambda: gym_utils.unflatten(gym_space, expected.value))
        same_outcome(back, expected_back, f"unflatten #{i}")
        assert values_equal(back.value, element), f"round trip #{i}: {back.value!r} vs {element!r}"
        assert gs_space.contains(back.value)
        assert flat_gs_space.contains(flat.value)


@pytest.mark.parametrize("build", RECIPES.values(), ids=RECIPES.keys())
def test_is_space_dtype_shape_equiv_matches(build):
    for other in RECIPES.values():
        a = outcome(lambda: gs_utils.is_space_dtype_shape_equiv(build(GS), other(GS)))
        b = outcome(lambda: gym_utils.is_space_dtype_shape_equiv(build(GYM), other(GYM)))
        same_outcome(a, b, "is_space_dtype_shape_equiv")


BAD_ELEMENTS = {
    "discrete-too-large": (RECIPES["discrete"], lambda lib: np.int64(7)),
    "discrete-below-start-wraps": (RECIPES["discrete"], lambda lib: np.int64(-2)),
    "discrete-below-start-too-far": (RECIPES["discrete"], lambda lib: np.int64(-9)),
    "discrete-float": (RECIPES["discrete"], lambda lib: 2.0),
    "discrete-python-int": (RECIPES["discrete"], lambda lib: 3),
    "discrete-other-dtype": (RECIPES["discrete-start"], lambda lib: np.int64(1)),
    "discrete-python-int-overflows-int8": (RECIPES["discrete-start"], lambda lib: 300),
    "discrete-uint-below-start": (RECIPES["discrete-uint"], lambda lib: np.uint16(1)),
    "multi-discrete-out-of-range": (RECIPES["multi-discrete"], lambda lib: np.array([3, 0, 0])),
    "multi-discrete-negative": (RECIPES["multi-discrete"], lambda lib: np.array([-1, 0, 0])),
    "multi-discrete-list": (RECIPES["multi-discrete"], lambda lib: [1, 1, 1]),
    "multi-discrete-wrong-shape": (RECIPES["multi-discrete"], lambda lib: np.array([1, 1])),
    "multi-discrete-uint64": (RECIPES["multi-discrete-uint64"], lambda lib: np.array([1, 1], np.uint64)),
    "box-wrong-size": (RECIPES["box"], lambda lib: np.zeros(4)),
    "box-strings": (RECIPES["box"], lambda lib: np.array(["a"] * 6)),
    "text-unknown-char": (RECIPES["text"], lambda lib: "abz"),
    "text-too-long": (RECIPES["text"], lambda lib: "abcdabcd"),
    "dict-missing-key": (RECIPES["dict4"], lambda lib: {"a": np.zeros(3, np.float32)}),
    "tuple-short": (RECIPES["tuple-mixed"], lambda lib: (np.int8(1),)),
    "tuple-list": (RECIPES["tuple-mixed"], lambda lib: [np.int8(1), np.zeros(2, np.float16), np.zeros(3, np.int8)]),
    "dict-float64-box": (RECIPES["dict4"], lambda lib: {"a": np.zeros(3), "b": [0.5, 0.25, 1.0], "c": 4, "d": np.array([2, 3])}),
}


@pytest.mark.parametrize("build,make", BAD_ELEMENTS.values(), ids=BAD_ELEMENTS.keys())
def test_unusual_elements_flatten_like_gymnasium(build, make):
    a = outcome(lambda: gs_utils.flatten(build(GS), make(GS)))
    b = outcome(lambda: gym_utils.flatten(build(GYM), make(GYM)))
    same_outcome(a, b, "flatten")


BAD_FLATS = {
    "discrete-no-one": (RECIPES["discrete"], np.zeros(5)),
    "discrete-two-ones": (RECIPES["discrete"], np.array([0, 1, 1, 0, 0])),
    "discrete-bool": (RECIPES["discrete-start"], np.array([False, False, True, False])),
    "discrete-nan": (RECIPES["discrete"], np.array([0, np.nan, 0, 0, 0])),
    "discrete-2d": (RECIPES["discrete"], np.eye(5)[1:3]),
    "multi-discrete-empty": (RECIPES["multi-discrete"], np.zeros(9)),
    "multi-discrete-extra-one": (RECIPES["multi-discrete"], np.ones(9)),
    "multi-discrete-missing-one": (RECIPES["multi-discrete"], np.array([1, 0, 0, 0, 0, 0, 0, 0, 1])),
    "dict4-short": (RECIPES["dict4"], np.zeros(10)),
    "dict4-long": (RECIPES["dict4"], np.r_[np.zeros(6), np.eye(5)[2], [1, 0, 0, 0, 1, 0, 0], [5.0]]),
    "dict4-list": (RECIPES["dict4"], [0.0] * 18),
    "dict4-float32": (RECIPES["dict4"], np.r_[np.zeros(6), np.eye(5)[2], [1, 0, 0, 0, 1, 0, 0]].astype(np.float32)),
    "dict4-int": (RECIPES["dict4"], np.r_[np.zeros(6), np.eye(5)[2], [1, 0, 0, 0, 1, 0, 0]].astype(np.int64)),
    "tuple-2d": (RECIPES["tuple-mixed"], np.zeros((2, 8))),
}


@pytest.mark.parametrize("build,flat", BAD_FLATS.values(), ids=BAD_FLATS.keys())
def test_unusual_flat_arrays_unflatten_like_gymnasium(build, flat):
    a = outcome(lambda: gs_utils.unflatten(build(GS), flat.copy() if isinstance(flat, np.ndarray) else flat))
    b = outcome(lambda: gym_utils.unflatten(build(GYM), flat.copy() if isinstance(flat, np.ndarray) else flat))
    same_outcome(a, b, "unflatten")


def test_unflatten_box_leaves_are_views_like_gymnasium():
    for lib, utils in ((GS, gs_utils), (GYM, gym_utils)):
        space = _dict4(lib)
        flat = np.r_[np.zeros(6, np.float32), np.eye(5, dtype=np.float32)[1], [1, 0, 0, 0, 0, 1, 0]].astype(np.float32)
        value = utils.unflatten(space, flat)
        flat[0] = 0.5
        assert value["a"][0] == 0.5, f"{lib.__name__}: Box part should be a view of the flat array"


def _new_custom_space_class():
    """A new class (so no rule is registered for it yet) of custom, np-flattenable spaces of shape (2,)."""

    class Custom(gymspaces.Space):
        def __init__(self):
            super().__init__((2,), np.float64)

        @property
        def is_np_flattenable(self):
            return True

    return Custom


def test_custom_space_registration_is_honoured():
    Point = _new_custom_space_class()
    with pytest.raises(NotImplementedError):
        gs_utils.flatten(Point(), np.zeros(2))

    @gs_utils.flatten.register(Point)
    def _flatten_point(space, x):
        return np.asarray(x, dtype=np.float64) * 2

    assert np.array_equal(gs_utils.flatten(Point(), np.ones(2)), [2.0, 2.0])
    assert np.array_equal(
        gs_utils.flatten(GS.Dict({"p": Point(), "d": GS.Discrete(2)}), {"p": np.ones(2), "d": np.int64(1)}),
        [0.0, 1.0, 2.0, 2.0],  # keys sorted: "d" then "p"
    )


def test_overriding_a_built_in_rule_turns_the_tree_kernel_off():
    space = _dict4(GS)
    element = space.sample()
    original = gs_utils.flatten.dispatch(GS.Discrete)
    try:
        gs_utils.flatten.register(GS.Discrete, lambda s, x: np.array([42.0]))
        assert _flatten.flatten_tree(space, element) is None
        flat = gs_utils.flatten(space, element)
        assert flat.shape == (14,) and 42.0 in flat
    finally:
        gs_utils.flatten.register(GS.Discrete, original)
    assert gs_utils.flatten(space, element).shape == (18,)


def test_overriding_a_built_in_unflatten_rule_is_honoured_inside_trees():
    space = _dict4(GS)
    flat = gs_utils.flatten(space, space.sample())
    original = gs_utils.unflatten.dispatch(GS.Discrete)
    try:
        gs_utils.unflatten.register(GS.Discrete, lambda s, x: "replaced")
        assert gs_utils.unflatten(space, flat)["c"] == "replaced"
    finally:
        gs_utils.unflatten.register(GS.Discrete, original)
    assert gs_utils.unflatten(space, flat)["c"] in GS.Discrete(5)
    assert gs_utils.unflatten.__name__ == "unflatten" and gs_utils.unflatten.__module__ == "gymspaces.utils"


def test_flatdim_of_trees_and_multi_discrete_is_gymnasiums_and_follows_overrides():
    """Summed in C for trees of fundamental spaces (and MultiDiscrete), it equals
    Gymnasium's everywhere and gives way to a child's overridden rule."""
    cases = [
        lambda L: L.MultiDiscrete([3, 4, 5]),
        lambda L: L.MultiDiscrete(np.array([[2, 3], [4, 5]], dtype=np.int8)),
        lambda L: L.MultiDiscrete(np.array([2**40, 3], dtype=np.uint64)),
        _dict4,
        lambda L: L.Tuple((L.Discrete(3), L.Dict(a=L.Box(0, 1, (2, 2)), b=L.MultiBinary(3)))),
    ]
    for make in cases:
        value = gs_utils.flatdim(make(GS))
        assert type(value) is int and value == gym_utils.flatdim(make(GYM))
    space = _dict4(GS)
    original = gs_utils.flatdim.dispatch(GS.Discrete)
    try:
        gs_utils.flatdim.register(GS.Discrete, lambda s: 100)
        assert gs_utils.flatdim(space) == gym_utils.flatdim(_dict4(GYM)) - 5 + 100
    finally:
        gs_utils.flatdim.register(GS.Discrete, original)
    assert gs_utils.flatdim(space) == gym_utils.flatdim(_dict4(GYM))


def test_custom_space_unflatten_registration_is_honoured():
    Pair = _new_custom_space_class()
    gs_utils.flatdim.register(Pair, lambda space: 2)
    gs_utils.unflatten.register(Pair, lambda space, x: ("pair", *x.tolist()))
    tree = GS.Tuple((GS.Discrete(2), Pair()))
    assert gs_utils.unflatten(Pair(), np.array([1.0, 2.0])) == ("pair", 1.0, 2.0)
    assert gs_utils.unflatten(tree, np.array([0.0, 1.0, 5.0, 6.0]))[1] == ("pair", 5.0, 6.0)


def test_flatten_of_non_space_raises_like_gymnasium():
    same_outcome(outcome(lambda: gs_utils.flatten(3, 3)), outcome(lambda: gym_utils.flatten(3, 3)), "flatten(int)")
    same_outcome(outcome(lambda: gs_utils.flatdim("x")), outcome(lambda: gym_utils.flatdim("x")), "flatdim(str)")


def test_flatten_does_not_touch_the_generator():
    space = _dict4(GS)
    space.seed(3)
    element = space.sample()
    before = copy.deepcopy(space["c"].np_random.bit_generator.state)
    gs_utils.unflatten(space, gs_utils.flatten(space, element))
    assert space["c"].np_random.bit_generator.state == before


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16])
def test_unflatten_0d_multi_discrete_gives_numpy_scalar(dtype):
    """``reshape(()) + start`` makes Gymnasium return a numpy scalar for a 0-d MultiDiscrete,
    alone and inside a Tuple."""
    for build in (
        lambda lib: lib.MultiDiscrete(np.array(4), dtype=dtype, start=np.array(2)),
        lambda lib: lib.Tuple([lib.MultiDiscrete(3, dtype=dtype)]),
    ):
        flat = np.array([0, 0, 1, 0][: gym_utils.flatdim(build(GYM))], dtype=dtype)
        same_outcome(outcome(lambda: gs_utils.unflatten(build(GS), flat)),
                     outcome(lambda: gym_utils.unflatten(build(GYM), flat)), "unflatten")
        value = gs_utils.unflatten(build(GS), flat)
        assert type(value[0] if isinstance(value, tuple) else value) is np.dtype(dtype).type


def test_flatten_stacked_sequence_flattens_items_before_the_feature_space():
    """Gymnasium's stacked-Sequence flatten flattens the items first: when both steps
    fail (a OneOf with an empty Box), the item's IndexError wins over flatten_space's ValueError."""

    def build(lib):
        inf = np.inf
        return lib.Sequence(lib.OneOf([lib.Box(-inf, inf, (), np.float16), lib.Box(-inf, inf, (0,), np.float16)]),
                            stack=True)

    x = ((np.int64(1), np.zeros(0, np.float16)), (np.int64(0), np.array(2.0, np.float16)))
    gs_out = outcome(lambda: gs_utils.flatten(build(GS), x))
    gym_out = outcome(lambda: gym_utils.flatten(build(GYM), x))
    same_outcome(gs_out, gym_out, "flatten")
    assert isinstance(gs_out.error, IndexError)


def test_flatten_of_oneof_pads_with_the_first_flat_element():
    """Quirk Q22 (docs/quirks.md): a shorter child's flat sample is padded with copies of
    its first element (here the one-hot's leading 1), not with zeros."""
    build = lambda lib: lib.OneOf((lib.Discrete(3), lib.Box(-1, 1, (5,))))  # noqa: E731
    for x in [(0, np.int64(0)), (0, np.int64(2)), (1, np.full(5, 0.5, np.float32))]:
        gs_result, gym_result = both(lambda lib: (gs_utils if lib is GS else gym_utils).flatten(build(lib), x))
        assert_same_outcome(gs_result, gym_result, f"flatten({x!r})")
    padded = gs_utils.flatten(build(GS), (0, np.int64(0)))
    np.testing.assert_array_equal(padded, [0, 1, 0, 0, 1, 1])


def test_flatten_space_of_oneof_warns_twice_for_float32_children():
    """Quirk Q29 (docs/quirks.md): the float64 bounds are cast to the float32 Box, which
    warns for ``low`` and for ``high``; gymspaces keeps both warnings."""
    build = lambda lib: lib.OneOf((lib.Box(0, 1, (2,)), lib.Box(-1, 1, (3,))))  # noqa: E731
    gs_result, gym_result = both(lambda lib: repr((gs_utils if lib is GS else gym_utils).flatten_space(build(lib))))
    assert_same_outcome(gs_result, gym_result, "flatten_space")  # the warnings included
    assert [category for category, _ in gym_result.warnings] == [UserWarning, UserWarning]
    assert all("precision lowered by casting to float32" in text for _, text in gym_result.warnings)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32])  # int64: +inf wraps, no Box
def test_flatten_space_of_an_integer_box_with_infinite_bounds_is_bounded(dtype):
    """Quirk Q12 (docs/quirks.md): the flat Box is rebuilt from the finite dtype limits the
    constructor wrote in, so it is bounded and samples uniformly over the whole range."""
    build = lambda lib: lib.Box(np.array([-np.inf, 0.0]), np.array([np.inf, np.inf]), dtype=dtype)  # noqa: E731
    flat = {GS: gs_utils.flatten_space(build(GS)), GYM: gym_utils.flatten_space(build(GYM))}
    for name in ("low", "high", "bounded_below", "bounded_above"):
        assert_same_value(getattr(flat[GS], name), getattr(flat[GYM], name), name)
    assert flat[GS].bounded_below.all() and flat[GS].bounded_above.all()
    assert not build(GS).bounded_below[0]  # the original is unbounded there
    flat[GS].seed(0), flat[GYM].seed(0)
    assert_same_stream(flat[GS], flat[GYM], 3, "flat Box")
