"""``sample_batch`` and ``contains_batch`` (beyond Gymnasium).

The stream definition under test: ``space.sample_batch(n, ...)`` equals ``n``
successive ``space.sample(...)`` calls on an identically seeded twin, stacked
by ``vector.concatenate`` into ``vector.create_empty_array(space, n)`` (a tuple
of the samples for spaces whose batch is one), and leaves every generator of
the tree in the twin's state. ``contains_batch``
equals ``contains`` of every item ``vector.iterate`` yields.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from support.composite_helpers import assert_same_nesting
from support.recipes import recipe_params
from support.spaces_corpus import ALL_RECIPES, COMPOSITE_CORPUS

import gymspaces
import gymspaces.vector as vector
from gymspaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Text, Tuple
from gymspaces.error import Error

COUNTS = (0, 1, 7)


def _same_batch_leaf(actual, expected, where):
    if isinstance(expected, np.ndarray):
        assert actual.dtype == expected.dtype and actual.shape == expected.shape, where
        np.testing.assert_array_equal(actual, expected, err_msg=where)
    elif isinstance(expected, np.generic):
        assert actual.dtype == expected.dtype and (actual == expected or (actual != actual and expected != expected))
    else:
        assert actual == expected, where


def assert_identical(actual, expected, where=""):
    """Exact equality of batches: types, dtypes, shapes, values (NaN equal to NaN)."""
    assert_same_nesting(actual, expected, _same_batch_leaf, where)


def states(space):
    """Every generator state of a tree, depth first (``None`` for unset ones)."""
    from support.composite_helpers import generators

    return [None if g is None else g.bit_generator.state for _, g in generators(space)]


def looped(space, n, **kwargs):
    """The reference: ``n`` sample() calls on ``space``, stacked as a batch."""
    rows = []
    for i in range(n):
        row_kwargs = {key: value[i] if isinstance(value, list) else value for key, value in kwargs.items()}
        rows.append(space.sample(**row_kwargs))
    if n == 0:
        return vector.create_empty_array(space, 0)
    if isinstance(space, (gymspaces.Text, gymspaces.Sequence, gymspaces.Graph, gymspaces.OneOf)):
        return tuple(rows)  # batches of these are tuples of samples: no layout to fill
    return vector.concatenate(space, rows, vector.create_empty_array(space, n))


def assert_batch_matches_loop(space, n, **kwargs):
    twin = copy.deepcopy(space)
    batch_kwargs = {key: (np.stack(value) if value and isinstance(value[0], np.ndarray) else value)
                    if isinstance(value, list) else value for key, value in kwargs.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = looped(twin, n, **kwargs)
        except Exception as error:  # the loop raises: so must the batch, after the same draws
            with pytest.raises(type(error)):
                space.sample_batch(n, **batch_kwargs)
            assert states(space) == states(twin)
            return
        actual = space.sample_batch(n, **batch_kwargs)
    assert_identical(actual, expected, f"{space} n={n}")
    assert states(space) == states(twin)


# --------------------------------------------------------------------------- streams


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_fundamental_batches_are_successive_samples(recipe):
    for n in COUNTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            space = recipe.build(gymspaces, seed=3)
            try:
                space.sample()  # mid-stream
            except (ValueError, OverflowError):
                pass  # spaces whose every sample raises (Gymnasium's quirks): the batch must raise too
        assert_batch_matches_loop(space, n)


@pytest.mark.parametrize("name", list(COMPOSITE_CORPUS))
def test_composite_batches_are_successive_samples(name):
    for seed in range(3):
        space = COMPOSITE_CORPUS[name].build(gymspaces)
        space.seed(seed)
        assert_batch_matches_loop(space, 5)


def test_shared_generator_dicts_interleave_like_the_loop():
    generator = np.random.default_rng(5)
    space = Dict({"a": Box(0, 1, (2,), seed=generator), "b": Discrete(4, seed=generator),
                  "c": Tuple((MultiBinary(3, seed=generator),))})
    assert_batch_matches_loop(space, 6)


def test_errors_of_invalid_ranges_leave_the_loops_state():
    space = Box(np.array([-np.inf, 0.0]), np.array([np.inf, 1.0]), dtype=np.float64, seed=4)
    space.high[1] = -1.0  # edited in place: the uniform pass now raises
    twin = copy.deepcopy(space)
    with pytest.raises(ValueError):
        twin.sample()
    with pytest.raises(ValueError):
        space.sample_batch(3)
    assert states(space) == states(twin)


# --------------------------------------------------------------------------- masks and probabilities


def test_discrete_row_masks_and_broadcast_masks():
    rng = np.random.default_rng(0)
    masks = (rng.random((64, 10)) < 0.4).astype(np.int8)
    masks[3] = 0  # nothing allowed: start, without a draw
    masks[7] = 0
    masks[7, 9] = 1  # exactly one allowed
    for start in (0, -5):
        space = Discrete(10, start=start, seed=1)
        assert_batch_matches_loop(space, 64, mask=list(masks))
        twin = copy.deepcopy(space)
        batch = space.sample_batch(64, mask=masks[0])
        assert_identical(batch, looped(twin, 64, mask=masks[0]))


def test_discrete_row_probabilities():
    rng = np.random.default_rng(1)
    weights = rng.random((32, 6))
    weights[4, :3] = 0
    probabilities = weights / weights.sum(axis=1, keepdims=True)
    for dtype in (np.int64, np.int8, np.uint16):
        space = Discrete(6, start=2, dtype=dtype, seed=2)
        assert_batch_matches_loop(space, 32, probability=list(probabilities))


def test_multi_discrete_and_multi_binary_masks_have_a_leading_axis():
    rng = np.random.default_rng(2)
    space = MultiDiscrete([3, 4], seed=3)
    leaf0 = (rng.random((5, 3)) < 0.6).astype(np.int8)
    leaf1 = (rng.random((5, 4)) < 0.6).astype(np.int8)
    twin = copy.deepcopy(space)
    batch = space.sample_batch(5, mask=(leaf0, leaf1))
    expected = np.stack([twin.sample(mask=(leaf0[i], leaf1[i])) for i in range(5)])
    assert_identical(batch, expected)

    binary = MultiBinary((2, 3), seed=4)
    masks = rng.integers(0, 3, size=(6, 2, 3)).astype(np.int8)
    assert_batch_matches_loop(binary, 6, mask=list(masks))


def test_dict_and_text_masks():
    space = Dict({"d": Discrete(3), "t": Text(4, charset="abc")}, seed=5)
    d_masks = np.array([[1, 0, 1]] * 4, dtype=np.int8)
    t_masks = [(None, np.array([1, 1, 0], np.int8))] * 4
    twin = copy.deepcopy(space)
    batch = space.sample_batch(4, mask={"d": d_masks, "t": t_masks})
    rows = [twin.sample(mask={"d": d_masks[i], "t": t_masks[i]}) for i in range(4)]
    assert_identical(batch, vector.concatenate(twin, rows, vector.create_empty_array(twin, 4)))
    assert states(space) == states(twin)


def test_bad_rows_raise_what_sample_raises_after_the_same_draws():
    masks = np.ones((4, 5), dtype=np.int8)
    masks[2, 1] = 2
    space = Discrete(5, seed=6)
    twin = copy.deepcopy(space)
    with pytest.raises(AssertionError, match="0 or 1"):
        space.sample_batch(4, mask=masks)
    twin.sample(mask=masks[0])
    twin.sample(mask=masks[1])
    assert states(space) == states(twin)


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16])
@pytest.mark.parametrize("layout", ["c", "fortran", "strided"])
def test_discrete_row_masks_in_any_layout_and_dtype(dtype, layout):
    """The one-loop masked batch reads rows through their strides, and stores in the space's dtype."""
    rng = np.random.default_rng(3)
    wide = (rng.random((48, 14)) < 0.5).astype(np.int8)
    masks = {"c": wide[:, :7].copy(), "fortran": np.asfortranarray(wide[:, :7]), "strided": wide[:, ::2]}[layout]
    masks[5] = 0
    space = Discrete(7, start=3, dtype=dtype, seed=8)
    twin = copy.deepcopy(space)
    batch = space.sample_batch(48, mask=masks)
    assert_identical(batch, np.array([twin.sample(mask=np.ascontiguousarray(row)) for row in masks], dtype=dtype))
    assert states(space) == states(twin)


