"""Memory safety of the kernels that copy or reinterpret array memory.

``concatenate``, ``iterate``, the flatten family, shared memory and
``sample_batch(out=)`` run over a dtype matrix -- every numeric dtype, bool,
float16, object, ``S``/``U``/``V``, structured dtypes with and without an
object field, byte-swapped dtypes -- and are compared with Gymnasium 1.4.0
where it has the function, otherwise with the loop of single-item calls the
batched API stands for. Object leaves are checked for references, API by API
(concatenate, iterate, flatten/unflatten/flatten_batch, shared-memory writes,
``sample_batch(out=)``): the items are freed and the output must still hold
them (a byte copy of the pointers would leave it dangling), with as many
references as Gymnasium's output holds, and none once the output is freed.

The regression tests of issue #13's numbered items are at the end.
"""

from __future__ import annotations

import copy
import weakref
import gc
import sys
from typing import Any

import gymnasium.spaces as gym_spaces
import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest
from support.differential import Outcome, assert_same_outcome, assert_same_value, outcome

import gymspaces
import gymspaces.vector as gs_vector
from gymspaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Sequence, Text, Tuple
from gymspaces.utils import flatten, flatten_batch, unflatten

NUMERIC = [
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
    np.float16, np.float32, np.float64, np.longdouble, np.complex64, np.complex128, np.clongdouble,
    # Widths under their other type codes: ``q``/``Q`` are int64/uint64's twins on
    # Linux and macOS, ``i``/``I`` int32/uint32's on Windows (kept once per code).
    np.longlong, np.ulonglong, np.intc, np.uintc,
]
DTYPES = list({np.dtype(kind).char: np.dtype(kind) for kind in NUMERIC}.values()) + [
    np.dtype(object),
    np.dtype("S3"),
    np.dtype("U3"),
    np.dtype("V4"),
    np.dtype([("a", np.int32), ("b", np.float64)]),
    np.dtype([("a", np.int32), ("b", object)]),
    np.dtype(">i4"),
    np.dtype(">f8"),
    np.dtype("<u2").newbyteorder(">"),
    np.dtype("m8[s]"),
    np.dtype("M8[s]"),
]
IDS = [f"{dtype.str}-{dtype.char}" if dtype.names is None and dtype.kind in "iu" else dtype.str
       if dtype.names is None else "struct" + ("-object" if dtype.hasobject else "") for dtype in DTYPES]


def fresh_objects(count: int) -> list[Any]:
    """Objects that exist nowhere else, so that freeing the items frees them."""
    return [[f"object-{i}-{j}"] for i, j in enumerate(range(count))]


