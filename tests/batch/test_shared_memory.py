"""Shared-memory helpers vs Gymnasium 1.4.0, and across real (spawned) processes."""

from __future__ import annotations

import multiprocessing

import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest
from support.differential import GS, GYM, outcome
from support.gymnasium_memory import REFUSED_ARRAY_TYPECODES, gymnasium_shared_memory
from support.processes import run_workers
from test_flatten_utils import assert_same_tree

import gymspaces.vector as gs_vector
from gymspaces.error import CustomSpaceError
from gymspaces.vector import shared_memory as gs_shm

RECIPES = {
    "box": lambda lib: lib.Box(-1, 1, (2, 3)),
    "box-float16": lambda lib: lib.Box(-1, 1, (3,), np.float16),
    "box-bool": lambda lib: lib.Box(0, 1, (4,), bool),
    "box-uint8-image": lambda lib: lib.Box(0, 255, (4, 4, 3), np.uint8),
    "discrete": lambda lib: lib.Discrete(5, start=-1),
    "multi-binary": lambda lib: lib.MultiBinary((2, 2)),
    "multi-discrete": lambda lib: lib.MultiDiscrete([3, 4], dtype=np.int32),
    "text": lambda lib: lib.Text(5, charset="abc"),
    "oneof": lambda lib: lib.OneOf((lib.Discrete(3), lib.Box(0, 1, (2,)))),
    "nested-dict": lambda lib: lib.Dict(
        {
            "pos": lib.Box(-1, 1, (3,)),
            "id": lib.Discrete(5),
            "flags": lib.MultiBinary(4),
            "inner": lib.Tuple((lib.MultiDiscrete([2, 3]), lib.Box(0, 9, (), np.int16))),
        }
    ),
}
N = 3


def _write_all(lib_write, space, memory, samples):
    for index, sample in enumerate(samples):
        lib_write(space, index, sample, memory)


def _typecodes(memory):
    if isinstance(memory, dict):
        return {key: _typecodes(value) for key, value in memory.items()}
    if isinstance(memory, tuple):
        return tuple(_typecodes(value) for value in memory)
    return (memory.get_obj()._type_, len(memory))


@pytest.mark.parametrize("build", RECIPES.values(), ids=RECIPES.keys())
def test_create_write_read_match_gymnasium(build):
    gs_space, gym_space = build(GS), build(GYM)
    gym_space.seed(5)
    samples = [gym_space.sample() for _ in range(N)]
    gs_memory = gs_shm.create_shared_memory(gs_space, n=N)
    gym_memory = gymnasium_shared_memory(gym_space, n=N)
    assert _typecodes(gs_memory) == _typecodes(gym_memory)
    # Unwritten memory reads the same too (zeroed rows decode identically).
    assert_same_tree(gs_shm.read_from_shared_memory(gs_space, gs_memory, n=N),
                     gym_vector.read_from_shared_memory(gym_space, gym_memory, n=N), "zeroed")
    _write_all(gs_shm.write_to_shared_memory, gs_space, gs_memory, samples)
    _write_all(gym_vector.write_to_shared_memory, gym_space, gym_memory, samples)
    assert_same_tree(gs_shm.read_from_shared_memory(gs_space, gs_memory, n=N),
                     gym_vector.read_from_shared_memory(gym_space, gym_memory, n=N), "written")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.longdouble, np.uint64, np.bool_])
def test_memory_for_every_dtype_on_every_python(dtype):
    """A dtype multiprocessing has no typecode for gets raw bytes, as Gymnasium
    gives it on CPython 3.10-3.14; on 3.15 Gymnasium raises for float16 (quirk Q33)."""
    space = GS.Box(0, 1, (3,), dtype)
    memory = gs_shm.create_shared_memory(space, n=2)
    reference = gymnasium_shared_memory(GYM.Box(0, 1, (3,), dtype), n=2)
    assert _typecodes(memory) == _typecodes(reference)
    assert len(bytes(memory.get_obj())) == 2 * 3 * np.dtype(dtype).itemsize
    value = np.array([0.25, 0.5, 1.0], dtype)
    gs_shm.write_to_shared_memory(space, 1, value, memory)
    assert np.array_equal(gs_shm.read_from_shared_memory(space, memory, n=2)[1], value)
    plain = outcome(lambda: gym_vector.create_shared_memory(GYM.Box(0, 1, (3,), dtype), n=2))
    assert plain.raised == (np.dtype(dtype).char in REFUSED_ARRAY_TYPECODES)
    if plain.raised:
        assert isinstance(plain.error, TypeError)


def test_shared_array_typecodes_are_what_this_pythons_multiprocessing_takes():
    from multiprocessing.sharedctypes import typecode_to_type

    from gymspaces._typecodes import SHARED_ARRAY_TYPECODES

    numeric = {np.dtype(code).char for code in np.typecodes["AllInteger"] + np.typecodes["AllFloat"]}
    assert set(SHARED_ARRAY_TYPECODES) == numeric & set(typecode_to_type)