@pytest.mark.parametrize("shared", [False, True])
def test_bad_mask_row_message_is_samples(shared):
    masks = np.ones((6, 4), dtype=np.int8)
    masks[3, 2] = -1
    mask = masks[3] if shared else masks
    space = Discrete(4, seed=9)
    twin = copy.deepcopy(space)
    with pytest.raises(AssertionError) as batch_error:
        space.sample_batch(6, mask=mask)
    for row in range(0 if shared else 3):
        twin.sample(mask=masks[row])
    with pytest.raises(AssertionError) as sample_error:
        twin.sample(mask=masks[3])
    assert str(batch_error.value) == str(sample_error.value)
    assert states(space) == states(twin)


@pytest.mark.parametrize("call, error", [
    (lambda s: s.sample_batch(3, mask=np.ones((2, 5), np.int8)), ValueError),
    (lambda s: s.sample_batch(3, mask=np.ones((3, 5, 1), np.int8)), ValueError),
    (lambda s: s.sample_batch(3, mask=[[1] * 5] * 3), TypeError),
    (lambda s: s.sample_batch(3, mask=np.ones((3, 4), np.int8)), AssertionError),
    (lambda s: s.sample_batch(3, mask=np.ones((3, 5), np.int8), probability=np.ones(5) / 5), ValueError),
    (lambda s: s.sample_batch(-1), ValueError),
    (lambda s: s.sample_batch(2.5), TypeError),
    (lambda s: s.sample_batch(2, out=np.zeros(3, np.int64)), ValueError),
    (lambda s: s.sample_batch(2, out=np.zeros(2, np.float64)), ValueError),
    (lambda s: s.sample_batch(2, out=[0, 0]), TypeError),
])
def test_bad_batch_arguments(call, error):
    with pytest.raises(error):
        call(Discrete(5, seed=0))


