"""The compiled shared-memory pass (``gymspaces._shared_memory``) against Gymnasium 1.4.0.

Every write is made by both libraries into their own buffers and the buffers
are compared byte for byte; every read is compared as arrays (type, dtype,
shape, bytes, flags). ``counted`` replaces the Python rules the kernel defers
to with counting wrappers, so that each test also asserts which path ran.
"""

from __future__ import annotations

import copy
import gc
import multiprocessing
import pickle
import sys
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium.error
import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest
from support.differential import GS, GYM, assert_same_outcome, assert_same_value, outcome
from support.gymnasium_memory import REFUSED_ARRAY_TYPECODES, gymnasium_shared_memory
from support.processes import run_workers

import gymspaces.vector as gs_vector
from gymspaces import _shared_memory
from gymspaces._registry import REGISTRY
from gymspaces.vector import shared_memory as gs_shm

N = 4
LEAF_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
               np.float16, np.float32, np.float64]
LAYOUTS = ["per-leaf", "single-buffer"]
FLAGS = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")


def box(lib: Any, dtype: Any, shape: tuple[int, ...]) -> Any:
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return lib.Box(0, 1, shape, dtype)
    high = 100 if dtype.kind in "iu" else 1.0
    return lib.Box(0 if dtype.kind == "u" else -high, high, shape, dtype)


def tree(lib: Any, dtype: Any) -> Any:
    """A Dict holding every fixed-shape leaf kind, nested Tuple and Dict included."""
    return lib.Dict({
        "image": box(lib, dtype, (2, 3)),
        "scalar": box(lib, dtype, ()),
        "nested": lib.Tuple((box(lib, dtype, (4,)), lib.Dict({"deep": box(lib, dtype, (1, 2))}))),
        "action": lib.Discrete(7, start=-3),
        "small": lib.Discrete(3, dtype=np.int8),
        "keys": lib.MultiDiscrete([3, 5], dtype=np.uint16),
        "flags": lib.MultiBinary((2, 2)),
    })


def create(lib_space: Any, layout: str, n: int = N) -> Any:
    return gs_vector.create_shared_memory(lib_space, n, single_buffer=layout == "single-buffer")


def leaf_bytes(memory: Any) -> Any:
    """The bytes of every leaf of a memory tree (either layout, either library)."""
    if isinstance(memory, dict):
        return {key: leaf_bytes(value) for key, value in memory.items()}
    if isinstance(memory, tuple):
        return tuple(leaf_bytes(value) for value in memory)
    return bytes(memory.get_obj())


def assert_same_views(actual: Any, expected: Any) -> None:
    """Same structure; each array of the same type, dtype, shape, bytes and flags."""
    assert type(actual) is type(expected)
    if isinstance(expected, dict):
        assert list(actual) == list(expected)
        for key in expected:
            assert_same_views(actual[key], expected[key])
        return
    if isinstance(expected, tuple):
        assert len(actual) == len(expected)
        for a, b in zip(actual, expected):
            assert_same_views(a, b)
        return
    assert_same_value(actual, expected)
    if isinstance(expected, np.ndarray):
        assert {flag: actual.flags[flag] for flag in FLAGS} == {flag: expected.flags[flag] for flag in FLAGS}


