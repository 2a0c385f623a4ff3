"""The compiled fast paths (contains, concatenate) agree with Gymnasium on unusual inputs.

Each kernel handles the common case in C and defers everything else to the
general rules; these tests feed both kinds of input and compare exactly.
"""

from __future__ import annotations

import sys
from collections import OrderedDict

import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest
from support.differential import GS, GYM, outcome
from test_flatten_utils import assert_same_tree, same_outcome

import gymspaces.vector as gs_vector

CONTAINS = {
    "md-int8-space-int64-values": (lambda lib: lib.MultiDiscrete([3, 4], dtype=np.int8), np.array([1, 2])),
    "md-int64-space-int8-values": (lambda lib: lib.MultiDiscrete([3, 4]), np.array([1, 2], np.int8)),
    "md-bool-values": (lambda lib: lib.MultiDiscrete([3, 4]), np.array([True, False])),
    "md-uint-space-negative": (lambda lib: lib.MultiDiscrete([3, 4], dtype=np.uint8), np.array([-1, 0], np.int8)),
    "md-wrapping-upper-bound": (
        lambda lib: lib.MultiDiscrete([100, 1], dtype=np.int8, start=[120, 0]),
        np.array([125, 0], np.int8),
    ),
    "md-fortran": (lambda lib: lib.MultiDiscrete([[2, 3], [4, 5]]), np.asfortranarray(np.array([[1, 2], [3, 4]]))),
    "md-big-endian": (lambda lib: lib.MultiDiscrete([3, 4]), np.array([1, 2], ">i8")),
    "md-float": (lambda lib: lib.MultiDiscrete([3, 4]), np.array([1.0, 2.0])),
    "md-list": (lambda lib: lib.MultiDiscrete([3, 4]), [1, 2]),
    "md-wrong-shape": (lambda lib: lib.MultiDiscrete([3, 4]), np.array([1, 2, 0])),
    "box-same-dtype-out": (lambda lib: lib.Box(-1, 1, (3,)), np.array([0, 2, 0], np.float32)),
    "box-nan": (lambda lib: lib.Box(-1, 1, (3,)), np.array([0, np.nan, 0], np.float32)),
    "box-strided": (lambda lib: lib.Box(-1, 1, (3,)), np.zeros(6, np.float32)[::2]),
    "box-float16": (lambda lib: lib.Box(-1, 1, (2,), np.float16), np.array([0.5, 1.5], np.float16)),
    "box-bool": (lambda lib: lib.Box(0, 1, (2,), bool), np.array([True, False])),
    "discrete-uint64-into-int64": (lambda lib: lib.Discrete(5), np.uint64(3)),
    "discrete-int8-into-uint8": (lambda lib: lib.Discrete(5, dtype=np.uint8), np.int8(3)),
    "discrete-0d-array": (lambda lib: lib.Discrete(5), np.array(3)),
    "discrete-bool": (lambda lib: lib.Discrete(5), True),
}


@pytest.mark.parametrize("build,value", CONTAINS.values(), ids=CONTAINS.keys())
def test_contains_matches_gymnasium(build, value):
    a = outcome(lambda: build(GS).contains(value))
    b = outcome(lambda: build(GYM).contains(value))
    same_outcome(a, b, "contains")
    assert a.warnings == b.warnings


def _dict(lib):
    return lib.Dict({"b": lib.Box(-1, 1, (2,)), "d": lib.Discrete(3), "m": lib.MultiBinary(2)})


CONCATENATE = {
    "dict-samples": (_dict, lambda lib, s: [s.sample() for _ in range(4)]),
    "dict-float64-boxes": (
        _dict,
        lambda lib, s: [{"b": np.zeros(2), "d": np.int64(1), "m": np.ones(2, np.int8)} for _ in range(3)],
    ),
    "dict-python-ints": (
        _dict,
        lambda lib, s: [{"b": np.zeros(2, np.float32), "d": 2, "m": [0, 1]} for _ in range(3)],
    ),
    "dict-tuple-of-items": (_dict, lambda lib, s: tuple(s.sample() for _ in range(2))),
    "dict-wrong-row-shape": (
        _dict,
        lambda lib, s: [{"b": np.zeros(3, np.float32), "d": np.int64(1), "m": np.ones(2, np.int8)}] * 2,
    ),
    "dict-missing-key": (_dict, lambda lib, s: [{"b": np.zeros(2, np.float32)}]),
    "tuple-nested": (
        lambda lib: lib.Tuple((lib.Discrete(2), lib.Dict({"x": lib.MultiDiscrete([2, 3])}))),
        lambda lib, s: [s.sample() for _ in range(5)],
    ),
    "box-strided-rows": (lambda lib: lib.Box(0, 1, (2,)), lambda lib, s: [np.zeros(4, np.float32)[::2]] * 3),
    "box-generator-items": (lambda lib: lib.Box(0, 1, (2,)), lambda lib, s: (np.ones(2, np.float32) for _ in range(3))),
    # The Dict/Tuple kernel reads columns straight out of exact dicts and tuples;
    # other containers, keys and scalar types take the general steps.
    "dict-ordereddict-items": (_dict, lambda lib, s: [OrderedDict(s.sample()) for _ in range(3)]),
    "dict-more-rows-than-the-stack-holds": (_dict, lambda lib, s: [s.sample() for _ in range(100)]),
    "dict-longlong-scalars": (
        _dict,
        lambda lib, s: [{"b": np.zeros(2, np.float32), "d": np.longlong(i), "m": np.ones(2, np.int8)} for i in range(3)],
    ),
    "dict-uint8-scalars": (
        _dict,
        lambda lib, s: [{"b": np.zeros(2, np.float32), "d": np.uint8(i), "m": np.ones(2, np.int8)} for i in range(3)],
    ),
    "dict-key-missing-in-a-later-item": (
        _dict,
        lambda lib, s: [s.sample(), {"b": np.zeros(2, np.float32), "m": np.ones(2, np.int8)}],
    ),
    "dict-int-keys": (
        lambda lib: lib.Dict({1: lib.Box(0, 1, (2,)), 2: lib.Discrete(3)}),
        lambda lib, s: [s.sample() for _ in range(3)],
    ),
    "tuple-of-leaves": (
        lambda lib: lib.Tuple((lib.Box(0, 1, (2,)), lib.Discrete(3), lib.MultiBinary(2))),
        lambda lib, s: [s.sample() for _ in range(4)],
    ),
    "tuple-list-items": (
        lambda lib: lib.Tuple((lib.Box(0, 1, (2,)), lib.Discrete(3))),
        lambda lib, s: [list(s.sample()) for _ in range(3)],
    ),
    "tuple-short-item": (
        lambda lib: lib.Tuple((lib.Box(0, 1, (2,)), lib.Discrete(3))),
        lambda lib, s: [s.sample(), (np.zeros(2, np.float32),)],
    ),
    "tuple-object-leaf-values": (
        lambda lib: lib.Tuple((lib.Box(0, 1, (2,)),)),
        lambda lib, s: [(np.array([1, "a"], dtype=object),) for _ in range(2)],
    ),
}


