"""Differential tests of the compiled fast paths of ``iterate`` (batched Dict/Tuple
trees), ``Dict``/``Tuple``/``Box.to_jsonable`` and ``flatten(Discrete)``.

Every case runs the same input through gymspaces and Gymnasium 1.4.0 and
compares values, types of every element, dtypes, view relations and exception
types; inputs the kernels do not cover (other dtypes, byte orders, layouts,
containers) must take the general path and still agree.
"""

from __future__ import annotations

import math
import sys
import struct
import warnings
from collections import OrderedDict
from typing import Any

import gymnasium.spaces as gym
import gymnasium.spaces.utils as gym_utils
import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest

import gymspaces as gs
import gymspaces.utils as gs_utils
from gymspaces import _flattening
import gymspaces.vector as gs_vector
from support.composite_helpers import assert_same_nesting
from support.differential import assert_same_outcome, assert_same_value, outcome
from gymspaces.vector import space_utils


def _quietly(build, *args):
    """``build(*args)`` with numpy's warnings silenced (deprecated or lossy inputs on purpose)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build(*args)


LIBS = {"gs": (gs, gs_vector, gs_utils), "gym": (gym, gym_vector, gym_utils)}


def dict4(L: Any) -> Any:
    return L.Dict(
        {
            "position": L.Box(-1, 1, (3,)),
            "velocity": L.Box(-1, 1, (3,)),
            "mode": L.Discrete(5),
            "buttons": L.MultiDiscrete([3, 4]),
        },
        seed=0,
    )


# --------------------------------------------------------------------------- iterate


def assert_same_item(a: Any, b: Any, where: str = "item") -> None:
    """Same value/type, and for arrays the same memory, base, strides and flags."""
    assert_same_value(a, b, where)
    if isinstance(a, dict):
        for key in a:
            assert_same_item(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, tuple):
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same_item(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray):
        assert a.__array_interface__["data"] == b.__array_interface__["data"], where
        if type(a) is np.ndarray:  # (a masked array's base is made on each access)
            assert a.base is b.base, where
        assert a.strides == b.strides, where
        assert a.dtype == b.dtype and a.dtype.str == b.dtype.str, where
        for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
                     "WRITEBACKIFCOPY"):
            assert a.flags[flag] == b.flags[flag], (where, flag)


def iterate_both(build: Any, batch: Any) -> tuple[Any, Any]:
    """``list(iterate(build(lib), batch))`` for both libraries on the same batch."""
    return tuple(outcome(lambda L=L: list(LIBS[L][1].iterate(build(LIBS[L][0]), batch)))
                 for L in ("gs", "gym"))


def check_iterate(build: Any, batch: Any) -> None:
    got, expected = iterate_both(build, batch)
    assert got.raised == expected.raised, (got.describe(), expected.describe())
    if got.raised:
        # Each library has its own CustomSpaceError class: compare by name.
        assert type(got.error).__name__ == type(expected.error).__name__, (
            got.describe(), expected.describe())
    else:
        assert_same_outcome(got, expected)
        assert len(got.value) == len(expected.value)
        for i, (a, b) in enumerate(zip(got.value, expected.value)):
            assert_same_item(a, b, f"row {i}")


def batched(build: Any, n: int = 4, seed: int = 3) -> tuple[Any, Any]:
    """A Gymnasium-made batch of ``n`` samples of ``build`` and the batched builder."""
    space = build(gym)
    space.seed(seed)
    items = [space.sample() for _ in range(n)]
    batch = gym_vector.concatenate(space, items, gym_vector.create_empty_array(space, n))
    return batch, (lambda L: LIBS["gs" if L is gs else "gym"][1].batch_space(build(L), n))


TREES = {
    "dict4": dict4,
    "nested": lambda L: L.Dict(
        a=L.Tuple((L.Box(0, 1, (2, 2)), L.Discrete(3, start=-1))),
        b=L.Dict(c=L.MultiBinary(3), d=L.MultiDiscrete([[2, 3], [4, 5]])),
        e=L.Box(-5, 5, (), np.int16),
    ),
    "tuple-of-dict": lambda L: L.Dict(t=L.Tuple((L.Dict(x=L.Discrete(2)), L.Box(0, 1, (1,))))),
    "dtypes": lambda L: L.Dict(
        f16=L.Box(0, 1, (2,), np.float16),
        f64=L.Box(0, 1, (2,), np.float64),
        u8=L.Box(0, 255, (2,), np.uint8),
        i8=L.Discrete(4, dtype=np.int8),
        mb=L.MultiBinary(2),
    ),
}


@pytest.mark.parametrize("name", list(TREES))
@pytest.mark.parametrize("n", [1, 3, 8])
def test_iterate_trees_match_gymnasium(name, n):
    batch, build = batched(TREES[name], n)
    check_iterate(build, batch)


def test_iterate_rows_are_views_of_the_batch():
    batch, build = batched(dict4, 8)
    rows = list(gs_vector.iterate(build(gs), batch))
    rows[2]["position"][:] = 7
    rows[5]["buttons"][1] = 0
    assert (batch["position"][2] == 7).all() and batch["buttons"][5][1] == 0
    assert rows[2]["position"].base is batch["position"]
    assert type(rows[0]["mode"]) is np.int64


def test_iterate_reads_scalars_lazily_like_gymnasium():
    seen = {}
    for L in ("gs", "gym"):
        batch, build = batched(dict4, 4)
        iterator = LIBS[L][1].iterate(build(LIBS[L][0]), batch)
        first = next(iterator)
        batch["mode"][1] = 4
        batch["position"][1] = 0.5
        seen[L] = [first] + list(iterator)
    for a, b in zip(seen["gs"], seen["gym"]):
        assert_same_value(a, b)


def test_iterate_returns_a_generator_that_defers_errors():
    import types

    iterator = gs_vector.iterate(gs.Dict(a=gs.Box(0, 1, (2,))), {"a": np.array(5.0)})
    assert isinstance(iterator, types.GeneratorType)
    with pytest.raises(TypeError):
        next(iterator)  # a 0-d batch cannot be iterated


def _layouts() -> dict[str, Any]:
    base = np.arange(48, dtype=np.float32).reshape(8, 6)
    readonly = base.copy()
    readonly.flags.writeable = False
    fortran = np.asfortranarray(np.arange(24, dtype=np.float64).reshape(4, 6))
    return {
        "strided": base[::2, ::2],
        "fortran": fortran,
        "readonly": readonly,
        "big-endian": base.astype(">f4"),
        "view-of-view": base[1:][1:],
        "3d": np.arange(24, dtype=np.int32).reshape(4, 3, 2),
        "1d-strided": np.arange(16, dtype=np.int64)[::3],
        "1d-big-endian": np.arange(4, dtype=">i8"),
        "1d-object": np.array([1, "a", None, 2.5], dtype=object),
        "subarray-dtype": np.zeros(3, dtype=np.dtype((np.float32, (2,)))),
        "structured": np.zeros((3, 2), dtype=[("x", "i4"), ("y", "f8")]),
        "bool": np.array([[True, False], [False, True]]),
        "complex": np.ones((2, 2), dtype=np.complex128),
        "empty": np.zeros((0, 3), np.float32),
        "unaligned": np.frombuffer(b"\x00" * 33, dtype=np.uint8)[1:].view("<f8").reshape(2, 2),
    }


@pytest.mark.parametrize("layout", list(_layouts()))
@pytest.mark.parametrize("kind", ["Box", "MultiDiscrete", "MultiBinary"])
def test_iterate_array_layouts_match_gymnasium(layout, kind):
    array = _layouts()[layout]
    leaf = {
        "Box": lambda L: L.Box(0, 1, (2,)),
        "MultiDiscrete": lambda L: L.MultiDiscrete([2, 2]),
        "MultiBinary": lambda L: L.MultiBinary(2),
    }[kind]
    check_iterate(lambda L: L.Dict(a=leaf(L), b=L.Tuple((leaf(L),))), {"a": array, "b": (array,)})
    check_iterate(lambda L: L.Dict(a=leaf(L)), {"a": array})


def _ragged(L: Any) -> Any:
    return L.Dict(a=L.Box(0, 1, (2,)), b=L.MultiDiscrete([2]))


BAD_BATCHES = [
    (_ragged, {"a": np.zeros((2, 2)), "b": np.zeros((3, 1))}),
    (_ragged, {"a": np.zeros((3, 2))}),
    (_ragged, {"a": np.zeros((3, 2)), "b": np.array(5)}),
    (_ragged, {"a": np.zeros((3, 2)), "b": [[1], [0], [1]]}),
    (_ragged, {"a": np.zeros((3, 2)), "b": np.zeros((3, 1)), "extra": 1}),
    (_ragged, OrderedDict(a=np.zeros((3, 2)), b=np.zeros((3, 1)))),
    (_ragged, [np.zeros((3, 2)), np.zeros((3, 1))]),
    (_ragged, None),
    (lambda L: L.Dict(a=L.Discrete(3)), {"a": np.zeros(3, np.int64)}),
    (lambda L: L.Dict(a=L.Tuple((L.Box(0, 1, (1,)),))), {"a": [np.zeros((2, 1))]}),
    (lambda L: L.Dict(a=L.Tuple((L.Box(0, 1, (1,)),))), {"a": ()}),
    (lambda L: L.Dict(a=L.Tuple((L.Box(0, 1, (1,)),))), {"a": (np.zeros((2, 1)), 5)}),
    (lambda L: L.Dict(a=L.Tuple((L.Box(0, 1, (1,)), L.Box(0, 1, (1,))))),
     {"a": (np.zeros((2, 1)), np.zeros((3, 1)))}),
    (lambda L: L.Dict(a=L.Tuple(())), {"a": ()}),
    (lambda L: L.Dict(), {}),
    (lambda L: L.Dict(a=L.Text(3)), {"a": ("ab", "c")}),
    (lambda L: L.Dict(a=L.Box(0, 1, (2,))), {"a": np.ma.masked_array(np.zeros((2, 2)))}),
    (lambda L: L.Dict(a=L.Box(0, 1, (2,))), {"a": _quietly(np.matrix, np.zeros((2, 2)))}),
]


@pytest.mark.parametrize("index", range(len(BAD_BATCHES)))
def test_iterate_unusual_batches_match_gymnasium(index):
    build, batch = BAD_BATCHES[index]
    check_iterate(build, batch)


def test_iterate_partial_rows_before_a_length_error_match():
    batch = {"a": np.zeros((2, 2)), "b": np.zeros((3, 1))}
    for L in ("gs", "gym"):
        iterator = LIBS[L][1].iterate(_ragged(LIBS[L][0]), batch)
        assert len([next(iterator), next(iterator)]) == 2
        with pytest.raises(ValueError):
            next(iterator)


def test_iterate_user_registration_disables_the_kernel():
    calls = []

    def custom(space, items):
        calls.append(space)
        return iter(list(items)[::-1])

    batch, build = batched(dict4, 3)
    original = space_utils.iterate.dispatch(gs.Box)
    try:
        gs_vector.iterate.register(gs.Box, custom)
        rows = list(gs_vector.iterate(build(gs), batch))
        assert calls and np.array_equal(rows[0]["position"], batch["position"][2])
    finally:
        gs_vector.iterate.register(gs.Box, original)
    calls.clear()
    check_iterate(build, batch)
    assert not calls


def test_iterate_subclass_leaves_take_the_general_path():
    class MyBox(gs.Box):
        pass

    seen = []

    @gs_vector.iterate.register(MyBox)
    def _iterate_mine(space, items):
        seen.append(space)
        return iter(items)

    rows = list(gs_vector.iterate(gs.Dict(a=MyBox(0, 1, (2, 2))), {"a": np.zeros((2, 2))}))
    assert len(rows) == 2 and len(seen) == 1


# --------------------------------------------------------------------------- to_jsonable


def _same_json_leaf(a: Any, b: Any, where: str) -> None:
    if isinstance(a, float):
        assert struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b)), where
    elif isinstance(a, (np.ndarray, np.generic)):
        assert_same_value(a, b, where)
    else:
        assert a == b, (where, a, b)


def assert_same_json(a: Any, b: Any, where: str = "json") -> None:
    """Identical nested lists/dicts with the same Python type for every element."""
    assert_same_nesting(a, b, _same_json_leaf, where)


def json_both(build: Any, samples: Any, method: str = "to_jsonable") -> None:
    results = []
    for L in (gs, gym):
        space = build(L)
        fresh = samples() if callable(samples) else samples
        results.append(outcome(lambda space=space, fresh=fresh: getattr(space, method)(fresh)))
    got, expected = results
    assert got.raised == expected.raised, (got.describe(), expected.describe())
    if got.raised:
        assert type(got.error) is type(expected.error), (got.describe(), expected.describe())
    else:
        assert_same_json(got.value, expected.value)


def test_dict4_to_jsonable_matches_gymnasium():
    space = dict4(gym)
    samples = [space.sample() for _ in range(64)]
    json_both(dict4, samples)
    json_both(dict4, tuple(samples))
    json_both(dict4, lambda: iter(samples))  # a generator: later keys see nothing
    json_both(dict4, [])


SPECIAL_FLOATS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4028235e38, 0.1]


def _row_samples() -> dict[str, list[Any]]:
    f32 = np.array(SPECIAL_FLOATS, np.float32)
    f64 = np.array(SPECIAL_FLOATS, np.float64)
    ints = {dt: np.array([np.iinfo(dt).min, 0, 1, np.iinfo(dt).max], dt)
            for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                       np.uint64, np.longlong, np.ulonglong)}
    samples = {
        "float32": [f32, f32[::-1].copy()],
        "float64": [f64],
        "float16": [_quietly(f32.astype, np.float16)],
        "longdouble": [f64.astype(np.longdouble)],
        "complex": [np.array([1 + 2j])],
        "bool": [np.array([True, False, True])],
        "big-endian": [f32.astype(">f4"), f64.astype(">f8"), ints[np.int64].astype(">i8")],
        "strided": [f64[::2], ints[np.int16][::-1]],
        "2d": [np.arange(6, dtype=np.float32).reshape(2, 3)],
        "0d": [np.array(1.5, np.float32)],
        "scalar": [np.float32(0.1), np.int64(3)],
        "empty": [np.zeros(0, np.float32)],
        "object": [np.array([1, "x"], dtype=object)],
        "unaligned": [np.frombuffer(b"\x00" * 17, np.uint8)[1:].view(np.float64)],
        "subclass": [np.ma.masked_array([1.0, 2.0], mask=[False, True])],
        "list": [[1.0, 2.0]],
        "mixed": [f32, np.int64(2), f64[::2]],
    }
    samples.update({np.dtype(dt).name + "-" + np.dtype(dt).char: [a] for dt, a in ints.items()})
    return samples


@pytest.mark.parametrize("name", list(_row_samples()))
def test_box_and_multi_discrete_columns_match_gymnasium(name):
    rows = _row_samples()[name]
    for leaf in (lambda L: L.Box(-1, 1, (2,)), lambda L: L.MultiDiscrete([3, 3])):
        json_both(leaf, rows)
        json_both(lambda L, leaf=leaf: L.Dict(a=leaf(L), b=L.Discrete(2)),
                  [{"a": row, "b": 1} for row in rows])
        json_both(lambda L, leaf=leaf: L.Tuple((L.Discrete(2), leaf(L))),
                  [(1, row) for row in rows])


DISCRETE_VALUES = {
    "int64": [np.int64(3), np.int64(-(2**63)), np.int64(2**63 - 1)],
    "python": [0, 7, 2**80, True],
    "int8": [np.int8(-3)],
    "uint64": [np.uint64(2**64 - 1)],
    "float": [np.float64(2.7), 3.9],
    "bool": [np.bool_(True)],
    "string": ["12"],
    "array0d": [np.array(4)],
    "bad-string": ["x"],
    "none": [None],
    "array1d": [np.array([1, 2])],
}


@pytest.mark.parametrize("name", list(DISCRETE_VALUES))
def test_discrete_columns_match_gymnasium(name):
    values = DISCRETE_VALUES[name]
    json_both(lambda L: L.Dict(a=L.Discrete(3), b=L.Box(0, 1, (1,))),
              [{"a": v, "b": np.zeros(1, np.float32)} for v in values])
    json_both(lambda L: L.Tuple((L.Box(0, 1, (1,)), L.Discrete(3))),
              [(np.zeros(1, np.float32), v) for v in values])


def test_nested_and_other_leaves_to_jsonable_match_gymnasium():
    def build(L):
        return L.Dict(
            t=L.Tuple((L.Discrete(3), L.Dict(x=L.Box(0, 1, (2,), np.float64)))),
            m=L.MultiBinary(3),
            s=L.Text(4),
        )

    space = build(gym)
    space.seed(1)
    json_both(build, [space.sample() for _ in range(5)])


BAD_SAMPLES = [
    [{"position": np.zeros(3, np.float32)}],  # missing keys
    [(np.zeros(3, np.float32),)],  # not mappings
    [OrderedDict(position=np.zeros(3, np.float32), velocity=np.zeros(3, np.float32),
                 mode=1, buttons=np.zeros(2, np.int64))],
    [{"position": [0.0] * 3, "velocity": np.zeros(3, np.float32), "mode": 1,
      "buttons": np.zeros(2, np.int64)}],
    None,
    5,
]


@pytest.mark.parametrize("index", range(len(BAD_SAMPLES)))
def test_unusual_dict_samples_match_gymnasium(index):
    json_both(dict4, BAD_SAMPLES[index])


def test_tuple_to_jsonable_unusual_samples_match_gymnasium():
    def build(L):
        return L.Tuple((L.Box(0, 1, (2,)), L.Discrete(3)))

    for samples in ([(np.zeros(2, np.float32),)], [[np.zeros(2, np.float32), 1]],
                    [{"0": 1}], [(np.zeros(2, np.float32), 2, "extra")], [], None):
        json_both(build, samples)


def test_overridden_to_jsonable_is_honoured():
    space = gs.Dict(a=gs.Box(0, 1, (2,)), b=gs.Discrete(3))
    space["a"].to_jsonable = lambda samples: ["instance"] * len(samples)
    samples = [{"a": np.zeros(2, np.float32), "b": 1}]
    assert space.to_jsonable(samples) == {"a": ["instance"], "b": [1]}

    class MyDiscrete(gs.Discrete):
        def to_jsonable(self, sample_n):
            return ["subclass" for _ in sample_n]

    space = gs.Tuple((MyDiscrete(3), gs.Discrete(3)))
    assert space.to_jsonable([(1, 2)]) == [["subclass"], [2]]


def test_box_to_jsonable_round_trip_matches_gymnasium():
    for dtype in (np.float32, np.float64, np.int64, np.uint8):
        rows = [np.arange(3, dtype=dtype), np.arange(3, dtype=dtype)[::-1]]
        json_both(lambda L, dtype=dtype: L.Box(0, 10, (3,), dtype), rows)
        json_both(lambda L, dtype=dtype: L.Box(0, 10, (3,), dtype), lambda rows=rows: iter(rows))


# --------------------------------------------------------------------------- flatten(Discrete)


DISCRETE_SPACES = {
    "default": lambda L: L.Discrete(100),
    "start": lambda L: L.Discrete(5, start=-2),
    "int8": lambda L: L.Discrete(4, dtype=np.int8),
    "uint8": lambda L: L.Discrete(4, start=3, dtype=np.uint8),
    "extreme-start": lambda L: L.Discrete(3, start=-(2**63)),
    "top-start": lambda L: L.Discrete(2, start=2**63 - 2),
}

DISCRETE_INPUTS = [np.int64(0), np.int64(1), np.int64(3), np.int64(-1), np.int64(-2),
                   np.int64(-3), np.int64(99), np.int64(100), np.int64(-100), np.int64(-101),
                   np.int64(2**63 - 1), np.int64(-(2**63)), np.int64(2**63 - 2), 2, -1, 7,
                   np.int32(2), np.int8(1), np.uint8(3), np.uint64(4), True, 1.0, np.float64(2.0),
                   np.array(2), np.array([1]), "1", None]


@pytest.mark.parametrize("name", list(DISCRETE_SPACES))
@pytest.mark.parametrize("index", range(len(DISCRETE_INPUTS)))
def test_flatten_discrete_matches_gymnasium(name, index):
    x = DISCRETE_INPUTS[index]
    got = outcome(lambda: gs_utils.flatten(DISCRETE_SPACES[name](gs), x))
    expected = outcome(lambda: gym_utils.flatten(DISCRETE_SPACES[name](gym), x))
    assert_same_outcome(got, expected)


def test_flatten_discrete_reads_attributes_live():
    pairs = [L.Discrete(10) for L in (gs, gym)]
    for space in pairs:
        space.n = np.int64(4)
        space.start = np.int64(2)
    for x in (np.int64(2), np.int64(5), np.int64(6), np.int64(1)):
        assert_same_outcome(outcome(lambda: gs_utils.flatten(pairs[0], x)),
                            outcome(lambda: gym_utils.flatten(pairs[1], x)))
    for space in pairs:
        space.dtype = np.dtype(np.int32)
    assert_same_outcome(outcome(lambda: gs_utils.flatten(pairs[0], np.int64(3))),
                        outcome(lambda: gym_utils.flatten(pairs[1], np.int64(3))))


def test_flatten_keeps_the_dispatcher_api():
    import inspect

    assert gs.flatten is gs_utils.flatten
    # Gymnasium's parameters, then the compiled entry's own addition.
    assert list(inspect.signature(gs_utils.flatten).parameters) == ["space", "x", "out"]
    assert list(inspect.signature(gs_utils.unflatten).parameters) == ["space", "x"]
    assert gs_utils.flatten.dispatch(gs.Discrete) is _flattening._flatten_discrete
    assert gs.Discrete in gs_utils.flatten.registry
    assert "Flatten an element" in gs_utils.flatten.__doc__
    with pytest.raises(NotImplementedError):
        gs_utils.flatten(gs.Space(), 1)
    assert gs_utils.flatten(space=gs.Discrete(3), x=np.int64(1)).tolist() == [0, 1, 0]


def test_flatten_registrations_still_dispatch():
    class MyDiscrete(gs.Discrete):
        pass

    class MySpace(gs.Space):
        pass

    @gs_utils.flatten.register(MyDiscrete)
    def _flatten_mine(space, x):
        return "mine"

    @gs_utils.flatten.register(MySpace)
    def _flatten_custom(space, x):
        return ("custom", x)

    assert gs_utils.flatten(MyDiscrete(3), np.int64(1)) == "mine"
    assert gs_utils.flatten(MySpace(), 5) == ("custom", 5)
    assert gs_utils.flatten(gs.Discrete(3), np.int64(1)).tolist() == [0, 1, 0]

    original = gs_utils.flatten.dispatch(gs.Discrete)
    try:
        gs_utils.flatten.register(gs.Discrete, lambda space, x: "replaced")
        assert gs_utils.flatten(gs.Discrete(3), np.int64(1)) == "replaced"
    finally:
        gs_utils.flatten.register(gs.Discrete, original)
    result = gs_utils.flatten(gs.Discrete(3), np.int64(1))
    assert type(result) is np.ndarray and result.tolist() == [0, 1, 0]



# --------------------------------------------------------------------------- unflatten Box leaves


def _leaf_relations(value: Any, flat: np.ndarray) -> dict[str, Any]:
    """What a Box leaf of ``unflatten`` is made of, relative to the flat input."""
    owner = flat if flat.base is None else flat.base
    return {
        "strides": value.strides,
        "flags": {flag: value.flags[flag] for flag in
                  ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED")},
        "base-is-owner": value.base is owner,
        "base-is-array": type(value.base) is np.ndarray,
        "base-owns": value.base is not None and value.base.flags.owndata,
        "shares-memory": np.shares_memory(value, flat),
    }


def _flat_inputs() -> dict[str, np.ndarray]:
    values = np.array([0.25, -0.0, 1e-320, np.inf, 3.0, -1.5, 7.0, 2.0])
    big = np.arange(20, dtype=np.float64) / 4
    readonly = values.astype(np.float32)
    readonly.flags.writeable = False
    return {
        "float32": values.astype(np.float32),
        "float64": values,
        "float64-view-of-a-view": big[1:][2:10],
        "float64-strided": big[::2][:8],
        "float32-read-only": readonly,
        "float64-nan": np.where(np.arange(8) == 1, np.nan, values),
        "float64-overflows-float32": np.where(np.arange(8) == 4, 1e300, values),
        "float64-underflows-float32": np.where(np.arange(8) == 2, 1e-40, values),
        "float64-big-endian": values.astype(">f8"),
        "float16": values.astype(np.float16),
        "int64": np.arange(8),
    }


LEAF_SPACES = {
    "float32": lambda L: L.Dict(a=L.Box(-1, 1, (3,)), b=L.Box(-1, 1, (5,))),
    "float64": lambda L: L.Dict(a=L.Box(-1, 1, (3,), np.float64), b=L.Box(-1, 1, (5,), np.float64)),
    "mixed-shapes": lambda L: L.Tuple((L.Box(-1, 1, (2, 2)), L.Box(-1, 1, ()), L.Box(-1, 1, (3,)))),
    "int-box": lambda L: L.Dict(a=L.Box(0, 9, (3,), np.int32), b=L.Box(-1, 1, (5,))),
    "short-last": lambda L: L.Dict(a=L.Box(-1, 1, (3,)), b=L.Box(-1, 1, (9,))),
}


@pytest.mark.parametrize("errstate", ["default", "raise"])
@pytest.mark.parametrize("flat_name", list(_flat_inputs()))
@pytest.mark.parametrize("space_name", list(LEAF_SPACES))
def test_unflatten_box_leaves_match_gymnasium(space_name, flat_name, errstate):
    """Views of the flat array when the dtypes agree, views of a cast copy when
    they do not; warnings and floating-point errors of the cast (overflow,
    underflow, under ``np.errstate``) and values exactly Gymnasium's."""
    results = {}
    for name, (lib, _, utils) in LIBS.items():
        flat = _flat_inputs()[flat_name]
        with np.errstate(**({"all": "raise"} if errstate == "raise" else {})):
            results[name] = (outcome(lambda: utils.unflatten(LEAF_SPACES[space_name](lib), flat)), flat)
    (got, our_flat), (expected, their_flat) = results["gs"], results["gym"]
    assert_same_outcome(got, expected)
    assert got.warnings == expected.warnings
    if got.raised:
        return
    leaves = list(got.value.values() if isinstance(got.value, dict) else got.value)
    gym_leaves = list(expected.value.values() if isinstance(expected.value, dict) else expected.value)
    for ours, theirs in zip(leaves, gym_leaves):
        assert_same_value(ours, theirs)
        assert _leaf_relations(ours, our_flat) == _leaf_relations(theirs, their_flat)