class Counted:
    """The kernel configured with counting wrappers around the Python rules it defers to."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {"write_leaf": 0, "write_tuple": 0, "read_leaf": 0}

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any) -> Any:
            # Only gymspaces' own spaces count: under GYMSPACES_TEST_PATCHED=1
            # the Gymnasium side of a differential test runs this kernel too.
            if isinstance(args[0], GS.Space):
                self.calls[name] += 1
            return function(*args)

        return counted

    def reset(self) -> None:
        for name in self.calls:
            self.calls[name] = 0

    @property
    def total(self) -> int:
        return sum(self.calls.values())


def configure(write_leaf: Any, write_tuple: Any, read_leaf: Any) -> None:
    REGISTRY.write_shared_leaf, REGISTRY.write_shared_tuple = write_leaf, write_tuple
    REGISTRY.read_shared_leaf = read_leaf


@pytest.fixture
def counted() -> Iterator[Counted]:
    counter = Counted()
    configure(counter.wrap("write_leaf", gs_shm._write_array_python),
              counter.wrap("write_tuple", gs_shm._write_tuple_python),
              counter.wrap("read_leaf", gs_shm._read_array_python))
    try:
        yield counter
    finally:
        configure(gs_shm._write_array_python, gs_shm._write_tuple_python, gs_shm._read_array_python)


def write_both(ours: Any, theirs: Any, index: Any, value: Any, our_memory: Any, their_memory: Any,
               their_value: Any = None) -> None:
    """Write with each library; same outcome (value or exception type, warnings) and same bytes."""
    their_value = value if their_value is None else their_value
    assert_same_outcome(
        outcome(lambda: gs_vector.write_to_shared_memory(ours, index, value, our_memory)),
        outcome(lambda: gym_vector.write_to_shared_memory(theirs, index, their_value, their_memory)),
        f"index {index!r}",
    )
    assert_same_value(leaf_bytes(our_memory), leaf_bytes(their_memory), "memory contents")


def read_both(ours: Any, theirs: Any, our_memory: Any, their_memory: Any, n: Any = N) -> None:
    a = outcome(lambda: gs_vector.read_from_shared_memory(ours, our_memory, n))
    b = outcome(lambda: gym_vector.read_from_shared_memory(theirs, their_memory, n))
    assert_same_outcome(a, b, f"n {n!r}")
    if not b.raised:
        assert_same_views(a.value, b.value)


# ----------------------------------------------------------------------------
# the compiled path: same bytes and views as Gymnasium
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", LEAF_DTYPES, ids=lambda d: np.dtype(d).name)
def test_samples_written_and_read_like_gymnasium(dtype: Any, layout: str, counted: Counted) -> None:
    ours, theirs = tree(GS, dtype), tree(GYM, dtype)
    theirs.seed(3)
    our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)
    for index in (2, 0, 3, 1):
        write_both(ours, theirs, index, theirs.sample(), our_memory, their_memory)
    assert counted.total == 0  # every leaf copied by the kernel
    assert _shared_memory.has_plan(ours, our_memory)
    read_both(ours, theirs, our_memory, their_memory)
    assert counted.total == 0


@pytest.mark.parametrize("layout", LAYOUTS)
def test_reads_are_views_that_keep_the_buffer_alive(layout: str) -> None:
    space = tree(GS, np.float32)
    memory = create(space, layout)
    views = gs_vector.read_from_shared_memory(space, memory, N)
    sample = space.sample()
    gs_vector.write_to_shared_memory(space, 2, sample, memory)
    assert np.array_equal(views["image"][2], sample["image"])  # later writes show through
    views["nested"][1]["deep"][3] = 7.5  # and writes to the views reach the buffer
    again = gs_vector.read_from_shared_memory(space, memory, N)
    assert np.array_equal(again["nested"][1]["deep"][3], [[7.5, 7.5]])
    expected = views["image"].copy()
    del memory, again
    space.__dict__.pop("_shared_memory_plan", None)  # the plan's references too
    gc.collect()
    # The views' bases still hold the shared buffer.
    assert np.array_equal(views["image"], expected)
    views["image"][0] = 1.0
    assert np.all(views["image"][0] == 1.0)
    base = views["image"]
    while isinstance(base, np.ndarray):
        base = base.base
    assert memoryview(base).nbytes >= views["image"].nbytes  # a buffer, not None


@pytest.mark.parametrize("layout", LAYOUTS)
def test_root_leaf_and_tuple_roots(layout: str, counted: Counted) -> None:
    for build in (lambda lib: box(lib, np.uint8, (3, 2)), lambda lib: lib.Discrete(4),
                  lambda lib: lib.Tuple((lib.MultiBinary(3), lib.Box(-1, 1, (2,)))),
                  lambda lib: lib.Dict({}), lambda lib: lib.Tuple(())):
        ours, theirs = build(GS), build(GYM)
        theirs.seed(1)
        our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)
        for index in range(N):
            write_both(ours, theirs, index, theirs.sample(), our_memory, their_memory)
        read_both(ours, theirs, our_memory, their_memory)
    assert counted.total == 0


# ----------------------------------------------------------------------------
# values the kernel does not copy itself: numpy's conversion, Gymnasium's errors
# ----------------------------------------------------------------------------

F32 = np.arange(6, dtype=np.float32).reshape(2, 3)
VALUES: dict[str, tuple[Any, bool]] = {
    # name: (value for a Box(-10, 10, (2, 3), float32) leaf, copied by the kernel)
    "exact": (F32 + 1, True),
    "flat-same-size": (np.arange(6, dtype=np.float32), True),  # flatten() ignores the shape
    "list": (F32.tolist(), False),
    "float64": (F32.astype(np.float64), False),
    "int": (F32.astype(np.int64), False),
    "non-contiguous": (np.arange(12, dtype=np.float32).reshape(2, 6)[:, ::2], False),
    "fortran": (np.asfortranarray(F32), False),
    "byte-swapped": (F32.astype(">f4"), False),
    "broadcast-one": (np.array([2.5], dtype=np.float32), False),
    "python-float": (1.5, False),
    "numpy-scalar": (np.float32(3.0), False),
    "subclass": (np.ma.masked_array(F32), False),
    "wrong-size": (np.arange(5, dtype=np.float32), False),
    "wrong-shape-list": ([[1.0, 2.0]], False),
    "strings": (np.array(["a"] * 6), False),
    "objects": (np.array([1.0] * 6, dtype=object), False),
    "none": (None, False),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", list(VALUES))
def test_box_values_of_every_kind(name: str, layout: str, counted: Counted) -> None:
    value, copied = VALUES[name]
    ours = GS.Dict({"a": GS.Box(-10, 10, (2, 3)), "b": GS.Discrete(3)})
    theirs = GYM.Dict({"a": GYM.Box(-10, 10, (2, 3)), "b": GYM.Discrete(3)})
    our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)
    write_both(ours, theirs, 1, {"a": value, "b": 2}, our_memory, their_memory)
    assert counted.calls["write_leaf"] == (0 if copied else 1)
    read_both(ours, theirs, our_memory, their_memory)


SCALARS: dict[str, tuple[Any, Any, bool]] = {
    # name: (space recipe, value, copied by the kernel)
    "int64-numpy": (lambda lib: lib.Discrete(5), np.int64(4), True),
    "int64-python": (lambda lib: lib.Discrete(5), 3, True),
    "int64-python-negative": (lambda lib: lib.Discrete(5, start=-9), -9, True),
    "int64-python-huge": (lambda lib: lib.Discrete(5), 2**63, False),
    "int64-bool": (lambda lib: lib.Discrete(5), True, False),
    "int64-int32-scalar": (lambda lib: lib.Discrete(5), np.int32(2), False),
    "int64-0d": (lambda lib: lib.Discrete(5), np.array(4), True),
    "int64-float": (lambda lib: lib.Discrete(5), 2.0, False),
    "int8-python": (lambda lib: lib.Discrete(5, dtype=np.int8), -128, True),
    "int8-python-overflow": (lambda lib: lib.Discrete(5, dtype=np.int8), 128, False),
    "int8-python-underflow": (lambda lib: lib.Discrete(5, dtype=np.int8), -129, False),
    "uint8-python-max": (lambda lib: lib.Box(0, 255, (), np.uint8), 255, True),
    "uint8-python-negative": (lambda lib: lib.Box(0, 255, (), np.uint8), -1, False),
    "uint8-python-overflow": (lambda lib: lib.Box(0, 255, (), np.uint8), 256, False),
    "uint64-python-top": (lambda lib: lib.Box(0, 10, (), np.uint64), 2**64 - 1, False),
    "uint64-python": (lambda lib: lib.Box(0, 10, (), np.uint64), 2**63 - 1, True),
    "float64-python": (lambda lib: lib.Box(0, 1, (), np.float64), 0.1, True),
    "float32-python": (lambda lib: lib.Box(0, 1, (), np.float32), 0.1, False),
    "float16-scalar": (lambda lib: lib.Box(0, 1, (1,), np.float16), np.float16(0.3), True),
    "bool-python": (lambda lib: lib.Box(0, 1, (), np.bool_), True, False),
    "bool-scalar": (lambda lib: lib.Box(0, 1, (), np.bool_), np.True_, True),
    "md-python-int-broadcast": (lambda lib: lib.MultiDiscrete([3, 3]), 2, False),
    "md-numpy-scalar-broadcast": (lambda lib: lib.MultiDiscrete([3, 3]), np.int64(1), False),
    "mb-string": (lambda lib: lib.MultiBinary(2), "1", False),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", list(SCALARS))
def test_scalar_values(name: str, layout: str, counted: Counted) -> None:
    build, value, copied = SCALARS[name]
    ours, theirs = GS.Tuple((build(GS), GS.Box(0, 1, (2,)))), GYM.Tuple((build(GYM), GYM.Box(0, 1, (2,))))
    our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)
    pair = np.array([0.25, 0.5], dtype=np.float32)
    write_both(ours, theirs, 3, (value, pair), our_memory, their_memory)
    assert counted.calls["write_leaf"] == (0 if copied else 1)
    read_both(ours, theirs, our_memory, their_memory)


def test_a_value_that_views_the_buffer_itself() -> None:
    ours, theirs = GS.Dict({"a": GS.Box(0, 9, (3,))}), GYM.Dict({"a": GYM.Box(0, 9, (3,))})
    our_memory, their_memory = create(ours, "per-leaf"), gymnasium_shared_memory(theirs, N)
    for index in range(N):
        write_both(ours, theirs, index, {"a": np.full(3, index, np.float32)}, our_memory, their_memory)
    our_views = gs_vector.read_from_shared_memory(ours, our_memory, N)
    their_views = gym_vector.read_from_shared_memory(theirs, their_memory, N)
    write_both(ours, theirs, 1, {"a": our_views["a"][3]}, our_memory, their_memory, {"a": their_views["a"][3]})
    write_both(ours, theirs, 2, {"a": our_views["a"][2]}, our_memory, their_memory, {"a": their_views["a"][2]})


# ----------------------------------------------------------------------------
# indices, structures and n: Gymnasium's outcome, never an out-of-bounds write
# ----------------------------------------------------------------------------

INDICES = [0, N - 1, -1, -2, -N, -(N + 1), -(N + 7), N, N + 3, 2**70, -(2**70), True, np.int64(2), np.int8(-1), 1.0,
           "1", None]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("index", INDICES, ids=repr)
def test_every_index_does_what_gymnasium_does(index: Any, layout: str) -> None:
    # One-element leaves broadcast into an empty slice (no error, nothing written);
    # larger ones raise; negative indices below -1 count from the end.
    for build in (lambda lib: lib.Dict({"one": lib.Discrete(3), "box": lib.Box(0, 1, (1,)), "two": lib.Box(0, 1, (2,))}),
                  lambda lib: lib.Dict({"one": lib.Discrete(3), "b": lib.Box(0, 1, ())}),
                  lambda lib: lib.Box(0, 1, (2, 2), np.float16)):
        ours, theirs = build(GS), build(GYM)
        theirs.seed(0)
        our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)
        write_both(ours, theirs, index, theirs.sample(), our_memory, their_memory)


STRUCTURES: dict[str, Any] = {
    "missing-key": {"a": np.zeros(2, np.float32), "t": (np.int64(1), np.int8(0))},
    "extra-key": {"a": np.ones(2, np.float32), "b": np.int64(2), "t": (np.int64(1), np.int8(0)), "zzz": 1},
    "tuple-too-short": {"a": np.ones(2, np.float32), "b": np.int64(2), "t": (np.int64(1),)},
    "tuple-too-long": {"a": np.ones(2, np.float32), "b": np.int64(2), "t": (np.int64(1), np.int8(2), 5)},
    "tuple-as-list": {"a": np.ones(2, np.float32), "b": np.int64(2), "t": [np.int64(1), np.int8(2)]},
    "tuple-as-generator": {"a": np.ones(2, np.float32), "b": np.int64(2), "t": "gen"},
    "tuple-as-array": {"a": np.ones(2, np.float32), "b": np.int64(2), "t": np.array([1, 2])},
    "dict-as-list": [np.ones(2, np.float32), np.int64(2)],
    "dict-as-none": None,
    "leaf-as-dict": {"a": {"x": 1}, "b": np.int64(2), "t": (np.int64(1), np.int8(0))},
    "wrong-size": {"a": np.ones(3, np.float32), "b": np.int64(2), "t": (np.int64(1), np.int8(0))},
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", list(STRUCTURES))
def test_malformed_values_raise_like_gymnasium(name: str, layout: str) -> None:
    def build(lib: Any) -> Any:
        return lib.Dict({"a": lib.Box(0, 1, (2,)), "b": lib.Discrete(3),
                         "t": lib.Tuple((lib.Discrete(2), lib.Discrete(3, dtype=np.int8)))})

    ours, theirs = build(GS), build(GYM)
    our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)
    value = STRUCTURES[name]
    if isinstance(value, dict) and isinstance(value.get("t"), str):
        # A fresh generator per library: each is consumed by one write.
        ours_value, theirs_value = dict(value, t=(x for x in (1, 2))), dict(value, t=(x for x in (1, 2)))
        write_both(ours, theirs, 1, ours_value, our_memory, their_memory, theirs_value)
    else:
        write_both(ours, theirs, 1, value, our_memory, their_memory)
    read_both(ours, theirs, our_memory, their_memory)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("n", [N, N - 1, N + 1, 0, -1, -2, 2**70, np.int64(N), float(N), None], ids=repr)
def test_read_with_any_n(n: Any, layout: str) -> None:
    ours, theirs = tree(GS, np.int16), tree(GYM, np.int16)
    our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)
    read_both(ours, theirs, our_memory, their_memory, n)


def test_memory_of_another_shape_or_missing_parts() -> None:
    def build(lib: Any) -> Any:
        return lib.Dict({"a": lib.Box(0, 1, (3,)), "b": lib.Tuple((lib.Discrete(2), lib.Discrete(2)))})

    ours, theirs = build(GS), build(GYM)
    # Memory made for another space: 2-element rows where the space has 3.
    our_small = gs_vector.create_shared_memory(GS.Dict({"a": GS.Box(0, 1, (2,)), "b": GS.Tuple((GS.Discrete(2),) * 2)}), N)
    their_small = gymnasium_shared_memory(GYM.Dict({"a": GYM.Box(0, 1, (2,)), "b": GYM.Tuple((GYM.Discrete(2),) * 2)}), N)
    value = {"a": np.ones(3, np.float32), "b": (np.int64(1), np.int64(0))}
    for index in range(N):
        write_both(ours, theirs, index, value, our_small, their_small)
    read_both(ours, theirs, our_small, their_small, 2)
    read_both(ours, theirs, our_small, their_small, N)
    # A memory tree without a key, or with a short tuple.
    for broken in (lambda m: {"b": m["b"]}, lambda m: {"a": m["a"], "b": m["b"][:1]}):
        ours_memory = broken(gs_vector.create_shared_memory(ours, N))
        theirs_memory = broken(gymnasium_shared_memory(theirs, N))
        write_both(ours, theirs, 0, value, ours_memory, theirs_memory)
        read_both(ours, theirs, ours_memory, theirs_memory)
        assert not _shared_memory.has_plan(ours, ours_memory)


# ----------------------------------------------------------------------------
# plans: never stale
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
def test_new_memory_after_the_old_one_is_freed(layout: str) -> None:
    space = tree(GS, np.float64)
    sample = space.sample()
    for round_ in range(20):
        memory = create(space, layout)
        gs_vector.write_to_shared_memory(space, round_ % N, sample, memory)
        assert _shared_memory.has_plan(space, memory)
        views = gs_vector.read_from_shared_memory(space, memory, N)
        assert np.array_equal(views["image"][round_ % N], sample["image"])
        # Nothing else written: every other row of the fresh memory is still zero.
        assert not np.any(np.delete(views["image"], round_ % N, axis=0))
        del memory, views
        gc.collect()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_mutated_spaces_and_memories_are_followed(layout: str, counted: Counted) -> None:
    def build(lib: Any) -> Any:
        return lib.Dict({"a": lib.Box(0, 1, (2,)), "b": lib.Tuple((lib.Discrete(3), lib.Box(0, 1, (3,))))})

    ours, theirs = build(GS), build(GYM)
    our_memory, their_memory = create(ours, layout), gymnasium_shared_memory(theirs, N)

    def step(index: int) -> None:
        theirs.seed(index)
        value = theirs.sample()
        write_both(ours, theirs, index, value, our_memory, their_memory)
        read_both(ours, theirs, our_memory, their_memory)

    step(0)
    assert _shared_memory.has_plan(ours, our_memory)
    # A child replaced in the space's dict: the float16 Box reinterprets the float32 buffer.
    for lib, space in ((GS, ours), (GYM, theirs)):
        space.spaces["a"] = lib.Box(0, 1, (4,), np.float16)
    assert not _shared_memory.has_plan(ours, our_memory)
    step(1)
    # Keys reordered: the write and the read follow the new order.
    for space in (ours, theirs):
        space.spaces["a"] = space.spaces.pop("a")
    step(2)
    # A leaf's dtype reassigned in place.
    for space in (ours, theirs):
        space.spaces["b"].spaces[1].dtype = np.dtype(np.int32)
    step(3)
    # The Tuple's children replaced.
    for lib, space in ((GS, ours), (GYM, theirs)):
        space.spaces["b"].spaces = (lib.Discrete(3), lib.Box(0, 1, (3,)))
    step(1)
    # A key removed from the memory dict: KeyError from both, and no plan.
    for memory in (our_memory, their_memory):
        memory["spare"] = memory.pop("a")
    write_both(ours, theirs, 0, {"a": np.zeros(4, np.float16), "b": (1, np.zeros(3, np.float32))},
               our_memory, their_memory)
    assert not _shared_memory.has_plan(ours, our_memory)
    # A memory leaf replaced: writes go to the new leaf only.
    for space, memory, make in ((ours, our_memory, lambda s: create(s, layout)),
                                (theirs, their_memory, lambda s: gymnasium_shared_memory(s, N))):
        memory["a"] = make(space)["a"]
    step(2)
    assert counted.calls["read_leaf"] == 0


def test_single_buffer_slices_reassigned_are_followed() -> None:
    space = GS.Dict({"a": GS.Box(0, 9, (2,)), "b": GS.Box(0, 9, (2,))})
    memory = create(space, "single-buffer")
    gs_vector.write_to_shared_memory(space, 0, {"a": np.ones(2, np.float32), "b": np.full(2, 2, np.float32)}, memory)
    # Point "a" at "b"'s bytes: the next write of "a" must land there.
    memory["a"].offset = memory["b"].offset
    gs_vector.write_to_shared_memory(space, 1, {"a": np.full(2, 5, np.float32), "b": np.full(2, 6, np.float32)}, memory)
    views = gs_vector.read_from_shared_memory(space, memory, N)
    assert np.array_equal(views["b"][:2], [[2, 2], [6, 6]])
    assert np.array_equal(views["a"], views["b"])


def test_unaligned_single_buffer_slices() -> None:
    # A SharedSlice may start anywhere: compare with the Python rules (kernel off).
    space = GS.Dict({"f": GS.Box(0, 1, (), np.float64), "d": GS.Discrete(9), "v": GS.Box(0, 1, (3,), np.float32)})
    values = [{"f": 0.25, "d": 7, "v": np.arange(3, dtype=np.float32)},
              {"f": np.float64(0.5), "d": np.int64(3), "v": [1.0, 2.0, 3.0]}]
    results = []
    for enabled in (True, False):
        buffer = multiprocessing.Array("B", 200)
        memory = {"f": gs_shm.SharedSlice(buffer, 1, 8 * N), "d": gs_shm.SharedSlice(buffer, 3 + 8 * N, 8 * N),
                  "v": gs_shm.SharedSlice(buffer, 5 + 16 * N, 12 * N)}
        REGISTRY.shared_memory_enabled = enabled
        try:
            for index in range(N):
                gs_vector.write_to_shared_memory(space, index, values[index % 2], memory)
            views = gs_vector.read_from_shared_memory(space, memory, N)
            assert _shared_memory.has_plan(space, memory) == enabled
        finally:
            REGISTRY.shared_memory_enabled = True
        results.append((bytes(buffer.get_obj()), views))
    assert results[0][0] == results[1][0]
    assert_same_views(results[0][1], results[1][1])
    assert not results[0][1]["f"].flags.aligned


def test_plans_are_kept_out_of_copies_and_pickles() -> None:
    space = tree(GS, np.float32)
    memory = create(space, "per-leaf")
    gs_vector.write_to_shared_memory(space, 0, space.sample(), memory)
    assert "_shared_memory_plan" in vars(space)
    for clone in (copy.copy(space), copy.deepcopy(space), pickle.loads(pickle.dumps(space))):
        assert "_shared_memory_plan" not in vars(clone)
        assert clone == space
    # The plan itself copies and pickles as None (a cache).
    plan = vars(space)["_shared_memory_plan"]
    assert copy.deepcopy(plan) is None and pickle.loads(pickle.dumps(plan)) is None


def test_unsupported_trees_use_the_python_rules() -> None:
    for build in (lambda lib: lib.Dict({"a": lib.Box(0, 1, (2,)), "t": lib.Text(3, charset="xyz")}),
                  lambda lib: lib.Tuple((lib.Discrete(2), lib.OneOf((lib.Discrete(2), lib.Box(0, 1, (2,)))))),
                  lambda lib: lib.Box(0, 1, (2,), np.dtype(">f4"))):
        ours, theirs = build(GS), build(GYM)
        theirs.seed(2)
        our_memory, their_memory = create(ours, "per-leaf"), gymnasium_shared_memory(theirs, N)
        for index in range(N):
            write_both(ours, theirs, index, theirs.sample(), our_memory, their_memory)
        read_both(ours, theirs, our_memory, their_memory)
        assert not _shared_memory.has_plan(ours, our_memory)


def test_trees_too_deep_for_the_kernel() -> None:
    ours, theirs = GS.Box(0, 1, (2,)), GYM.Box(0, 1, (2,))
    value = np.ones(2, np.float32)
    for _ in range(70):
        ours, theirs, value = GS.Tuple((ours,)), GYM.Tuple((theirs,)), (value,)
    our_memory, their_memory = create(ours, "per-leaf"), gymnasium_shared_memory(theirs, N)
    write_both(ours, theirs, 2, value, our_memory, their_memory)
    read_both(ours, theirs, our_memory, their_memory)
    assert not _shared_memory.has_plan(ours, our_memory)


# ----------------------------------------------------------------------------
# references
# ----------------------------------------------------------------------------


def _leaves(memory: Any) -> list[Any]:
    if isinstance(memory, dict):
        return [leaf for value in memory.values() for leaf in _leaves(value)]
    if isinstance(memory, tuple):
        return [leaf for value in memory for leaf in _leaves(value)]
    return [memory, memory.buffer if isinstance(memory, gs_shm.SharedSlice) else memory.get_obj()]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_no_references_gained_or_lost(layout: str) -> None:
    space = tree(GS, np.int32)
    memory = create(space, layout)
    values = [space.sample(), {**space.sample(), "image": [[1, 2, 3], [4, 5, 6]], "action": 2}]  # copied / converted
    gs_vector.write_to_shared_memory(space, 0, values[0], memory)
    gs_vector.read_from_shared_memory(space, memory, N)
    # (Python ints are left out: small ones are shared with the whole interpreter.)
    watched = [item for item in (space, memory, *_leaves(memory), *values, *values[0].values(), *values[1].values())
               if type(item) is not int]
    before = [sys.getrefcount(item) for item in watched]
    for i in range(200):
        gs_vector.write_to_shared_memory(space, i % N, values[i % 2], memory)
        views = gs_vector.read_from_shared_memory(space, memory, N)
    del views
    assert [sys.getrefcount(item) for item in watched] == before


# ----------------------------------------------------------------------------
# dispatch: user rules, and Gymnasium's helpers on compatible spaces
# ----------------------------------------------------------------------------


def test_user_rules_are_reached() -> None:
    class MyBox(GS.Box):
        pass

    written = []

    @gs_vector.write_to_shared_memory.register(MyBox)
    def _(space: Any, index: int, value: Any, shared_memory: Any) -> None:
        written.append(index)

    space = GS.Dict({"mine": MyBox(0, 1, (2,)), "b": GS.Box(0, 1, (2,))})
    memory = create(space, "per-leaf")
    gs_vector.write_to_shared_memory(space, 1, {"mine": np.ones(2, np.float32), "b": np.ones(2, np.float32)}, memory)
    assert written == [1]
    assert not _shared_memory.has_plan(space, memory)
    assert bytes(memory["mine"].get_obj()) == bytes(8 * N)

    # Replacing a built-in rule turns the kernel off; putting it back turns it on.
    plain = GS.Dict({"b": GS.Box(0, 1, (2,))})
    plain_memory = create(plain, "per-leaf")
    original = gs_vector.write_to_shared_memory.dispatch(GS.Box)
    try:
        gs_vector.write_to_shared_memory.register(GS.Box, lambda s, i, v, m: written.append(("box", i)))
        gs_vector.write_to_shared_memory(plain, 3, {"b": np.ones(2, np.float32)}, plain_memory)
        assert written[-1] == ("box", 3)
        assert not _shared_memory.write_tree(plain, 3, {"b": np.ones(2, np.float32)}, plain_memory)
    finally:
        gs_vector.write_to_shared_memory.register(GS.Box, original)
    gs_vector.write_to_shared_memory(plain, 3, {"b": np.ones(2, np.float32)}, plain_memory)
    assert written[-1] == ("box", 3) and _shared_memory.has_plan(plain, plain_memory)
    assert np.array_equal(gs_vector.read_from_shared_memory(plain, plain_memory, N)["b"][3], [1, 1])


def _shared_memory_run(dtype: Any) -> tuple[Any, Any, list[Any], Any]:
    """Gymnasium's helpers on a seeded tree: its memory's bytes, what reading it
    gives, the outcomes of bad writes, and the memory (for its plan)."""
    space = tree(GYM, dtype)
    space.seed(4)
    memory = gymnasium_shared_memory(space, N)
    for index in range(N):
        value = space.sample()
        gym_vector.write_to_shared_memory(space, index, value, memory)
    views = gym_vector.read_from_shared_memory(space, memory, N)
    bad_writes = [outcome(lambda bad=bad: gym_vector.write_to_shared_memory(space, 0, bad, memory))
                  for bad in ({"image": 1}, {**value, "keys": np.zeros(3, np.uint16)})]
    return leaf_bytes(memory), views, bad_writes, (space, memory)


@pytest.mark.usefixtures("unpatched")
@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.bool_, np.float16])
def test_patched_gymnasium_helpers_take_the_compiled_path_with_plain_results(dtype: Any) -> None:
    from gymspaces.gymnasium import patched

    plain_bytes, plain_views, plain_bad, _ = _shared_memory_run(dtype)
    with patched():
        for name in ("Dict", "Tuple", "Box"):
            for helper, ours in ((gym_vector.write_to_shared_memory, gs_vector.write_to_shared_memory),
                                 (gym_vector.read_from_shared_memory, gs_vector.read_from_shared_memory)):
                assert helper.dispatch(getattr(GYM, name)).__wrapped__ is ours
        patched_bytes, patched_views, patched_bad, (space, memory) = _shared_memory_run(dtype)
        assert _shared_memory.has_plan(space, memory)
    assert_same_value(patched_bytes, plain_bytes, "memory contents")
    assert_same_views(patched_views, plain_views)
    for mine, reference in zip(patched_bad, plain_bad):  # errors are Gymnasium's
        assert_same_outcome(mine, reference)


@pytest.mark.usefixtures("unpatched")
@pytest.mark.parametrize("dtype", LEAF_DTYPES)
def test_patched_create_is_gymnasiums_own_on_this_python(dtype: Any) -> None:
    """Patch mode leaves create_shared_memory to Gymnasium: on CPython 3.15 a
    float16 leaf raises there, plain and patched alike (quirk Q33)."""
    from gymspaces.gymnasium import patched

    def element_types(memory: Any) -> Any:
        if isinstance(memory, dict):
            return {key: element_types(value) for key, value in memory.items()}
        if isinstance(memory, tuple):
            return tuple(element_types(value) for value in memory)
        return memory.get_obj()._type_.__name__  # c_float, c_ubyte (raw bytes), ...

    def create_and_describe() -> Any:
        memory = gym_vector.create_shared_memory(tree(GYM, dtype), N)
        return element_types(memory), leaf_bytes(memory)

    plain = outcome(create_and_describe)
    with patched():
        patched_outcome = outcome(create_and_describe)
    assert_same_outcome(patched_outcome, plain)
    assert plain.raised == (np.dtype(dtype).char in REFUSED_ARRAY_TYPECODES)


@pytest.mark.usefixtures("unpatched")
def test_gymnasium_errors_for_custom_children_of_patched_spaces() -> None:
    from gymspaces.gymnasium import patched

    class Custom(GYM.Space):
        pass

    with patched():
        space = GYM.Dict({"a": GYM.Box(0, 1, (2,)), "c": Custom()})
        memory = {"a": gymnasium_shared_memory(GYM.Box(0, 1, (2,)), N), "c": None}
        with pytest.raises(gymnasium.error.CustomSpaceError):
            gym_vector.write_to_shared_memory(space, 0, {"a": np.zeros(2, np.float32), "c": 1}, memory)
        with pytest.raises(gymnasium.error.CustomSpaceError):
            gym_vector.read_from_shared_memory(space, memory, N)


# ----------------------------------------------------------------------------
# processes: a plan made before fork serves the workers
# ----------------------------------------------------------------------------


def _fork_worker(space: Any, memory: Any, index: int) -> None:
    value = {key: np.full(child.shape, index + 1, child.dtype) for key, child in space.spaces.items()}
    gs_vector.write_to_shared_memory(space, index, value, memory)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_forked_workers_write_through_the_inherited_plan(layout: str) -> None:
    # Where fork does not exist (Windows) the spawned workers unpickle the memory instead.
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    space = GS.Dict({"a": GS.Box(0, 9, (3,)), "b": GS.MultiDiscrete([9, 9])})
    memory = gs_vector.create_shared_memory(space, N, ctx=context, single_buffer=layout == "single-buffer")
    views = gs_vector.read_from_shared_memory(space, memory, N)  # the plan exists before the fork
    assert _shared_memory.has_plan(space, memory)
    run_workers(context, _fork_worker, [(space, memory, i) for i in range(N)], timeout=60)
    for i in range(N):
        assert np.array_equal(views["a"][i], np.full(3, i + 1, np.float32))
        assert np.array_equal(views["b"][i], [i + 1, i + 1])