def test_box_rejects_masks_like_sample():
    with pytest.raises(Error):
        Box(0, 1, (2,)).sample_batch(2, mask=np.ones((2, 2)))


# --------------------------------------------------------------------------- out


def test_out_is_written_in_place():
    space = Dict({"b": Box(-1, 1, (2, 3)), "d": Discrete(4), "m": MultiBinary(5), "md": MultiDiscrete([2, 3])}, seed=7)
    twin = copy.deepcopy(space)
    out = vector.create_empty_array(space, 8)
    leaves = {key: out[key] for key in out}
    result = space.sample_batch(8, out=out)
    assert result is out
    for key in leaves:
        assert result[key] is leaves[key]
    assert_identical(result, looped(twin, 8))


@pytest.mark.parametrize("bad", [
    np.zeros((4, 3), np.float64),            # wrong dtype
    np.zeros((4, 2), np.float32),            # wrong shape
    np.zeros((3, 4), np.float32).T,          # not C-contiguous
    np.zeros((4, 3), ">f4"),                 # non-native
])
def test_box_out_must_fit(bad):
    with pytest.raises(ValueError):
        Box(0, 1, (3,), np.float32, seed=0).sample_batch(4, out=bad)


def test_read_only_out_is_rejected():
    out = np.zeros((4, 3), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError):
        Box(0, 1, (3,), np.float32, seed=0).sample_batch(4, out=out)


# --------------------------------------------------------------------------- contains_batch


