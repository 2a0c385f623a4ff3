"""The compiled ``flatten_batch`` pass (``_flatten.flatten_rows``) against the rules it replaces.

``flatten_batch`` tries one compiled pass over the tree first and keeps its
leaf-by-leaf numpy encoding and the item-by-item rule for what the pass leaves
aside. Every case here runs twice -- as it is, and with the compiled pass
switched off -- and both runs must agree exactly: same rows, dtype and shape,
or the same exception with the same message, and the same ``out`` contents.
Where the item-by-item definition applies, the rows are also compared with
``flatten`` of every item.
"""

from __future__ import annotations

import sys
from collections import OrderedDict

import numpy as np
import pytest
from support.differential import assert_same_outcome, outcome

import gymspaces.utils as utils
import gymspaces.vector as vector
from gymspaces import Box, Dict, Discrete, Graph, MultiBinary, MultiDiscrete, Sequence, Tuple, _flatten, _flatten_batch


def without_kernel(monkeypatch, call):
    with monkeypatch.context() as patch:
        patch.setattr(_flatten, "flatten_rows", lambda space, batch, out=None: None)
        return outcome(call)


def by_items(space, batch, n):
    return np.stack([utils.flatten(space, item) for item in vector.iterate(vector.batch_space(space, n), batch)])


def check(monkeypatch, space, batch, n=None, out_factory=None, handled=None):
    """flatten_batch with and without the compiled pass: same outcome (and ``out``)."""
    outs = [out_factory() if out_factory else None for _ in range(2)]
    actual = outcome(lambda: utils.flatten_batch(space, batch, out=outs[0]))
    expected = without_kernel(monkeypatch, lambda: utils.flatten_batch(space, batch, out=outs[1]))
    assert_same_outcome(actual, expected, same_message=True)
    if outs[0] is not None and isinstance(outs[0], np.ndarray):
        np.testing.assert_array_equal(outs[0], outs[1])
        # With and without the compiled pass, a call that returns returns the ``out`` it was given.
        for result, out in ((actual, outs[0]), (expected, outs[1])):
            assert result.raised or result.value is out
    if handled is not None:
        assert (_flatten.flatten_rows(space, batch, outs[0] if out_factory else None) is not None) == handled
    if n is not None and not expected.raised:
        reference = by_items(space, batch, n)
        assert actual.value.dtype == reference.dtype
        np.testing.assert_array_equal(actual.value, reference)
    return actual


LEAF_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
               np.float16, np.float32, np.float64]
INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64]


@pytest.mark.parametrize("box_dtype", [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int64, np.uint64])
@pytest.mark.parametrize("discrete_dtype", [np.int8, np.int16, np.int64, np.uint8])
@pytest.mark.parametrize("binary_dtype", [np.int8, np.bool_, np.uint8])
def test_promoted_trees_match_stacked_flatten(monkeypatch, box_dtype, discrete_dtype, binary_dtype):
    space = Dict({
        "box": Box(0, 5, (2, 2), box_dtype),
        "d": Discrete(4, start=1, dtype=discrete_dtype),
        "t": Tuple((MultiBinary(3), MultiDiscrete([3, 2], start=[0, 1], dtype=discrete_dtype))),
    }, seed=3)
    for n in (0, 1, 7, 64):
        batch = space.sample_batch(n)
        check(monkeypatch, space, batch, n if n else None, handled=True)
        # MultiBinary rows given as bool (or another integer type): cast as flatten casts them.
        batch["t"] = (batch["t"][0].astype(binary_dtype), batch["t"][1])
        check(monkeypatch, space, batch, n if n else None, handled=True)


@pytest.mark.parametrize("start", [-7, -1, 0, 3, 2**40])
def test_discrete_starts(monkeypatch, start):
    space = Discrete(6, start=start, seed=1)
    batch = space.sample_batch(20)
    check(monkeypatch, space, batch, 20, handled=True)
    for dtype in INT_DTYPES:
        values = batch - start
        # The same values stored in other integer dtypes (start subtracted: all fit).
        shifted = Discrete(6, seed=0)
        check(monkeypatch, shifted, values.astype(dtype), 20, handled=True)


@pytest.mark.parametrize("values", [
    [0, 1, 6], [-1, 0, 2], [5, 5, 127], [0, -128, 1],
])
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.uint64, np.float64, np.bool_])
def test_out_of_range_and_unusual_discrete_values_take_the_general_rule(monkeypatch, values, dtype):
    space = Discrete(6)
    with np.errstate(all="ignore"):
        batch = np.array(values).astype(dtype)
    check(monkeypatch, space, batch, handled=False if (batch.astype(np.int64) >= 6).any()
          or (np.array(values) < 0).any() or dtype in (np.uint64, np.float64, np.bool_) else None)