def values_of(dtype: np.dtype, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """A C-contiguous array of ``dtype`` with distinct contents per seed."""
    size = int(np.prod(shape, dtype=np.int64))
    if dtype.hasobject and dtype.names is None:
        array = np.empty(size, dtype=object)
        array[:] = fresh_objects(size)
        return array.reshape(shape)
    if dtype.names is not None:
        array = np.zeros(size, dtype=dtype)
        array["a"] = np.arange(size) + seed
        array["b"] = fresh_objects(size) if dtype.hasobject else np.arange(size) * 0.5 + seed
        return array.reshape(shape)
    if dtype.kind in "SU":
        return np.array([f"{seed % 10}{i % 10}x" for i in range(size)], dtype=dtype).reshape(shape)
    if dtype.kind == "V":
        raw = np.arange(size * dtype.itemsize, dtype=np.uint8) + seed
        return raw.view(dtype).reshape(shape).copy()
    if dtype.kind in "mM":
        return (np.arange(size) + seed).astype(dtype).reshape(shape)
    return ((np.arange(size) + seed) % 2).astype(dtype).reshape(shape)


def object_leaves(array: np.ndarray) -> list[Any]:
    """The Python objects an array holds references to."""
    if array.dtype.names is not None:
        return [object_leaves(array[name]) for name in array.dtype.names if array.dtype[name].hasobject][0]
    return list(array.ravel()) if array.dtype.hasobject else []


def assert_holds_references(build: Any, dtype: np.dtype) -> None:
    """``build(items)`` returns an output holding every object leaf of ``items`` by reference.

    The items are freed after the call: the output must still hold equal objects, and each
    object's reference count must have grown by exactly the output's references.
    """
    if not dtype.hasobject:
        return
    items = [values_of(dtype, (2,), seed) for seed in range(3)]
    leaves = [leaf for item in items for leaf in object_leaves(item)]
    expected = [list(leaf) for leaf in leaves]
    before = [sys.getrefcount(leaf) for leaf in leaves]
    result = build(items)
    del items
    gc.collect()
    # Each leaf: held by ``leaves``, the getrefcount argument, and the output (not the items any more).
    after = [sys.getrefcount(leaf) for leaf in leaves]
    assert all(a == b for a, b in zip(after, before)), (before, after)  # items' reference moved to result
    held = object_leaves(np.asarray(result).reshape(-1)) if not isinstance(result, (tuple, list)) else [
        leaf for row in result for leaf in object_leaves(np.asarray(row))
    ]
    assert [list(value) for value in held] == expected
    assert all(a is b for a, b in zip(held, leaves))
    del result, held
    gc.collect()
    assert [sys.getrefcount(leaf) for leaf in leaves] == [count - 1 for count in before]


# ----------------------------------------------------------------------------
# concatenate
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_concatenate_box_leaf_over_dtypes(dtype: np.dtype) -> None:
    items = [values_of(dtype, (2,), seed) for seed in range(3)]

    def run(lib_space: Any, concatenate: Any) -> Outcome:
        out = np.zeros((3, 2), dtype=dtype) if not dtype.hasobject else np.empty((3, 2), dtype=dtype)
        return outcome(lambda: concatenate(lib_space, copy.copy(items), out))

    ours = run(Box(0, 1, (2,)), gs_vector.concatenate)
    theirs = run(gym_spaces.Box(0, 1, (2,)), gym_vector.concatenate)
    assert_same_outcome(ours, theirs, str(dtype))
    assert_holds_references(
        lambda batch: gs_vector.concatenate(Box(0, 1, (2,)), batch, np.empty((3, 2), dtype=dtype)), dtype
    )


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_concatenate_scalars_over_dtypes(dtype: np.dtype) -> None:
    scalars = [values_of(dtype, (1,), seed)[0] for seed in range(4)]
    if not isinstance(scalars[0], np.generic):
        scalars = [np.asarray(value, dtype=dtype)[()] for value in scalars]

    def run(space: Any, concatenate: Any) -> tuple[Outcome, bytes]:
        # ``out`` is the head of a larger buffer: nothing past it may change.
        buffer = np.zeros(16, dtype=dtype) if not dtype.hasobject else np.empty(16, dtype=dtype)
        tail = buffer[4:].copy()
        result = outcome(lambda: concatenate(space, list(scalars), buffer[:4]))
        unchanged = dtype.hasobject or buffer[4:].tobytes() == tail.tobytes()
        assert unchanged, f"bytes past out were written: {buffer}"
        return result, buffer[:4].copy()

    ours, our_out = run(Discrete(3), gs_vector.concatenate)
    theirs, their_out = run(gym_spaces.Discrete(3), gym_vector.concatenate)
    assert_same_outcome(ours, theirs, str(dtype))
    assert_same_value(our_out, their_out, str(dtype))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.hasobject], ids=["object", "struct-object"])
def test_concatenate_dict_tree_keeps_object_references(dtype: np.dtype) -> None:
    space = Dict({"a": Box(0, 1, (2,)), "b": Tuple((Box(0, 1, (2,)),))})

    def build(leaves: list[np.ndarray]) -> Any:
        items = [{"a": leaf, "b": (leaf,)} for leaf in leaves]
        out = {"a": np.empty((3, 2), dtype=dtype), "b": (np.empty((3, 2), dtype=dtype),)}
        return gs_vector.concatenate(space, items, out)["a"]

    assert_holds_references(build, dtype)
    items = [{"a": values_of(dtype, (2,), seed), "b": (values_of(dtype, (2,), seed),)} for seed in range(3)]
    gym_space = gym_spaces.Dict({"a": gym_spaces.Box(0, 1, (2,)), "b": gym_spaces.Tuple((gym_spaces.Box(0, 1, (2,)),))})
    ours = outcome(lambda: gs_vector.concatenate(space, items, gs_vector.create_empty_array(space, 3)))
    theirs = outcome(lambda: gym_vector.concatenate(gym_space, items, gym_vector.create_empty_array(gym_space, 3)))
    # create_empty_array gives float32 leaves: both libraries cast the objects alike, or both raise.
    assert_same_outcome(ours, theirs)


@pytest.mark.usefixtures("unpatched")
def test_patched_gymnasium_concatenate_keeps_references() -> None:
    from gymspaces.gymnasium import patched

    space = gym_spaces.Dict({"a": gym_spaces.Box(0, 1, (2,))})
    dtype = np.dtype(object)

    def build(leaves: list[np.ndarray]) -> Any:
        out = {"a": np.empty((3, 2), dtype=object)}
        return gym_vector.concatenate(space, [{"a": leaf} for leaf in leaves], out)["a"]

    with patched():
        assert_holds_references(build, dtype)
        assert_holds_references(
            lambda leaves: gym_vector.concatenate(gym_spaces.Box(0, 1, (2,)), leaves, np.empty((3, 2), object)), dtype
        )


def test_concatenate_sample_that_views_out() -> None:
    # Samples that are rows of ``out`` itself, in reverse: no overlapping byte copy, the
    # result is what Gymnasium's np.stack makes of it.
    ours = np.arange(6, dtype=np.float32).reshape(3, 2)
    theirs = ours.copy()
    gs_vector.concatenate(Box(0, 10, (2,)), [ours[2], ours[1], ours[0]], ours)
    gym_vector.concatenate(gym_spaces.Box(0, 10, (2,)), [theirs[2], theirs[1], theirs[0]], theirs)
    assert_same_value(ours, theirs)