def test_unflatten_box_view_keeps_reference_counts():
    space = gs.Dict(a=gs.Box(-1, 1, (3,)), b=gs.Box(-1, 1, (2,), np.float64))
    flat32 = np.arange(5, dtype=np.float32)
    flat64 = np.arange(5, dtype=np.float64)
    before = [sys.getrefcount(flat32), sys.getrefcount(flat64)]
    for _ in range(1000):
        value = gs_utils.unflatten(space, flat32)
        value = gs_utils.unflatten(space, flat64)
    assert value["b"].base is flat64 and value["a"].base is not flat64
    del value
    assert [sys.getrefcount(flat32), sys.getrefcount(flat64)] == before


# --------------------------------------------------------------------------- flatten of trees


def _flatten_both(build: Any, seed: int = 0) -> None:
    """flatten/unflatten of one sample through both libraries, compared exactly."""
    results = []
    for name in ("gs", "gym"):
        lib, _, utils = LIBS[name]
        space = build(lib)
        space.seed(seed)
        x = space.sample()
        results.append(outcome(lambda: (utils.flatten(space, x), utils.unflatten(space, utils.flatten(space, x)))))
    assert_same_outcome(*results)
    if not results[0].raised:
        for ours, theirs in zip(results[0].value, results[1].value):
            assert_same_value(ours, theirs)