def _reference_contains(space, batch):
    n = len(next(iter(batch.values()))) if isinstance(batch, dict) else len(batch)
    batched = vector.batch_space(space, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array([space.contains(item) for item in vector.iterate(batched, batch)], dtype=bool)


@pytest.mark.parametrize("space, batch", [
    (Box(-1, 1, (3,), np.float32), np.array([[0, 0, 0], [0, 2, 0], [np.nan, 0, 0], [-1, 1, 0]], np.float32)),
    (Box(-1, 1, (3,), np.float32), np.zeros((2, 3), np.float64)),   # not castable to float32
    (Box(-1, 1, (3,), np.float32), np.zeros((2, 4), np.float32)),   # wrong row shape
    (Box(0, 255, (2, 2), np.uint8), np.array([[[0, 255], [3, 4]], [[0, 1], [2, 3]]], np.int64)),
    (Box(0, 1, (), np.float64), np.array([0.5, 1.5, -0.0])),
    (Discrete(5, start=-2), np.array([-3, -2, 0, 2, 3])),
    (Discrete(5), np.array([0, 1, 4], np.uint8)),
    (Discrete(5, dtype=np.int8), np.array([0, 1, 300], np.int16)),   # int16 not castable to int8
    (Discrete(5), np.array([0.0, 1.0])),
    (Discrete(5), np.array([True, False])),
    (Discrete(5), np.array([[1], [2]])),
    (Discrete(5), np.array([2**63 - 1, 0], np.uint64)),
    (MultiDiscrete([3, 4], start=[1, -1]), np.array([[1, -1], [3, 2], [4, 0], [0, 0]])),
    (MultiDiscrete([3, 4], dtype=np.int8), np.array([[0, 1], [2, 3]], np.int64)),
    (MultiBinary(3), np.array([[0, 1, 1], [0, 2, 1]], np.int8)),
    (MultiBinary(3), np.array([[0.0, 1.0, 1.0]])),
    (Text(3), ("ab", "abcd", "")),
])
def test_contains_batch_matches_item_by_item(space, batch):
    verdict = space.contains_batch(batch)
    assert verdict.dtype == np.bool_
    np.testing.assert_array_equal(verdict, _reference_contains(space, batch))


def test_composite_contains_batch():
    space = Dict({"b": Box(-1, 1, (2,)), "d": Discrete(3), "t": Tuple((MultiBinary(2), Discrete(2)))}, seed=0)
    batch = space.sample_batch(6)
    batch["b"][2, 0] = 5.0
    batch["t"][1][4] = 7
    expected = _reference_contains(space, batch)
    np.testing.assert_array_equal(space.contains_batch(batch), expected)
    assert expected.tolist() == [True, True, False, True, False, True]
    # A batch must have exactly the space's keys, as a Tuple batch its length.
    with pytest.raises(TypeError, match="exactly its keys"):
        space.contains_batch({"b": batch["b"], "d": batch["d"]})
    with pytest.raises(TypeError, match="exactly its keys"):
        space.contains_batch({**batch, "extra": batch["d"]})
    with pytest.raises(TypeError):
        Tuple((Discrete(2), Discrete(3))).contains_batch((np.array([0]),))
    with pytest.raises(ValueError):
        space.contains_batch({**batch, "d": batch["d"][:3]})


def test_empty_batches():
    for space in (Box(0, 1, (2,)), Discrete(3), MultiDiscrete([2]), MultiBinary(2)):
        empty = space.sample_batch(0)
        assert len(empty) == 0
        assert space.contains_batch(empty).shape == (0,)


@pytest.mark.parametrize("build", [
    lambda: MultiDiscrete([5, 2, 3]),
    lambda: MultiDiscrete([3, 4], dtype=np.int8, start=[-128, 120]),
    lambda: MultiDiscrete([6, 2], dtype=np.uint8, start=[250, 0]),   # 250..255 fits; compiled
    lambda: MultiDiscrete([9, 2], dtype=np.int8, start=[120, 0]),    # 120..128 overflows: loop
    lambda: MultiDiscrete([[2, 3], [4, 5]]),                          # 2-D nvec: loop
])
def test_multi_discrete_row_masks(build):
    space = build()
    space.seed(9)
    rng = np.random.default_rng(3)
    n = 12
    flat_nvec = space.nvec.reshape(-1)

    def leaf(k, broadcast):
        shape = (k,) if broadcast else (n, k)
        return (rng.random(shape) < 0.5).astype(np.int8)

    if space.nvec.ndim == 1:
        batched = tuple(leaf(int(k), broadcast=(i == 1)) for i, k in enumerate(flat_nvec))
        rows = [tuple(part if part.ndim == 1 else part[r] for part in batched) for r in range(n)]
    else:
        batched = tuple(tuple(leaf(int(k), False) for k in row) for row in space.nvec)
        rows = [tuple(tuple(part[r] for part in group) for group in batched) for r in range(n)]
    twin = copy.deepcopy(space)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = np.stack([twin.sample(mask=row) for row in rows])
        except OverflowError:  # values past the dtype: Gymnasium's np.array(..., dtype) raises
            with pytest.raises(OverflowError):
                space.sample_batch(n, mask=batched)
            assert states(space) == states(twin)
            return
        actual = space.sample_batch(n, mask=batched)
    assert_identical(actual, expected)
    assert states(space) == states(twin)


def test_multi_discrete_bad_row_stops_where_the_loop_stops():
    space = MultiDiscrete([3, 3], seed=2)
    first = np.ones((4, 3), np.int8)
    second = np.ones((4, 3), np.int8)
    second[2, 0] = 5
    twin = copy.deepcopy(space)
    with pytest.raises(AssertionError, match="0 or 1"):
        space.sample_batch(4, mask=(first, second))
    for r in range(2):
        twin.sample(mask=(first[r], second[r]))
    # Row 2: entry 0 is drawn, then entry 1's mask fails, as in the loop.
    MultiDiscrete([3], seed=twin.np_random).sample(mask=(first[2],))
    assert states(space) == states(twin)


def test_multi_binary_broadcast_mask_and_bad_row():
    space = MultiBinary((2, 3), seed=8)
    mask = np.array([[0, 1, 2], [2, 2, 1]], dtype=np.int8)
    assert_batch_matches_loop(space, 5, mask=[mask] * 5)
    twin = copy.deepcopy(space)
    np.testing.assert_array_equal(space.sample_batch(5, mask=mask), looped(twin, 5, mask=mask))
    rows = np.stack([mask] * 4)
    rows[3, 0, 0] = 3
    twin = copy.deepcopy(space)
    with pytest.raises(AssertionError, match="0, 1 or 2"):
        space.sample_batch(4, mask=rows)
    for r in range(3):
        twin.sample(mask=rows[r])
    assert states(space) == states(twin)


# --------------------------------------------------------------------------- the plain Tuple/Dict path

PLAIN_CHILDREN = {
    "box-f32": lambda seed: Box(-1, 1, (3,), np.float32, seed=seed),
    "box-unbounded": lambda seed: Box(-np.inf, np.inf, (2,), np.float64, seed=seed),
    "discrete": lambda seed: Discrete(5, start=-2, seed=seed),
    "multi-discrete": lambda seed: MultiDiscrete([3, 4], seed=seed),
    "multi-binary": lambda seed: MultiBinary((2, 2), seed=seed),
    "text": lambda seed: Text(4, charset="xyz", seed=seed),
}


def direct_spaces(seeds):
    """Dicts and Tuples of every fundamental child, children seeded as ``seeds`` says."""
    children = [build(seed) for build, seed in zip(PLAIN_CHILDREN.values(), seeds)]
    yield Dict(dict(zip(PLAIN_CHILDREN, children)))
    yield Tuple(tuple(copy.deepcopy(children)))


@pytest.mark.parametrize("seeds", [range(6), [7, 0, 2, 9, 3, 5]])
@pytest.mark.parametrize("n", COUNTS + (64,))
def test_direct_composites_sample_what_the_loop_samples(seeds, n, monkeypatch):
    from gymspaces import _composite

    for space in direct_spaces(list(seeds)):
        general = copy.deepcopy(space)
        plain = copy.deepcopy(space)
        assert_batch_matches_loop(space, n)
        # ... and what the general child-by-child path draws, generators included.
        with monkeypatch.context() as patch:
            for module in (_composite, gymspaces.dict, gymspaces.tuple):
                patch.setattr(module, "direct_sample_batch", lambda *args: None)
            expected = general.sample_batch(n)
        assert_identical(plain.sample_batch(n), expected, str(space))
        assert states(plain) == states(general)


def test_direct_composites_of_unseeded_children_seed_them_once():
    for space in direct_spaces([None] * 6):
        first = space.sample_batch(3)
        assert space.contains_batch(first).all()
        again = copy.deepcopy(space)
        assert_identical(space.sample_batch(5), again.sample_batch(5))


def test_direct_path_is_taken_only_for_unshared_fundamental_children(monkeypatch):
    from gymspaces import _composite

    taken = []
    real = _composite.direct_sample_batch

    def spy(*args):
        result = real(*args)
        taken.append(result is not None)
        return result

    for module in (gymspaces.dict, gymspaces.tuple):
        monkeypatch.setattr(module, "direct_sample_batch", spy)
    shared = np.random.default_rng(1)
    cases = [
        (Dict({"a": Box(0, 1, (2,), seed=1), "b": Discrete(3, seed=2)}, seed=0), {}, True),
        (Tuple((Box(0, 1, (2,)), Discrete(3)), seed=0), {}, True),
        (Dict({"a": Box(0, 1, (2,), seed=shared), "b": Discrete(3, seed=shared)}), {}, False),
        (Tuple((Box(0, 1, (2,), seed=shared), Discrete(3, seed=shared))), {}, False),
        # A composite child: the general path, which batches the child Tuple the plain way.
        (Dict({"a": Box(0, 1, (2,), seed=1), "t": Tuple((Discrete(3),))}, seed=0), {}, [False, True]),
        (Dict({"a": Box(0, 1, (2,), seed=1), "b": Discrete(3, seed=2)}, seed=0),
         {"mask": {"a": None, "b": np.array([1, 0, 1], dtype=np.int8)}}, False),
        (Dict({"a": Box(0, 1, (2,), seed=1), "b": Discrete(3, seed=2)}, seed=0),
         {"probability": {"a": None, "b": None}}, False),
        (Tuple((Box(0, 1, (2,)), Discrete(3)), seed=0), {"out": (np.zeros((4, 2), np.float32), np.zeros(4, np.int64))},
         False),
    ]
    for space, kwargs, fast in cases:
        taken.clear()
        twin = copy.deepcopy(space)
        batch = space.sample_batch(4, **kwargs)
        assert taken == (fast if isinstance(fast, list) else [fast]), (space, kwargs)
        expected = looped(twin, 4, **{key: value for key, value in kwargs.items() if key != "out"})
        assert_identical(batch, expected, str(space))
        assert states(space) == states(twin)
    # The parent's own generator shared by a child: the general path decides.
    parent = Dict({"a": Box(0, 1, (2,))}, seed=3)
    parent.spaces["a"]._np_random = parent._np_random
    taken.clear()
    parent.sample_batch(2)
    assert taken == [False]


@pytest.mark.parametrize("n, error", [(-1, ValueError), (2.0, TypeError), ("3", TypeError), (None, TypeError)])
def test_plain_composites_reject_bad_counts_before_drawing(n, error):
    for space in direct_spaces(range(6)):
        before = states(space)
        with pytest.raises(error):
            space.sample_batch(n)
        assert states(space) == before


def test_plain_path_kernel_holds_no_references():
    import sys

    from gymspaces import _direct_batch

    space = Dict({"a": Box(0, 1, (2,), seed=1), "b": Discrete(3, seed=2), "c": MultiDiscrete([2, 3], seed=4)}, seed=0)
    tuple_space = Tuple(tuple(copy.deepcopy(list(space.spaces.values()))), seed=0)
    count = 10**6 + 1  # an int that is not cached: its count is checked too
    watched = [space, space.spaces, tuple_space, tuple_space.spaces, count, *space.spaces.values(),
               *(child._np_random for child in space.spaces.values())]
    space.sample_batch(1)  # the children's own per-generator tables are built on first use
    tuple_space.sample_batch(1)
    before = [sys.getrefcount(obj) for obj in watched]
    for _ in range(20):
        batch = _direct_batch.sample_directly(space, space.spaces, 3)
        rows = _direct_batch.sample_directly(tuple_space, tuple_space.spaces, 3)
        assert _direct_batch.sample_directly(space, list(space.spaces.values()), count) is None
    assert [sys.getrefcount(obj) for obj in watched] == before
    assert sys.getrefcount(batch) == 2 and sys.getrefcount(rows) == 2
    # Each value is held by the dict alone, as a new dict's new values are (what
    # getrefcount counts besides differs: 3.14 no longer counts the loop's name).
    alone = {key: object() for key in batch}
    assert [sys.getrefcount(value) for value in batch.values()] == [sys.getrefcount(value) for value in alone.values()]
    assert list(batch) == ["a", "b", "c"]


def test_subclasses_and_large_trees_take_the_general_path():
    class MyBox(Box):
        pass

    cases = [
        Dict({"a": MyBox(0, 1, (2,), seed=1), "b": Discrete(3, seed=2)}),
        Tuple(tuple(Discrete(3, seed=i) for i in range(70))),
        Dict({f"k{i}": Discrete(2 + i % 3, seed=i) for i in range(70)}),
    ]
    for space in cases:
        assert_batch_matches_loop(space, 5)