# ----------------------------------------------------------------------------
# iterate
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
@pytest.mark.parametrize("shape", [(3,), (3, 2)], ids=["rows-are-scalars", "rows-are-views"])
def test_iterate_dict_over_dtypes(dtype: np.dtype, shape: tuple[int, ...]) -> None:
    single = Box(0, 1, shape[1:])
    batch = {"a": values_of(dtype, shape, 1), "b": (values_of(dtype, shape, 2),)}
    ours = list(gs_vector.iterate(gs_vector.batch_space(Dict({"a": single, "b": Tuple((single,))}), 3), batch))
    gym_single = gym_spaces.Box(0, 1, shape[1:])
    gym_space = gym_spaces.Dict({"a": gym_single, "b": gym_spaces.Tuple((gym_single,))})
    theirs = list(gym_vector.iterate(gym_vector.batch_space(gym_space, 3), batch))
    assert_same_value(ours, theirs, str(dtype))
    if dtype.hasobject:
        # The rows must keep their objects alive once the batch is gone.
        expected = [list(leaf) for leaf in object_leaves(batch["a"])]
        del batch, theirs
        gc.collect()
        _ = [["reused"] for _ in range(1000)]
        if len(shape) == 1:  # a row is the object itself (or a void scalar holding it)
            held = [row["a"] if dtype.names is None else row["a"]["b"] for row in ours]
        else:
            held = [leaf for row in ours for leaf in object_leaves(row["a"])]
        assert [list(leaf) for leaf in held] == expected


# ----------------------------------------------------------------------------
# flatten family
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_flatten_and_unflatten_over_dtypes(dtype: np.dtype) -> None:
    value = values_of(dtype, (2,), 1)
    pairs = [
        (Box(0, 1, (2,)), gym_spaces.Box(0, 1, (2,))),
        (MultiBinary(2), gym_spaces.MultiBinary(2)),
        (Dict({"a": Box(0, 1, (2,)), "b": Discrete(3)}),
         gym_spaces.Dict({"a": gym_spaces.Box(0, 1, (2,)), "b": gym_spaces.Discrete(3)})),
    ]
    for ours, theirs in pairs:
        sample = {"a": value, "b": np.int64(1)} if isinstance(ours, Dict) else value
        flat_ours = outcome(lambda: flatten(ours, sample))
        flat_theirs = outcome(lambda: gym_spaces.utils.flatten(theirs, sample))
        assert_same_outcome(flat_ours, flat_theirs, f"flatten {ours} {dtype}")
        flat = values_of(dtype, (gym_spaces.flatdim(theirs),), 2)
        assert_same_outcome(
            outcome(lambda: unflatten(ours, flat)),
            outcome(lambda: gym_spaces.utils.unflatten(theirs, flat)),
            f"unflatten {ours} {dtype}",
        )


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_flatten_into_out_over_dtypes(dtype: np.dtype) -> None:
    space = Dict({"a": Box(0, 1, (2,)), "b": Discrete(3)})
    sample = {"a": values_of(dtype, (2,), 1), "b": np.int64(1)}
    reference = outcome(lambda: flatten(space, sample))
    target = np.full(5, 7, dtype=np.float64)  # the flat dtype: float32 and int64 promote to float64
    result = outcome(lambda: flatten(space, sample, out=target))
    assert_same_outcome(result, reference, str(dtype))
    if not reference.raised:
        assert result.value is target