@pytest.mark.parametrize("start", [[0, 0], [-3, 2], [5, -5]])
def test_multi_discrete_ranges(monkeypatch, start):
    space = MultiDiscrete([3, 4], start=start, seed=2)
    batch = space.sample_batch(30)
    check(monkeypatch, space, batch, 30, handled=True)
    for delta in ([0, 4], [3, 0], [-1, 0], [0, -1]):
        bad = batch.copy()
        bad[5] = np.array(start) + np.array(delta)
        check(monkeypatch, space, bad, handled=False)


@pytest.mark.parametrize("far", [np.iinfo(np.int64).max, np.iinfo(np.int64).max - 3])
def test_a_value_whose_distance_from_a_negative_start_overflows_int64_takes_the_general_rule(monkeypatch, far):
    # value - start does not fit an int64 (start -5): a signed subtraction in the
    # range check wrapped negative, passed, and wrote a one-hot before ``out``.
    space = MultiDiscrete(np.array([3, 4]), start=np.array([-5, 0]), dtype=np.int64, seed=2)
    batch = space.sample_batch(4)
    batch[2, 0] = far
    check(monkeypatch, space, batch, handled=False)


def test_an_nvec_entry_below_one_takes_the_general_rule(monkeypatch):
    space = MultiDiscrete(np.array([5, 3]), dtype=np.int64, seed=2)
    batch = space.sample_batch(4)
    vars(space)["nvec"] = np.array([5, -3])
    check(monkeypatch, space, batch, handled=False)


def test_an_nvec_entry_past_int32_takes_the_general_rule_without_overflowing_the_offsets(monkeypatch):
    # The running sum of nvec (numpy's int32 offsets) must not overflow int64 on
    # the way to finding it too long.
    space = MultiDiscrete(np.array([3, 4]), dtype=np.int64, seed=2)
    batch = space.sample_batch(4)
    vars(space)["nvec"] = np.array([3, np.iinfo(np.int64).max - 1])
    assert _flatten.flatten_rows(space, batch) is None


def test_multi_dimensional_multi_discrete_and_box(monkeypatch):
    space = Tuple((MultiDiscrete([[2, 3], [4, 5]], start=[[0, 1], [-1, 2]]), Box(-1, 1, (2, 3, 2)),
                   Box(0, 1, ())), seed=4)
    batch = space.sample_batch(9)
    check(monkeypatch, space, batch, 9, handled=True)


def strided(array):
    """The same values in a non-contiguous array (every other row of a doubled batch)."""
    doubled = np.repeat(array, 2, axis=0)
    return doubled[::2]


def test_non_contiguous_byte_swapped_and_fortran_leaves(monkeypatch):
    space = Dict({"b": Box(-1, 1, (3, 2), np.float32), "d": Discrete(5, start=-2),
                  "m": MultiDiscrete([3, 4, 2]), "x": MultiBinary(4)}, seed=5)
    batch = space.sample_batch(16)
    variants = {
        "strided": {key: strided(value) for key, value in batch.items()},
        "swapped": {key: value.astype(value.dtype.newbyteorder(">")) for key, value in batch.items()},
        "fortran": {key: np.asfortranarray(value) for key, value in batch.items()},
        "reversed": {key: value[::-1] for key, value in batch.items()},
        "column-view": {**batch, "b": np.ascontiguousarray(batch["b"].transpose(0, 2, 1)).transpose(0, 2, 1)},
    }
    for name, variant in variants.items():
        check(monkeypatch, space, variant, 16, handled=True)


@pytest.mark.filterwarnings("ignore:Casting complex values")
@pytest.mark.parametrize("dtype", LEAF_DTYPES + [np.complex64, np.longdouble, object])
def test_box_batches_of_other_dtypes_are_cast_as_flatten_casts(monkeypatch, dtype):
    space = Tuple((Box(-3, 3, (2,), np.float32), Box(-3, 3, (2,), np.int16)))
    values = np.array([[0, 1], [2, -3], [1, 1]])
    with np.errstate(all="ignore"):
        batch = (values.astype(dtype), values.astype(dtype))
    check(monkeypatch, space, batch, 3)