def test_flatten_promotions_follow_each_dtype_combination():
    """The promotion memo is keyed by dtype identity: many combinations, reused
    and evicted, equal-but-distinct dtypes (metadata), all promote as numpy does."""
    dtypes = [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64]
    with_metadata = np.dtype(np.float32, metadata={"unit": "m"})
    combos = [(a, b) for a in dtypes for b in dtypes] + [(with_metadata, np.int8), (np.float32, np.int8)]
    for _ in range(2):  # the second pass hits the memo (or its evicted slots)
        for a, b in combos:
            _flatten_both(lambda L, a=a, b=b: L.Dict(x=L.Box(0, 1, (2,), a), y=L.Box(0, 1, (1,), b)))
            _flatten_both(lambda L, a=a, b=b: L.Tuple((L.Box(0, 1, (1,), a), L.Discrete(3, dtype=b)
                                                       if np.dtype(b).kind in "iu" else L.Box(0, 1, (2,), b))))


def test_flatten_of_large_trees_matches_gymnasium():
    """More leaves and one-hot positions than the kernel keeps inline."""
    _flatten_both(lambda L: L.Dict({f"k{i:02d}": L.Box(-1, 1, (2,)) if i % 3 else L.Discrete(4) for i in range(40)}))
    _flatten_both(lambda L: L.Tuple(tuple(L.MultiDiscrete([2, 3, 4, 5, 6] * 3) for _ in range(5))))
    _flatten_both(lambda L: L.Dict(a=L.MultiDiscrete(np.full((7, 9), 3)), b=L.Tuple((L.Discrete(2),) * 20)))


def test_flatten_tree_keeps_reference_counts():
    space = dict4(gs)
    x = space.sample()
    values = list(x.values())
    before = [sys.getrefcount(value) for value in values]
    for _ in range(1000):
        flat = gs_utils.flatten(space, x)
        gs_utils.flatten(space, x, out=flat)
    assert [sys.getrefcount(value) for value in values] == before