def test_flatten_into_out_that_the_sample_views() -> None:
    space = Tuple((Box(0, 10, (2,)), Box(0, 10, (2,))))
    buffer = np.array([1, 2, 3, 4], dtype=np.float32)
    sample = (buffer[2:], buffer[:2])  # swapped halves of out itself
    expected = flatten(space, (sample[0].copy(), sample[1].copy()))
    assert_same_value(flatten(space, sample, out=buffer), expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_flatten_batch_and_contains_batch_over_dtypes(dtype: np.dtype) -> None:
    spaces = [Box(0, 1, (2,)), MultiBinary(2), MultiDiscrete([2, 3]), Dict({"a": Box(0, 1, (2,)), "b": Discrete(3)})]
    for space in spaces:
        if isinstance(space, Dict):
            batch: Any = {"a": values_of(dtype, (3, 2), 1), "b": values_of(dtype, (3,), 0)}
        else:
            batch = values_of(dtype, (3, 2), 1)
        items = outcome(lambda: list(gs_vector.iterate(gs_vector.batch_space(space, 3), batch)))
        if items.raised:
            continue
        loop = outcome(lambda: np.fromiter((space.contains(item) for item in items.value), bool, 3))
        assert_same_outcome(outcome(lambda: space.contains_batch(batch)), loop, f"contains_batch {space} {dtype}")
        rows = outcome(lambda: np.stack([flatten(space, item) for item in items.value]))
        assert_same_outcome(outcome(lambda: flatten_batch(space, batch)), rows, f"flatten_batch {space} {dtype}")


# ----------------------------------------------------------------------------
# shared memory
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
@pytest.mark.parametrize("single_buffer", [False, True], ids=["per-leaf", "single-buffer"])
def test_shared_memory_write_and_read_over_dtypes(dtype: np.dtype, single_buffer: bool) -> None:
    ours_space = Dict({"a": Box(0, 1, (2,)), "b": MultiBinary(2)})
    theirs_space = gym_spaces.Dict({"a": gym_spaces.Box(0, 1, (2,)), "b": gym_spaces.MultiBinary(2)})
    value = {"a": values_of(dtype, (2,), 1), "b": values_of(dtype, (2,), 0)}
    ours_memory = gs_vector.create_shared_memory(ours_space, 2, single_buffer=single_buffer)
    theirs_memory = gym_vector.create_shared_memory(theirs_space, 2)
    assert_same_outcome(
        outcome(lambda: gs_vector.write_to_shared_memory(ours_space, 1, value, ours_memory)),
        outcome(lambda: gym_vector.write_to_shared_memory(theirs_space, 1, value, theirs_memory)),
        str(dtype),
    )
    assert_same_value(
        gs_vector.read_from_shared_memory(ours_space, ours_memory, 2),
        gym_vector.read_from_shared_memory(theirs_space, theirs_memory, 2),
    )


# ----------------------------------------------------------------------------
# sample_batch(out=)
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_sample_batch_out_of_another_dtype_is_refused_untouched(dtype: np.dtype) -> None:
    for space in [Box(0, 1, (2,)), Discrete(3), MultiDiscrete([2, 3]), MultiBinary(2)]:
        native = np.dtype(space.dtype)
        shape = (4,) + space.shape
        if dtype == native:
            continue
        space.seed(0)
        state = copy.deepcopy(space.np_random.bit_generator.state)
        out = np.zeros(shape, dtype=dtype)
        before = out.copy()
        with pytest.raises((ValueError, TypeError)):
            space.sample_batch(4, out=out)
        assert out.tobytes() == before.tobytes() or dtype.hasobject
        assert space.np_random.bit_generator.state == state


# ----------------------------------------------------------------------------
# Reference counts of object leaves, API by API
# ----------------------------------------------------------------------------
# Each case runs one call of gymspaces and the same call of Gymnasium (or, where
# Gymnasium has no such function, the loop of single-item calls it stands for)
# on equal inputs whose object leaves exist nowhere else. Once the inputs are
# freed, both outputs must hold the same number of references to their leaves,
# be intact (the very objects, equal contents), and, once the outputs are freed
# too, every leaf must be freed: no reference missing (a dangling pointer, which
# memcheck then reports where it is read) and none leaked.
# "opaque" leaves (lists) cannot become numbers, so conversions take their error
# path; "number" leaves (floats) convert, so they take the copying path.
# No reference cycles are involved (tracebacks are dropped), so reference
# counting frees everything at once: no gc.collect(), which is slow under
# valgrind (tests/tools/memcheck.py runs this module).

LEAF_KINDS = ["opaque", "number"]


def fresh_leaves(kind: str, count: int) -> list[Any]:
    if kind == "opaque":
        return fresh_objects(count)
    return [float(i) + 0.25 for i in range(count)]  # computed: new float objects


def object_array(leaves: list[Any], shape: tuple[int, ...]) -> np.ndarray:
    array = np.empty(len(leaves), dtype=object)
    for index, leaf in enumerate(leaves):  # a slice assignment would read lists as sequences
        array[index] = leaf
    return array.reshape(shape)


def extra_references(leaves: list[Any]) -> list[int]:
    """References to each leaf besides ``leaves`` itself (and this function's own)."""
    return [sys.getrefcount(leaf) - _UNREFERENCED for leaf in leaves]


def _unreferenced() -> int:
    leaves = [object()]
    return [sys.getrefcount(leaf) for leaf in leaves][0]


_UNREFERENCED = _unreferenced()


def objects_held(value: Any, candidates: set[int]) -> list[Any]:
    """The candidate objects (by id) that ``value`` holds, through arrays, tuples, lists and dicts."""
    if id(value) in candidates:
        return [value]
    if isinstance(value, np.ndarray):
        return [leaf for leaf in object_leaves(value) if id(leaf) in candidates] if value.dtype.hasobject else []
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in objects_held(item, candidates)]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in objects_held(item, candidates)]
    return []


def _forget_tracebacks(result: Outcome) -> None:
    """An exception's traceback keeps the failed call's frames, and so its inputs, alive."""
    error: BaseException | None = result.error
    while error is not None:
        error.__traceback__ = None
        error = error.__context__ or error.__cause__