@pytest.mark.parametrize("build,make_items", CONCATENATE.values(), ids=CONCATENATE.keys())
def test_concatenate_matches_gymnasium(build, make_items):
    results = []
    for lib, vector in ((GS, gs_vector), (GYM, gym_vector)):
        space = build(lib)
        space.seed(1)
        items = make_items(lib, space)
        # Generators cannot be measured without consuming them; they all yield 3 items.
        n = len(items) if isinstance(items, (list, tuple)) else 3
        out = vector.create_empty_array(space, n)
        results.append((outcome(lambda: vector.concatenate(space, items, out)), out))
    (gs_result, gs_out), (gym_result, gym_out) = results
    same_outcome(gs_result, gym_result, "concatenate")
    assert_same_tree(gs_out, gym_out, "out after concatenate")
    if not gym_result.raised and isinstance(gym_result.value, np.ndarray):
        assert gs_result.value is gs_out  # the batch is written in place and returned


def test_registering_concatenate_turns_the_kernel_off():
    space = _dict(GS)
    items = [space.sample() for _ in range(2)]
    original = gs_vector.concatenate.dispatch(GS.Discrete)
    try:
        gs_vector.concatenate.register(GS.Discrete, lambda s, items, out: "custom")
        assert gs_vector.concatenate(space, items, gs_vector.create_empty_array(space, 2))["d"] == "custom"
    finally:
        gs_vector.concatenate.register(GS.Discrete, original)
    result = gs_vector.concatenate(space, items, gs_vector.create_empty_array(space, 2))
    assert isinstance(result["d"], np.ndarray)


def _out_containers(lib, space, n):
    """``create_empty_array``'s result with every dict an OrderedDict and every tuple a list."""
    def convert(value):
        if isinstance(value, dict):
            return OrderedDict((key, convert(part)) for key, part in value.items())
        if isinstance(value, tuple):
            return [convert(part) for part in value]
        return value

    return convert(lib.create_empty_array(space, n))


def test_concatenate_into_other_out_containers_matches_gymnasium():
    results = []
    for lib, vector in ((GS, gs_vector), (GYM, gym_vector)):
        space = lib.Dict({"a": _dict(lib), "t": lib.Tuple((lib.Box(0, 1, (2,)), lib.Discrete(2)))}, seed=4)
        items = [space.sample() for _ in range(3)]
        out = _out_containers(vector, space, 3)
        results.append((outcome(lambda: vector.concatenate(space, items, out)), out))
    (gs_result, gs_out), (gym_result, gym_out) = results
    same_outcome(gs_result, gym_result, "concatenate")
    assert type(gs_out) is OrderedDict and type(gs_out["t"]) is list
    # (assert_same_tree compares tuples, not lists)
    gs_out["t"], gym_out["t"] = tuple(gs_out["t"]), tuple(gym_out["t"])
    assert_same_tree(gs_out, gym_out, "out after concatenate")


def test_concatenate_dict_samples_that_view_out():
    """Samples that are rows of ``out`` itself, in reverse order (overlapping copies)."""
    outs = []
    for lib, vector in ((GS, gs_vector), (GYM, gym_vector)):
        space = _dict(lib)
        out = vector.create_empty_array(space, 3)
        out["b"][:] = np.arange(6, dtype=np.float32).reshape(3, 2)
        items = [{"b": out["b"][2 - i], "d": np.int64(i), "m": np.ones(2, np.int8)} for i in range(3)]
        vector.concatenate(space, items, out)
        outs.append(out)
    assert_same_tree(outs[0], outs[1], "out")


def test_concatenate_dict_keeps_reference_counts():
    space = _dict(GS)
    items = [space.sample() for _ in range(8)]
    out = gs_vector.create_empty_array(space, 8)
    values = [value for item in items for value in item.values()] + list(out.values())
    before = [sys.getrefcount(value) for value in values]
    for _ in range(1000):
        result = gs_vector.concatenate(space, items, out)
    assert all(result[key] is out[key] for key in out)
    del result
    assert [sys.getrefcount(value) for value in values] == before
