"""The compiled fast paths (contains, concatenate) agree with Gymnasium on unusual inputs.

Each kernel handles the common case in C and defers everything else to the
general rules; these tests feed both kinds of input and compare exactly.
"""

from __future__ import annotations

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