def assert_same_references(
    make: Any, ours: Any, theirs: Any, kind: str, context: str, *, count: int = 6
) -> None:
    """``ours(make(leaves))`` and ``theirs(make(leaves'))`` hold their object leaves alike.

    ``make`` builds the call's inputs from a list of ``count`` fresh leaves.
    """
    our_leaves, their_leaves = fresh_leaves(kind, count), fresh_leaves(kind, count)
    our_inputs, their_inputs = make(our_leaves), make(their_leaves)
    assert extra_references(our_leaves) == extra_references(their_leaves)
    mine, reference = outcome(lambda: ours(our_inputs)), outcome(lambda: theirs(their_inputs))
    _forget_tracebacks(mine)
    _forget_tracebacks(reference)
    del our_inputs, their_inputs
    _ = [["reused"] for _ in range(100)]  # reuse freed memory, as a dangling pointer would show
    assert_same_outcome(mine, reference, context)  # intact: equal contents once the inputs are gone
    assert extra_references(our_leaves) == extra_references(their_leaves), context
    held = objects_held(mine.value, {id(leaf) for leaf in our_leaves})
    assert len(held) == len(objects_held(reference.value, {id(leaf) for leaf in their_leaves})), context
    del mine, reference, held
    # Freed with the outputs: nothing but ``leaves`` refers to them any more.
    assert extra_references(our_leaves) == [0] * count, context
    assert extra_references(their_leaves) == [0] * count, context


def _tree(lib: Any) -> Any:
    return lib.Dict({"a": lib.Box(0, 1, (2,)), "b": lib.Tuple((lib.Discrete(3),))})


# (name, gymspaces single space, Gymnasium single space, batch size, batch of 6 leaves)
ITERATE_CASES: list[tuple[str, Any, Any, int, Any]] = [
    ("Box-rows", Box(0, 1, (2,)), gym_spaces.Box(0, 1, (2,)), 3, lambda leaves: object_array(leaves, (3, 2))),
    ("Box-scalars", Box(0, 1, ()), gym_spaces.Box(0, 1, ()), 6, lambda leaves: object_array(leaves, (6,))),
    ("Discrete", Discrete(3), gym_spaces.Discrete(3), 6, lambda leaves: object_array(leaves, (6,))),
    ("MultiDiscrete", MultiDiscrete([2, 2]), gym_spaces.MultiDiscrete([2, 2]), 3,
     lambda leaves: object_array(leaves, (3, 2))),
    ("Dict", _tree(gymspaces), _tree(gym_spaces), 2,
     lambda leaves: {"a": object_array(leaves[:4], (2, 2)), "b": (object_array(leaves[4:], (2,)),)}),
]


@pytest.mark.parametrize("kind", LEAF_KINDS)
@pytest.mark.parametrize("case", ITERATE_CASES, ids=lambda case: case[0])
def test_iterate_holds_object_leaves_as_gymnasium_does(case: Any, kind: str) -> None:
    name, single, gym_single, size, make = case
    ours = gs_vector.batch_space(single, size)
    theirs = gym_vector.batch_space(gym_single, size)
    assert_same_references(
        make, lambda batch: list(gs_vector.iterate(ours, batch)), lambda batch: list(gym_vector.iterate(theirs, batch)),
        kind, f"iterate {name}",
    )


@pytest.mark.usefixtures("unpatched")
@pytest.mark.parametrize("kind", LEAF_KINDS)
def test_patched_gymnasium_iterate_holds_object_leaves(kind: str) -> None:
    """Gymnasium's own ``iterate`` reaches gymspaces' kernel while patched."""
    from gymspaces.gymnasium import patched

    space = gym_vector.batch_space(gym_spaces.Dict({"a": gym_spaces.Box(0, 1, (2,))}), 3)
    with patched():
        assert_same_references(
            lambda leaves: {"a": object_array(leaves, (3, 2))},
            lambda batch: list(gs_vector.iterate(space, batch)), lambda batch: list(gym_vector.iterate(space, batch)),
            kind, "gymnasium iterate, patched",
        )


FLAT_CASES: list[tuple[str, Any, Any, Any]] = [
    ("Box", Box(0, 1, (2,)), gym_spaces.Box(0, 1, (2,)), lambda leaves: object_array(leaves[:2], (2,))),
    ("MultiBinary", MultiBinary(2), gym_spaces.MultiBinary(2), lambda leaves: object_array(leaves[:2], (2,))),
    ("MultiDiscrete", MultiDiscrete([2, 3]), gym_spaces.MultiDiscrete([2, 3]),
     lambda leaves: object_array(leaves[:2], (2,))),
    ("Discrete", Discrete(3), gym_spaces.Discrete(3), lambda leaves: leaves[0]),
    ("Dict", Dict({"a": Box(0, 1, (2,)), "b": Discrete(3)}),
     gym_spaces.Dict({"a": gym_spaces.Box(0, 1, (2,)), "b": gym_spaces.Discrete(3)}),
     lambda leaves: {"a": object_array(leaves[:2], (2,)), "b": np.int64(1)}),
]


