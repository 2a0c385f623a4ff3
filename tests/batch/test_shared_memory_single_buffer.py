"""``create_shared_memory(..., single_buffer=True)``: every leaf in one shared buffer (beyond Gymnasium)."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest

import gymspaces as GS
import gymspaces.vector as vector
from gymspaces.vector.shared_memory import SharedSlice
from support.composite_helpers import assert_same_sample_tree
from support.processes import run_workers

N = 3

SPACES = {
    "dict4": lambda: GS.Dict({"a": GS.Box(-1, 1, (3,)), "b": GS.Box(-1, 1, (3,)), "c": GS.Discrete(5),
                              "d": GS.MultiDiscrete([3, 4])}),
    "nested": lambda: GS.Dict({"t": GS.Tuple((GS.Discrete(2), GS.Text(4, charset="xyz"))),
                               "m": GS.MultiBinary((2, 2)), "h": GS.Box(-2, 2, (2,), np.float16),
                               "b": GS.Box(0, 1, (3,), np.bool_)}),
    "oneof": lambda: GS.OneOf((GS.Discrete(3), GS.Box(0, 1, (2,)))),
    "image": lambda: GS.Box(0, 255, (16, 16, 3), np.uint8),
}


def leaves(structure):
    if isinstance(structure, dict):
        for value in structure.values():
            yield from leaves(value)
    elif isinstance(structure, tuple):
        for value in structure:
            yield from leaves(value)
    else:
        yield structure


@pytest.mark.parametrize("name", list(SPACES))
def test_single_buffer_reads_what_the_default_layout_reads(name):
    space = SPACES[name]()
    space.seed(4)
    samples = [space.sample() for _ in range(N)]
    single = vector.create_shared_memory(space, N, single_buffer=True)
    default = vector.create_shared_memory(space, N)
    for i, sample in enumerate(samples):
        vector.write_to_shared_memory(space, i, sample, single)
        vector.write_to_shared_memory(space, i, sample, default)
    assert_same_sample_tree(vector.read_from_shared_memory(space, single, N),
                            vector.read_from_shared_memory(space, default, N))


@pytest.mark.parametrize("name", list(SPACES))
def test_one_allocation_with_aligned_leaves(name):
    calls = []

    class CountingContext:
        @staticmethod
        def Array(*args, **kwargs):
            calls.append(args)
            return multiprocessing.Array(*args, **kwargs)

    memory = vector.create_shared_memory(SPACES[name](), N, ctx=CountingContext, single_buffer=True)
    assert len(calls) == 1
    slices = list(leaves(memory))
    assert all(isinstance(part, SharedSlice) for part in slices)
    assert len({id(part.buffer) for part in slices}) == 1
    assert all(part.offset % 64 == 0 for part in slices)
    spans = sorted((part.offset, part.offset + part.nbytes) for part in slices)
    assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:]))  # no overlap


def test_read_views_write_through_to_the_buffer():
    space = SPACES["dict4"]()
    memory = vector.create_shared_memory(space, N, single_buffer=True)
    view = vector.read_from_shared_memory(space, memory, N)
    view["a"][1] = [0.5, -0.5, 0.25]
    again = vector.read_from_shared_memory(space, memory, N)
    assert again["a"][1].tolist() == [0.5, -0.5, 0.25]


@pytest.mark.parametrize("space, error", [
    (GS.Sequence(GS.Discrete(2)), TypeError),
    (GS.Graph(GS.Discrete(2), None), TypeError),
    ("not a space", TypeError),
])
def test_unsupported_spaces_raise(space, error):
    with pytest.raises(error):
        vector.create_shared_memory(space, 2, single_buffer=True)


def test_custom_spaces_need_the_default_layout():
    class Custom(GS.Space):
        pass

    with pytest.raises(TypeError, match="single_buffer"):
        vector.create_shared_memory(Custom(), 2, single_buffer=True)


def _worker(index, seed, memory):
    space = SPACES["nested"]()
    space.seed(seed)
    vector.write_to_shared_memory(space, index, space.sample(), memory)


def test_spawned_workers_write_into_one_buffer():
    context = multiprocessing.get_context("spawn")
    space = SPACES["nested"]()
    memory = vector.create_shared_memory(space, N, ctx=context, single_buffer=True)
    run_workers(context, _worker, [(i, 50 + i, memory) for i in range(N)])
    read = vector.read_from_shared_memory(space, memory, N)
    for i in range(N):
        expected_space = SPACES["nested"]()
        expected_space.seed(50 + i)
        expected = expected_space.sample()
        assert read["t"][0][i] == expected["t"][0]
        assert read["t"][1][i] == expected["t"][1]
        assert np.array_equal(read["m"][i], expected["m"])
        assert np.array_equal(read["h"][i], expected["h"])
        assert np.array_equal(read["b"][i], expected["b"])
