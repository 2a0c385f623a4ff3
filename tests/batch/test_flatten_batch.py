"""``flatten(space, x, out=...)`` and ``flatten_batch`` (beyond Gymnasium).

``flatten(..., out=buf)`` must leave exactly ``flatten(space, x)`` in ``buf``;
row ``i`` of ``flatten_batch(space, batch)`` must be ``flatten(space, item_i)``
for the items ``iterate`` yields, dtype included.
"""

from __future__ import annotations

import numpy as np
import pytest
from support.spaces_corpus import COMPOSITE_CORPUS

import gymspaces
import gymspaces.utils as utils
import gymspaces.vector as vector
from gymspaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Text, Tuple

SPACES = {
    "box-f32": lambda: Box(-1, 1, (2, 3), np.float32),
    "box-u8-image": lambda: Box(0, 255, (8, 8, 3), np.uint8),
    "box-f16": lambda: Box(-2, 2, (3,), np.float16),
    "discrete-start": lambda: Discrete(5, start=-2),
    "discrete-int8": lambda: Discrete(7, dtype=np.int8),
    "multi-discrete-2d": lambda: MultiDiscrete([[2, 3], [4, 5]], start=[[0, 1], [-1, 2]]),
    "multi-binary": lambda: MultiBinary((2, 2)),
    "text": lambda: Text(5, charset="abc"),
    "dict4": lambda: Dict({"a": Box(-1, 1, (3,)), "b": Box(-1, 1, (3,)), "c": Discrete(5),
                           "d": MultiDiscrete([3, 4])}),
    "tuple-mixed-dtypes": lambda: Tuple((Discrete(3, dtype=np.int16), MultiBinary(2), Box(0, 1, (2,), np.float16))),
    "nested": lambda: Dict({"t": Tuple((Discrete(2), Dict({"m": MultiDiscrete([2, 2], dtype=np.uint8)}))),
                            "x": Box(-5, 5, (), np.int32)}),
}


def reference_rows(space, batch, n):
    return [utils.flatten(space, item) for item in vector.iterate(vector.batch_space(space, n), batch)]


@pytest.mark.parametrize("name", list(SPACES))
@pytest.mark.parametrize("n", [1, 6])
def test_flatten_batch_rows_are_flatten_of_items(name, n):
    space = SPACES[name]()
    space.seed(1)
    batch = space.sample_batch(n)
    expected = np.stack(reference_rows(space, batch, n))
    actual = utils.flatten_batch(space, batch)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)
    out = np.full(expected.shape, 99, dtype=expected.dtype)
    assert utils.flatten_batch(space, batch, out=out) is out
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("name", [k for k, v in COMPOSITE_CORPUS.items()
                                  if v.build(gymspaces).is_np_flattenable and k not in ("Tuple()", "Dict()")])
def test_flatten_batch_over_the_composite_corpus(name):
    space = COMPOSITE_CORPUS[name].build(gymspaces)
    space.seed(2)
    batch = space.sample_batch(4)
    np.testing.assert_array_equal(utils.flatten_batch(space, batch), np.stack(reference_rows(space, batch, 4)))


@pytest.mark.parametrize("batch, error", [
    (np.array([0, 1, 7]), IndexError),          # 7 - 0 past the one-hot: flatten's own IndexError
    (np.array([0.0, 1.0]), IndexError),         # floats index nothing
])
def test_unusual_discrete_batches_follow_flatten(batch, error):
    space = Discrete(5)
    with pytest.raises(error):
        reference_rows(space, batch, len(batch))
    with pytest.raises(error):
        utils.flatten_batch(space, batch)


def test_discrete_below_start_sets_a_bit_from_the_end_like_flatten():
    space = Discrete(5, start=2)
    batch = np.array([0, 3])  # 0 - 2 = -2: Gymnasium's one-hot sets index -2
    np.testing.assert_array_equal(utils.flatten_batch(space, batch), np.stack(reference_rows(space, batch, 2)))


@pytest.mark.parametrize("name", list(SPACES))
def test_flatten_into_out(name):
    space = SPACES[name]()
    space.seed(3)
    x = space.sample()
    expected = utils.flatten(space, x)
    out = np.full(expected.shape, 7, dtype=expected.dtype)
    assert utils.flatten(space, x, out=out) is out
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("bad, error", [
    (np.zeros(17), ValueError),
    (np.zeros(18, np.float32), ValueError),
    (np.zeros((18, 1)), ValueError),
    ([0.0] * 18, TypeError),
])
def test_flatten_out_must_fit(bad, error):
    space = SPACES["dict4"]()
    with pytest.raises(error):
        utils.flatten(space, space.sample(), out=bad)


def test_flatten_batch_out_must_fit():
    space = SPACES["dict4"]()
    batch = space.sample_batch(3)
    for bad, error in [(np.zeros((3, 17)), ValueError), (np.zeros((3, 18), np.float32), ValueError),
                       ("x", TypeError)]:
        with pytest.raises(error):
            utils.flatten_batch(space, batch, out=bad)


def test_unflatten_returns_views_of_box_leaves():
    space = Dict({"a": Box(-1, 1, (2, 3), np.float64), "b": Discrete(3)}, seed=0)
    flat = utils.flatten(space, space.sample())
    restored = utils.unflatten(space, flat)
    assert np.shares_memory(restored["a"], flat)
    restored["a"][0, 0] = 0.25
    assert flat[0] == 0.25


def test_empty_composites_have_no_batch_length():
    for space in (Tuple(()), Dict({})):
        with pytest.raises(ValueError, match="no length"):
            utils.flatten_batch(space, space.sample_batch(3))