@pytest.mark.parametrize("kind", LEAF_KINDS)
@pytest.mark.parametrize("case", FLAT_CASES, ids=lambda case: case[0])
def test_flatten_and_unflatten_of_object_leaves_leak_nothing(case: Any, kind: str) -> None:
    name, ours, theirs, make = case
    assert_same_references(
        make, lambda x: flatten(ours, x), lambda x: gym_spaces.utils.flatten(theirs, x), kind, f"flatten {name}",
        count=2,
    )
    dim = gym_spaces.flatdim(theirs)
    assert_same_references(
        lambda leaves: object_array(leaves, (dim,)),
        lambda x: unflatten(ours, x), lambda x: gym_spaces.utils.unflatten(theirs, x), kind, f"unflatten {name}",
        count=dim,
    )
    if name != "Discrete":  # flatten(out=): gymspaces only; the same as Gymnasium's flatten
        out_dtype = np.dtype(np.float64) if name == "Dict" else np.dtype(ours.dtype)
        assert_same_references(
            make, lambda x: flatten(ours, x, out=np.zeros(dim, out_dtype)),
            lambda x: gym_spaces.utils.flatten(theirs, x), kind, f"flatten(out=) {name}", count=2,
        )


@pytest.mark.parametrize("kind", LEAF_KINDS)
@pytest.mark.parametrize("case", [case for case in FLAT_CASES if case[0] in ("Box", "MultiBinary", "Dict")],
                         ids=lambda case: case[0])
def test_flatten_batch_of_object_leaves_equals_gymnasiums_loop(case: Any, kind: str) -> None:
    name, ours, theirs, make = case

    def batch(leaves: list[Any]) -> Any:
        if name == "Dict":
            return {"a": object_array(leaves, (3, 2)), "b": np.array([0, 1, 2])}
        return object_array(leaves, (3, 2))

    def loop(x: Any) -> np.ndarray:
        rows = gym_vector.iterate(gym_vector.batch_space(theirs, 3), x)
        return np.stack([gym_spaces.utils.flatten(theirs, row) for row in rows])

    assert_same_references(batch, lambda x: flatten_batch(ours, x), loop, kind, f"flatten_batch {name}")


@pytest.mark.parametrize("kind", LEAF_KINDS)
@pytest.mark.parametrize("single_buffer", [False, True], ids=["per-leaf", "single-buffer"])
def test_shared_memory_write_of_object_leaves_leaks_nothing(single_buffer: bool, kind: str) -> None:
    ours = Dict({"a": Box(0, 1, (2,)), "b": MultiBinary(2)})
    theirs = gym_spaces.Dict({"a": gym_spaces.Box(0, 1, (2,)), "b": gym_spaces.MultiBinary(2)})
    our_memory = gs_vector.create_shared_memory(ours, 2, single_buffer=single_buffer)
    their_memory = gym_vector.create_shared_memory(theirs, 2)

    def make(leaves: list[Any]) -> dict[str, np.ndarray]:
        return {"a": object_array(leaves[:2], (2,)), "b": object_array(leaves[2:], (2,))}

    assert_same_references(
        make,
        lambda value: gs_vector.write_to_shared_memory(ours, 1, value, our_memory),
        lambda value: gym_vector.write_to_shared_memory(theirs, 1, value, their_memory),
        kind, "write_to_shared_memory", count=4,
    )
    assert_same_value(
        gs_vector.read_from_shared_memory(ours, our_memory, 2),
        gym_vector.read_from_shared_memory(theirs, their_memory, 2),
    )


@pytest.mark.parametrize("kind", LEAF_KINDS)
def test_concatenate_of_object_leaves_into_a_numeric_out_leaks_nothing(kind: str) -> None:
    assert_same_references(
        lambda leaves: [object_array(leaves[i : i + 2], (2,)) for i in (0, 2, 4)],
        lambda items: gs_vector.concatenate(Box(0, 1, (2,)), items, np.zeros((3, 2), np.float32)),
        lambda items: gym_vector.concatenate(gym_spaces.Box(0, 1, (2,)), items, np.zeros((3, 2), np.float32)),
        kind, "concatenate into float32",
    )