def test_read_returns_views_of_the_shared_buffer():
    space = GS.Box(0, 1, (2,))
    memory = gs_shm.create_shared_memory(space, n=2)
    view = gs_shm.read_from_shared_memory(space, memory, n=2)
    gs_shm.write_to_shared_memory(space, 1, np.array([0.25, 0.5], np.float32), memory)
    assert np.array_equal(view[1], [0.25, 0.5])


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, h: h.create_shared_memory(lib.Sequence(lib.Discrete(2))),
        lambda lib, h: h.create_shared_memory(lib.Graph(lib.Discrete(2), None)),
        lambda lib, h: h.create_shared_memory("not a space"),
        lambda lib, h: h.read_from_shared_memory(lib.Sequence(lib.Discrete(2)), None),
        lambda lib, h: h.write_to_shared_memory(lib.Graph(lib.Discrete(2), None), 0, None, None),
        lambda lib, h: h.read_from_shared_memory(3, None),
    ],
)
def test_errors_match_gymnasium(call):
    a = outcome(lambda: call(GS, gs_shm))
    b = outcome(lambda: call(GYM, gym_vector))
    assert a.raised and b.raised
    # Each library has its own CustomSpaceError class: compare by name.
    assert type(a.error).__name__ == type(b.error).__name__
    assert isinstance(a.error, (TypeError, CustomSpaceError))


def test_custom_space_raises_custom_space_error():
    class Custom(GS.Space):
        pass

    with pytest.raises(CustomSpaceError):
        gs_shm.create_shared_memory(Custom())


def test_create_shared_memory_is_one_entry_carrying_its_rules():
    """``create_shared_memory`` is one object in front of its dispatcher: a rule
    a user registers through it is the dispatcher's, and makes the default
    layout of the user's space, alone or inside a built-in composite; the
    single-buffer layout still takes built-in spaces only."""
    entry, rules = gs_vector.create_shared_memory, gs_shm.generic_create_shared_memory
    assert gs_shm.create_shared_memory is entry is not rules
    assert all(getattr(entry, name) is getattr(rules, name) for name in ("register", "dispatch", "registry"))

    class Custom(GS.Space):
        pass

    @entry.register(Custom)
    def custom_memory(space, n=1, ctx=multiprocessing):
        return ctx.Array("d", 10 * n)

    try:
        assert rules.dispatch(Custom) is custom_memory and rules.registry[Custom] is custom_memory
        assert len(entry(Custom(), n=2)) == 20
        tree = entry(GS.Tuple((GS.Discrete(2), Custom())), n=3)
        assert len(tree[0]) == 3 and len(tree[1]) == 30
        with pytest.raises(TypeError, match="use the default layout, with a registered create_shared_memory"):
            entry(GS.Tuple((Custom(),)), n=2, single_buffer=True)
    finally:
        rules.unregister(Custom)
    with pytest.raises(CustomSpaceError):
        entry(Custom())


def test_patch_mode_hands_gymnasium_spaces_over_through_the_entry(unpatched):
    """Patch mode replaces the dispatcher's default through the public entry
    (``dispatch(object)``, ``register(object, ...)``): a Gymnasium space with no
    rule goes to Gymnasium's ``create_shared_memory``, which raises its own error."""
    import gymnasium.error

    from gymspaces.gymnasium import patched

    class TheirCustom(GYM.Space):
        pass

    rules = gs_shm.generic_create_shared_memory
    plain = rules.dispatch(object)
    with patched():
        assert gs_vector.create_shared_memory.dispatch(object) is rules.dispatch(object) is not plain
        with pytest.raises(gymnasium.error.CustomSpaceError):
            gs_vector.create_shared_memory(TheirCustom(), n=2)
    assert rules.dispatch(object) is plain
    with pytest.raises(TypeError, match="not a gymnasium Space instance"):
        gs_vector.create_shared_memory(TheirCustom(), n=2)


def _worker(index, seed, memory):
    """Runs in a spawned process: sample the nested Dict and write it at ``index``."""
    import gymspaces  # noqa: F401 - the child imports the compiled package afresh

    space = RECIPES["nested-dict"](GS)
    space.seed(seed)
    gs_shm.write_to_shared_memory(space, index, space.sample(), memory)


def test_spawned_workers_write_what_the_parent_reads():
    space = RECIPES["nested-dict"](GS)
    context = multiprocessing.get_context("spawn")
    memory = gs_shm.create_shared_memory(space, n=N, ctx=context)
    run_workers(context, _worker, [(i, 100 + i, memory) for i in range(N)])
    read = gs_shm.read_from_shared_memory(space, memory, n=N)
    for i in range(N):
        expected_space = RECIPES["nested-dict"](GS)
        expected_space.seed(100 + i)
        expected = expected_space.sample()
        assert np.array_equal(read["pos"][i], expected["pos"])
        assert read["id"][i] == expected["id"]
        assert np.array_equal(read["flags"][i], expected["flags"])
        assert np.array_equal(read["inner"][0][i], expected["inner"][0])
        assert read["inner"][1][i] == expected["inner"][1]