def test_mismatched_rows_shapes_and_containers_take_the_general_rule(monkeypatch):
    space = Dict({"a": Box(0, 1, (2,)), "d": Discrete(3)}, seed=6)
    batch = space.sample_batch(4)
    cases = [
        {"a": batch["a"], "d": batch["d"][:3]},                 # rows differ
        {"a": batch["a"][:, :1], "d": batch["d"]},              # shape differs
        {"a": batch["a"]},                                      # key missing
        {**batch, "extra": 1},                                  # extra key: ignored
        OrderedDict(batch),                                     # another mapping
        {"a": list(batch["a"]), "d": batch["d"]},               # not arrays
        [batch["a"], batch["d"]],                               # not a mapping
        {"a": batch["a"], "d": batch["d"].astype(np.float32)},  # float indices
        {"a": batch["a"].astype(np.complex64), "d": batch["d"]},
        {"a": batch["a"][0], "d": batch["d"][0]},               # 0-d leaves
    ]
    for case in cases:
        check(monkeypatch, space, case)
    tuple_space = Tuple((Box(0, 1, (2,)), Discrete(3)))
    for case in [(batch["a"],), [batch["a"], batch["d"]], (batch["a"], batch["d"], batch["d"])]:
        check(monkeypatch, tuple_space, case)


def test_graph_and_sequence_take_the_item_rule(monkeypatch):
    seq = Sequence(Discrete(3), stack=True, seed=1)
    check(monkeypatch, seq, seq.sample_batch(3))
    graph = Graph(Box(0, 1, (2,)), Discrete(2), seed=1)
    check(monkeypatch, graph, graph.sample_batch(2))
    space = Dict({"g": graph, "b": Box(0, 1, (2,))}, seed=2)
    check(monkeypatch, space, space.sample_batch(2))


def test_out_is_filled_checked_and_detached(monkeypatch):
    space = Dict({"a": Box(-1, 1, (2,), np.float64), "d": Discrete(3), "m": MultiDiscrete([2, 2])}, seed=7)
    batch = space.sample_batch(5)
    good = lambda: np.full((5, 9), 7.0)  # noqa: E731
    check(monkeypatch, space, batch, 5, out_factory=good, handled=True)
    for bad in (lambda: np.zeros((5, 8)), lambda: np.zeros((5, 9), np.float32), lambda: np.zeros(45),
                lambda: "x", lambda: np.zeros((5, 9)).astype(">f8"), lambda: np.zeros((9, 5)).T,
                lambda: np.broadcast_to(np.zeros(9), (5, 9))):
        check(monkeypatch, space, batch, out_factory=bad)
    # A leaf that is a view of ``out``: read before ``out`` is overwritten.
    for expected_handled in (True,):
        out = np.zeros((5, 9))
        out[:, :2] = batch["a"]
        shared = {**batch, "a": out[:, :2]}
        reference = by_items(space, batch, 5)
        assert utils.flatten_batch(space, shared, out=out) is out
        np.testing.assert_array_equal(out, reference)
        out2 = np.zeros((5, 9))
        out2[:, 3:5] = batch["a"]
        shared = {**batch, "a": out2[:, 3:5]}
        assert utils.flatten_batch(space, shared, out=out2) is out2
        np.testing.assert_array_equal(out2, reference)


def test_the_kernel_is_used_for_the_common_case_and_leaks_nothing():
    space = Dict({"position": Box(-1, 1, (3,), np.float32), "velocity": Box(-1, 1, (3,), np.float32),
                  "mode": Discrete(5), "buttons": MultiDiscrete([3, 4])}, seed=0)
    batch = space.sample_batch(64)
    assert _flatten.flatten_rows(space, batch) is not None
    leaves = list(batch.values())
    before = [sys.getrefcount(leaf) for leaf in leaves] + [sys.getrefcount(space), sys.getrefcount(batch)]
    for _ in range(50):
        rows = utils.flatten_batch(space, batch)
        utils.flatten_batch(space, batch, out=rows)
        utils.flatten_batch(space, OrderedDict(batch))  # left to the numpy encoding
    after = [sys.getrefcount(leaf) for leaf in leaves] + [sys.getrefcount(space), sys.getrefcount(batch)]
    assert before == after
    assert sys.getrefcount(rows) == 2


def test_the_general_rule_raises_for_out_of_range_rows_as_before(monkeypatch):
    space = Dict({"mode": Discrete(5)})
    with pytest.raises(IndexError):
        utils.flatten_batch(space, {"mode": np.array([0, 9])})
    assert _flatten_batch.flatten_batch is utils.flatten_batch