@pytest.mark.parametrize(
    "space",
    [Box(0, 1, (2,)), Discrete(3), MultiBinary(2), MultiDiscrete([2, 3]), Dict({"a": Box(0, 1, (2,))}),
     Tuple((Discrete(2),))],
    ids=lambda space: type(space).__name__,
)
def test_sample_batch_refuses_an_object_out_and_keeps_its_references(space: Any) -> None:
    """Gymnasium has no ``sample_batch``: an object ``out`` is refused (ValueError), untouched."""
    leaves = fresh_leaves("opaque", 6)

    def object_out(child: Any, start: int) -> Any:
        if isinstance(child, Dict):
            return {key: object_out(value, start) for key, value in child.spaces.items()}
        if isinstance(child, Tuple):
            return tuple(object_out(value, start) for value in child.spaces)
        shape = (3,) + child.shape
        size = int(np.prod(shape))
        return object_array(leaves[start : start + size], shape)

    out = object_out(space, 0)
    counts = extra_references(leaves)
    space.seed(0)
    state = copy.deepcopy(space.np_random.bit_generator.state)
    with pytest.raises(ValueError):
        space.sample_batch(3, out=out)
    assert space.np_random.bit_generator.state == state
    assert extra_references(leaves) == counts  # no reference dropped or taken
    held = objects_held(out, {id(leaf) for leaf in leaves})
    assert [leaf for leaf in leaves if any(leaf is item for item in held)] == held
    del out, held
    assert extra_references(leaves) == [0] * len(leaves)


# ----------------------------------------------------------------------------
# Issue #13's numbered items
# ----------------------------------------------------------------------------


def test_item1_concatenate_object_leaves_keep_references() -> None:
    items = [np.array([[1], {}], dtype=object)]
    out = np.empty((1, 2), object)
    result = gs_vector.concatenate(Box(0, 1, (2,)), items, out)
    del items
    gc.collect()
    _ = [[9, 9, 9] for _ in range(1000)]  # reuse freed memory, as a dangling pointer would show
    assert result is out
    assert out.tolist() == [[[1], {}]]


@pytest.mark.parametrize(
    ("dtype", "scalar"),
    [("S1", np.bytes_(b"a")), ("U1", np.str_("a")), ("V2", np.void(b"ab"))],
)
def test_item2_flexible_scalars_stay_inside_out(dtype: str, scalar: Any) -> None:
    ours = np.zeros(12, dtype=dtype)
    theirs = np.zeros(12, dtype=dtype)
    gs_vector.concatenate(Discrete(3), [scalar] * 4, ours[:4])
    gym_vector.concatenate(gym_spaces.Discrete(3), [scalar] * 4, theirs[:4])
    assert ours.tobytes() == theirs.tobytes()
    assert ours[:4].tolist() == [scalar.item()] * 4 if dtype != "V2" else ours[:4].tobytes() == b"ab" * 4


def test_item3_children_of_different_lengths_raise_everywhere() -> None:
    space = Tuple((Box(0, 1, (1,)), Discrete(3)))
    batch = (np.zeros((3, 1), np.float32), np.array([1]))
    with pytest.raises(ValueError):
        flatten_batch(space, batch)
    with pytest.raises(ValueError):
        space.contains_batch(batch)
    with pytest.raises(ValueError):
        list(gs_vector.iterate(gs_vector.batch_space(space, 3), batch))


def test_item4_out_aliasing_the_mask_equals_the_unaliased_call() -> None:
    mask = np.full((3, 4), 2, np.int8)
    mask[0, 0] = 1
    expected = MultiBinary(4, seed=0).sample_batch(3, mask=mask.copy())
    aliased = mask.copy()
    assert_same_value(MultiBinary(4, seed=0).sample_batch(3, mask=aliased, out=aliased), expected)

    md_mask = np.ones((4, 2), np.int8)
    expected = MultiDiscrete([2, 2], dtype=np.int8, seed=0).sample_batch(4, mask=(md_mask.copy(), md_mask.copy()))
    aliased = md_mask.copy()
    result = MultiDiscrete([2, 2], dtype=np.int8, seed=0).sample_batch(4, mask=(aliased, aliased), out=aliased)
    assert_same_value(result, expected)

    weights = np.tile(np.array([0.2, 0.8]), (3, 1))
    expected = Discrete(2, seed=0).sample_batch(3, probability=weights.copy())
    out = weights.view(np.int64)[:, 0]  # the out a kernel writes overlaps the probabilities
    result = Discrete(2, seed=0).sample_batch(3, probability=weights, out=np.ascontiguousarray(out))
    assert_same_value(result, expected)

    # A composite: one child's out is another child's mask.
    space = Dict({"a": MultiBinary(4), "b": MultiBinary(4)}, seed=0)
    shared = np.full((3, 4), 2, np.int8)
    expected = copy.deepcopy(space).sample_batch(3, mask={"a": None, "b": shared.copy()})
    out = {"a": shared, "b": np.empty((3, 4), np.int8)}
    result = space.sample_batch(3, mask={"a": None, "b": shared}, out=out)
    assert_same_value(result, expected)


def test_item5_contains_batch_of_a_0d_multi_discrete_equals_the_loop() -> None:
    for space in [MultiDiscrete(np.array(3)), gymspaces.MultiBinary(np.array([], dtype=np.int64))]:
        batch = np.array([0, 1, 5]) if space.shape == () else np.zeros((3, 0), np.int8)
        items = list(gs_vector.iterate(gs_vector.batch_space(space, 3), batch))
        assert space.contains_batch(batch).tolist() == [space.contains(item) for item in items]
    assert MultiDiscrete(np.array(3)).contains_batch(np.array([0, 1, 5])).tolist() == [False] * 3


