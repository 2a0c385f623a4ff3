"""Compact pickles: uniform bounds travel as one element (beyond Gymnasium).

A ``Box(0, 255, (84, 84, 3), uint8)`` holds four 21,168-element arrays;
pickled naively that is about 85 kB per space (and per env worker, per
message). Uniform array attributes are pickled as one element and rebuilt
exactly on load; anything else is pickled as it always was, and pickles of
the full form still load.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from gymspaces import Box, Dict, Discrete, MultiDiscrete
from gymspaces.space import compact_array, expand_array


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_same_space_state(restored, original):
    assert restored == original and repr(restored) == repr(original)
    for name, value in vars(original).items():
        if isinstance(value, np.ndarray):
            copy_value = getattr(restored, name)
            assert same_bits(copy_value, value), name
            assert copy_value.flags.writeable and copy_value.flags.c_contiguous, name
    assert restored.np_random.bit_generator.state == original.np_random.bit_generator.state


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_image_box_pickles_in_about_a_kilobyte(protocol):
    space = Box(0, 255, (84, 84, 3), np.uint8, seed=3)
    space.sample()
    data = pickle.dumps(space, protocol=protocol)
    assert len(data) < 1500, len(data)
    restored = pickle.loads(data)
    assert_same_space_state(restored, space)
    np.testing.assert_array_equal(restored.sample(), space.sample())


@pytest.mark.parametrize("build", [
    lambda: Box(-1.0, 1.0, (64, 64), np.float32, seed=0),
    lambda: Box(-np.inf, np.inf, (100,), np.float64, seed=0),
    lambda: Box(np.full(50, -0.0), np.full(50, 0.0), dtype=np.float64, seed=0),
    lambda: MultiDiscrete(np.full((30, 30), 7), seed=0),
    lambda: Dict({"image": Box(0, 255, (84, 84, 3), np.uint8), "d": Discrete(3)}, seed=0),
])
def test_uniform_spaces_round_trip_exactly(build):
    space = build()
    space.sample()
    data = pickle.dumps(space)
    assert len(data) < 4000, len(data)
    restored = pickle.loads(data)
    leaves = [(restored, space)] if not isinstance(space, Dict) else list(zip(restored.spaces.values(), space.spaces.values()))
    for a, b in leaves:
        assert_same_space_state(a, b)
    for copied in (copy.deepcopy(space), restored):
        a, b = copied.sample(), copy.deepcopy(space).sample()
        if isinstance(b, dict):
            for key in b:
                np.testing.assert_array_equal(a[key], b[key])
        else:
            np.testing.assert_array_equal(a, b)


def test_non_uniform_bounds_keep_the_full_form():
    low = np.arange(12, dtype=np.float32).reshape(3, 4)
    space = Box(low, low + 1, seed=0)
    state = space.__getstate__()
    assert isinstance(state["low"], np.ndarray) and isinstance(state["high"], np.ndarray)
    assert_same_space_state(pickle.loads(pickle.dumps(space)), space)


def test_signed_zeros_are_not_uniform():
    values = np.array([0.0, -0.0, 0.0])
    assert compact_array(values) is values
    assert same_bits(expand_array(compact_array(np.full(5, -0.0))), np.full(5, -0.0))


@pytest.mark.parametrize("value", [
    np.full((2, 3), 7, np.int8), np.full(9, np.nan), np.full((4,), True), np.full((3, 0), 1.0),
    np.ones(1), np.asfortranarray(np.ones((3, 2))), np.full(6, 2**63 + 1, np.uint64), np.full(4, 1.5, ">f8"),
])
def test_compact_record_round_trips_bit_for_bit(value):
    restored = expand_array(compact_array(value))
    assert same_bits(restored, value) and restored.flags.writeable


def test_full_form_pickles_still_load(monkeypatch):
    space = Box(0, 255, (84, 84, 3), np.uint8, seed=5)
    space.sample()
    monkeypatch.setattr(Box, "_compact_arrays", ())
    old = pickle.dumps(space)
    monkeypatch.undo()
    assert len(old) > 80_000
    restored = pickle.loads(old)
    assert_same_space_state(restored, space)
    assert len(pickle.dumps(restored)) < 1500