@pytest.mark.parametrize("space", [Text(3, seed=0), Sequence(Discrete(2), seed=0)], ids=["Text", "Sequence"])
def test_item6_out_of_a_tuple_batch_is_refused(space: Any) -> None:
    state = copy.deepcopy(space.np_random.bit_generator.state)
    out = np.empty(3, object)
    with pytest.raises(TypeError):
        space.sample_batch(3, out=out)
    assert out.tolist() == [None] * 3
    assert space.np_random.bit_generator.state == state
    # Inside a composite, such a child's batch is a fresh tuple; array leaves are filled.
    tree = Dict({"t": space, "x": Discrete(3)}, seed=0)
    out_tree = gs_vector.create_empty_array(tree, 3)
    batch = tree.sample_batch(3, out=out_tree)
    assert batch["x"] is out_tree["x"] and isinstance(batch["t"], tuple) and len(batch["t"]) == 3


def test_item7_flatten_batch_leaves_out_untouched_on_error() -> None:
    space = Dict({"a": Discrete(2), "b": Box(0, 1, (2,))})
    out = np.full((2, 4), 7.0)
    with pytest.raises(ValueError):
        flatten_batch(space, {"a": np.array([0, 1]), "b": np.zeros((3, 2), np.float32)}, out=out)
    assert (out == 7.0).all()


def test_item8_single_buffer_shared_memory_refuses_negative_counts() -> None:
    for space in [Box(0, 1, (2,)), Text(3), Dict({"a": Discrete(2)})]:
        with pytest.raises(ValueError):
            gs_vector.create_shared_memory(space, -1, single_buffer=True)
        with pytest.raises(ValueError):
            gs_vector.create_shared_memory(space, -1)


def test_item9_timedelta_membership_raises_like_gymnasium() -> None:
    for value in [np.timedelta64(0, "s"), np.array(np.timedelta64(0, "s"))]:
        ours = outcome(lambda: Discrete(3).contains(value))
        theirs = outcome(lambda: gym_spaces.Discrete(3).contains(value))
        assert_same_outcome(ours, theirs)
        assert ours.raised and isinstance(ours.error, TypeError)
    with pytest.raises(TypeError):
        Discrete(3).contains_batch(np.array([0, 1], dtype="m8[s]"))


@pytest.mark.parametrize("count", [2**62, 2**63, np.uint64(2**64 - 1)])
@pytest.mark.parametrize("space", [Text(3, seed=0), Sequence(Discrete(2), seed=0)], ids=["Text", "Sequence"])
def test_item10_impossible_counts_are_refused_before_drawing(space: Any, count: Any) -> None:
    state = copy.deepcopy(space.np_random.bit_generator.state)
    with pytest.raises(ValueError):
        space.sample_batch(count)
    assert space.np_random.bit_generator.state == state


def test_item11_sample_batch_after_setstate_with_float_attributes_equals_the_loop() -> None:
    for space, name, value in [(Discrete(3, seed=0), "start", 1.0), (Text(3, seed=0), "min_length", 1.0)]:
        state = dict(space.__getstate__())
        state[name] = value
        batched, looped = type(space).__new__(type(space)), type(space).__new__(type(space))
        batched.__setstate__(copy.deepcopy(state))
        looped.__setstate__(copy.deepcopy(state))
        loop = [looped.sample() for _ in range(3)]
        result = batched.sample_batch(3)
        if isinstance(space, Text):
            assert result == tuple(loop)
        else:
            assert_same_value(result, np.stack(loop))


# ----------------------------------------------------------------------------
# Issue #27: a kernel owns what it reads from a container before running code
# ----------------------------------------------------------------------------


class _EditingDict(dict):
    """A sample whose item lookup first runs ``edit``."""

    edit: Any = None

    def __getitem__(self, key: Any) -> Any:
        if self.edit is not None:
            self.edit()
        return dict.__getitem__(self, key)


def test_flatten_owns_the_child_space_it_walks() -> None:
    """Looking the sample up empties the space's dict of children: the child walked
    stays alive (the kernel held it borrowed from that dict: a crash), and the
    walk stops as Gymnasium's iteration of ``spaces.items()`` does."""
    results = []
    for lib, flatten_of in [(gymspaces, flatten), (gym_spaces, gym_spaces.utils.flatten)]:
        space = lib.Dict({"a": lib.Box(0, 1, (2,))})
        child = weakref.ref(space.spaces["a"])
        sample = _EditingDict(a=np.ones(2, dtype=np.float32))
        alive = []
        sample.edit = lambda: (space.spaces.clear(), alive.append(child() is not None))
        results.append(outcome(lambda: flatten_of(space, sample)))
        assert alive == [True]
    assert_same_outcome(*results)
    assert isinstance(results[0].error, RuntimeError)
