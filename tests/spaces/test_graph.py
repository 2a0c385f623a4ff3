"""Unit tests of gymspaces.Graph / GraphInstance and of the _graph kernel."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import gymspaces.vector as gs_vector
from support import common_checks
from support.differential import GS, GYM, assert_same_generator_state, assert_same_outcome, assert_same_value, outcome
from support.composite_helpers import assert_same_tree_states
from gymspaces import Box, Dict, Discrete, Graph, GraphInstance, MultiBinary, MultiDiscrete, Text, Tuple
from gymspaces import _graph
from gymspaces.error import Error

# --------------------------------------------------------------------------- basics


def test_graph_instance_is_a_named_tuple():
    graph = GraphInstance(np.zeros(2), None, None)
    assert GraphInstance._fields == ("nodes", "edges", "edge_links")
    assert isinstance(graph, tuple)
    nodes, edges, links = graph
    assert edges is None and links is None and graph.nodes is nodes


def test_attributes_repr_equality():
    space = Graph(Box(0, 1, (3,)), Discrete(2))
    assert space.shape is None and space.dtype is None and space.is_np_flattenable is False
    assert repr(space) == "Graph(Box(0.0, 1.0, (3,), float32), Discrete(2))"
    assert repr(Graph(Discrete(2), None)) == "Graph(Discrete(2), None)"
    assert space.batch_node_space == Box(0, 1, (1, 3))
    assert repr(space.batch_edge_space) == "MultiDiscrete([2])"
    assert Graph(Discrete(2), None).batch_edge_space is None
    assert space == Graph(Box(0, 1, (3,)), Discrete(2))
    assert space != Graph(Box(0, 1, (3,)), None)
    assert space != Graph(Box(0, 1, (3,)), Discrete(3))
    with pytest.raises(TypeError):
        hash(space)


def test_non_space_children_fail_in_batch_space():
    for lib in (GS, GYM):
        with pytest.raises(TypeError, match="is not a gymnasium Space instance"):
            lib.Graph(Box, None)
        with pytest.raises(TypeError, match="is not a gymnasium Space instance"):
            lib.Graph(lib.Discrete(2), 3)


# --------------------------------------------------------------------------- seeding


def test_int_seeds():
    space = Graph(Discrete(3), Discrete(2))
    own, node, edge = space.seed(4)
    reference = np.random.default_rng(4)
    assert own == 4 and (node, edge) == tuple(int(v) for v in reference.integers(2**31 - 1, size=2))
    assert_same_generator_state(space.np_random, np.random.default_rng(4))
    no_edges = Graph(Discrete(3), None)
    assert no_edges.seed(4) == (4, int(np.random.default_rng(4).integers(2**31 - 1)))


def test_sequence_and_none_seeds():
    assert Graph(Discrete(3), Discrete(2)).seed([1, 2, 3]) == (1, 2, 3)
    assert Graph(Discrete(3), None).seed((1, 2)) == (1, 2)
    assert Graph(Tuple((Discrete(2),)), None).seed([1, [2]]) == (1, (2,))
    seeds = Graph(Discrete(3), Discrete(2)).seed(None)
    assert len(seeds) == 3 and all(type(s) is int for s in seeds)


@pytest.mark.parametrize("edge", [True, False])
@pytest.mark.parametrize(
    "seed, error",
    [((1, 2, 3, 4), ValueError), ((1,), ValueError), ("x", TypeError), (np.int64(1), TypeError),
     ({"a": 1}, TypeError), (-1, Error)],
)
def test_bad_seeds_match_gymnasium(edge, seed, error):
    results = common_checks.check_bad_seed(
        lambda lib: lib.Graph(lib.Discrete(2), lib.Discrete(2) if edge else None), seed, error)
    assert str(results[0].error) == str(results[1].error) or error is Error


# --------------------------------------------------------------------------- sampling


def test_golden_sample():
    graph = Graph(Discrete(3), Discrete(2), seed=0).sample(num_nodes=3)
    np.testing.assert_array_equal(graph.nodes, [2, 0, 0])
    np.testing.assert_array_equal(graph.edges, [1, 0, 0, 1, 1])
    np.testing.assert_array_equal(graph.edge_links, [[1, 1], [0, 0], [0, 0], [0, 0], [2, 1]])
    assert graph.edge_links.dtype == np.int32 and graph.nodes.dtype == np.int64


def test_node_features_overlap_between_samples():
    """Quirk Q4 (docs/quirks.md): nodes come from a copy of the node generator, advanced
    by one word after, in both libraries."""
    samples = []
    for lib in (GS, GYM):
        space = lib.Graph(lib.Box(0, 1, (1,), dtype=np.float64), None, seed=0)
        first = space.sample(num_nodes=4).nodes
        second = space.sample(num_nodes=4).nodes
        np.testing.assert_array_equal(second[:-1], first[1:])
        samples.append((first, second))
    assert_same_value(*samples)


def test_dict_node_features_repeat_forever():
    """Quirk Q4 (docs/quirks.md): a Dict node space's children never advance."""
    samples = []
    for lib in (GS, GYM):
        space = lib.Graph(lib.Dict(a=lib.Discrete(5), b=lib.Box(0, 1, (2,))), None, seed=0)
        first, second = space.sample(num_nodes=3).nodes, space.sample(num_nodes=3).nodes
        assert_same_value(first, second)
        samples.append(first)
    assert_same_value(*samples)


def test_num_edges_is_drawn_without_edge_space():
    """Quirk Q5 (docs/quirks.md): the Graph's own generator draws num_edges even with no
    edge space."""
    for lib in (GS, GYM):
        space = lib.Graph(lib.Discrete(3), None, seed=0)
        reference = np.random.default_rng(0)
        graph = space.sample(num_nodes=5)
        reference.integers(5 * 4)
        assert graph.edges is None and graph.edge_links is None
        assert_same_generator_state(space.np_random, reference)
        space.sample(num_nodes=1)  # a single node: no draw
        assert_same_generator_state(space.np_random, reference)


def test_explicit_num_edges_does_not_replicate_the_edge_mask():
    """Quirk Q6 (docs/quirks.md): the edge mask is passed as is, which a Discrete edge
    space rejects."""
    for lib in (GS, GYM):
        space = lib.Graph(lib.Discrete(3), lib.Discrete(3), seed=0)
        with pytest.raises(AssertionError):
            space.sample(mask=(None, np.array([1, 0, 1], np.int8)), num_edges=3)
        edges = space.sample(mask=(None, tuple([np.array([0, 1, 0], np.int8)] * 3)), num_edges=3).edges
        np.testing.assert_array_equal(edges, [1, 1, 1])


def test_edge_mask_is_replicated_when_num_edges_is_drawn():
    space = Graph(Discrete(3), Discrete(4), seed=1)
    for _ in range(5):
        graph = space.sample(mask=(None, np.array([0, 0, 1, 0], np.int8)), num_nodes=4)
        assert graph.edges is None or set(graph.edges.tolist()) == {2}


def test_warning_when_num_edges_is_given_without_edge_space():
    for lib in (GS, GYM):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            graph = lib.Graph(lib.Discrete(3), None, seed=0).sample(num_edges=4)
        assert graph.edges is None
        assert [str(w.message) for w in caught] == [
            "\x1b[33mWARN: The number of edges is set (4) but the edge space is None.\x1b[0m"
        ]


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"num_nodes": 0}, AssertionError),
        ({"num_nodes": -3}, AssertionError),
        ({"num_edges": -1}, AssertionError),
        ({"mask": (None, None), "probability": (None, None)}, ValueError),
        ({"mask": (None,)}, ValueError),
        ({"mask": 3}, TypeError),
        ({"mask": (np.ones(3, np.int8), None)}, AssertionError),
        ({"mask": (tuple([np.ones(3, np.int8)] * 9), None)}, AssertionError),
        ({"probability": (None, np.array([0.5, 0.6]))}, AssertionError),
        ({"num_nodes": None}, TypeError),
        ({"num_nodes": 2.5}, TypeError),
        ({"num_nodes": 3, "num_edges": 2.0}, TypeError),
    ],
)
def test_bad_arguments_match_gymnasium(kwargs, error):
    """Same exception type, and every generator left where Gymnasium leaves it."""
    spaces = [lib.Graph(lib.Discrete(3), lib.Discrete(2), seed=5) for lib in (GS, GYM)]
    results = [outcome(lambda s=s: s.sample(**kwargs)) for s in spaces]
    assert isinstance(results[0].error, error)
    assert_same_outcome(*results, same_warnings=False)
    assert_same_tree_states(*spaces, repr(kwargs))


def test_negative_num_edges_message():
    with pytest.raises(AssertionError, match="Expects the number of edges to be greater than 0, actual value: -1"):
        Graph(Discrete(3), Discrete(2)).sample(num_edges=-1)
    with pytest.raises(AssertionError, match="The number of nodes is expected to be greater than 0"):
        Graph(Discrete(3), Discrete(2)).sample(num_nodes=0)


@pytest.mark.parametrize(
    "num_nodes, num_edges",
    [(1, None), (1, 3), (2, None), (np.int64(6), None), (np.int32(4), np.int64(5)), (3, 0),
     (True, None), (7, 1)],
)
def test_unusual_counts_match_gymnasium(num_nodes, num_edges):
    for seed in range(5):
        spaces = [lib.Graph(lib.Box(-1, 1, (2,)), lib.Discrete(3), seed=seed) for lib in (GS, GYM)]
        results = [outcome(lambda s=s: s.sample(num_nodes=num_nodes, num_edges=num_edges))
                   for s in spaces]
        assert_same_outcome(*results, same_warnings=False)
        assert_same_tree_states(*spaces)


@pytest.mark.parametrize(
    "node, edge",
    [
        (lambda L: L.Box(0, 1, (3,)), lambda L: L.Discrete(3)),
        (lambda L: L.Box(-np.inf, np.inf, (2,), np.int16), lambda L: L.MultiBinary(2)),
        (lambda L: L.Box(-1.0, np.inf, (2, 2), np.float64), lambda L: L.Box(0, 5, (), np.uint8)),
        (lambda L: L.Box(0, 1, (2,), np.float16), None),
        (lambda L: L.Box(np.zeros(2, bool), np.ones(2, bool), dtype=np.bool_), lambda L: L.MultiDiscrete([2, 3])),
        (lambda L: L.MultiDiscrete([[2, 3], [4, 5]]), lambda L: L.Discrete(4, start=-2, dtype=np.int8)),
        (lambda L: L.Tuple((L.Discrete(2), L.Box(0, 1))), lambda L: L.Text(3)),
        (lambda L: L.Dict(a=L.Discrete(2)), lambda L: L.Dict(b=L.Box(0, 1, (2,)))),
        # Detached (no batched space built) samplers: dtypes, offsets that wrap, unbounded passes.
        (lambda L: L.Discrete(5, start=250, dtype=np.uint8), lambda L: L.Discrete(3, start=-2, dtype=np.int16)),
        (lambda L: L.Box(-np.inf, np.inf, (3,), np.float64), lambda L: L.Box(-1, np.inf, (2,), np.float32)),
        (lambda L: L.Box(0, 255, (4,), np.uint8), lambda L: L.Discrete(2**40, start=-(2**50))),
        (lambda L: L.Box(-5, 5, (2,), np.int64), lambda L: L.Discrete(7, dtype=np.uint32)),
    ],
)
def test_sample_streams_match_gymnasium(node, edge):
    for seed in range(15):
        spaces = [lib.Graph(node(lib), None if edge is None else edge(lib), seed=seed)
                  for lib in (GS, GYM)]
        for num_nodes in (1, 2, 5, 10):
            assert_same_value(spaces[0].sample(num_nodes=num_nodes), spaces[1].sample(num_nodes=num_nodes))
        assert_same_tree_states(*spaces, f"seed {seed}")


def test_masked_and_weighted_discrete_nodes_match_gymnasium():
    rng = np.random.default_rng(0)
    for seed in range(15):
        spaces = [lib.Graph(lib.Discrete(4), lib.Discrete(3), seed=seed) for lib in (GS, GYM)]
        node_mask = tuple(rng.integers(0, 2, 4).astype(np.int8) for _ in range(6))
        edge_probability = rng.dirichlet(np.ones(3))
        for kwargs in (
            {"mask": (node_mask, np.array([1, 0, 1], np.int8))},
            {"probability": (tuple(rng.dirichlet(np.ones(4)) for _ in range(6)), edge_probability)},
            {"probability": (None, tuple([edge_probability] * 4)), "num_edges": 4},
        ):
            results = [outcome(lambda s=s: s.sample(num_nodes=6, **kwargs)) for s in spaces]
            assert not results[0].raised
            assert_same_outcome(*results, same_warnings=False)
        assert_same_tree_states(*spaces, f"seed {seed}")


def test_shared_and_non_pcg64_generators_match_gymnasium():
    def build(lib, make):
        shared = make()
        return lib.Graph(lib.Box(0, 1, (2,), seed=shared), lib.Discrete(5, seed=shared), seed=shared)

    for make in (
        lambda: np.random.default_rng(3),
        lambda: np.random.Generator(np.random.MT19937(3)),
        lambda: np.random.Generator(np.random.Philox(3)),
        lambda: np.random.Generator(np.random.SFC64(3)),
    ):
        spaces = [build(lib, make) for lib in (GS, GYM)]
        for _ in range(4):
            assert_same_value(spaces[0].sample(num_nodes=4), spaces[1].sample(num_nodes=4))
        assert_same_generator_state(spaces[0].np_random, spaces[1].np_random)


def test_unseeded_graph_first_sample_seeds_lazily():
    space = Graph(Box(0, 1, (2,)), Discrete(3))
    assert space._np_random is None
    space.sample(num_nodes=1)  # one node: the Graph's own generator is not needed
    assert space._np_random is None and space.node_space._np_random is not None
    space.sample(num_nodes=3)
    assert space._np_random is not None


def test_a_custom_batch_space_for_box_is_respected():
    original = gs_vector.batch_space.dispatch(Box)
    calls = []

    def counting(space, n=1):
        calls.append(n)
        return original(space, n)

    gs_vector.batch_space.register(Box, counting)
    try:
        space = Graph(Box(0, 1, (2,)), None, seed=0)
        space.sample(num_nodes=4)
    finally:
        gs_vector.batch_space.register(Box, original)
    assert calls == [1, 4]
    assert gs_vector.batch_space.dispatch(Box) is original


# --------------------------------------------------------------------------- contains


def test_contains():
    space = Graph(Box(0, 1, (2,)), Discrete(3), seed=0)
    assert space.sample() in space
    nodes = np.full((3, 2), 0.5, np.float32)
    links = np.array([[0, 1], [2, 2]], np.int64)
    assert space.contains(GraphInstance(nodes, np.array([0, 2]), links))
    assert space.contains(GraphInstance(nodes, None, None))
    assert not space.contains((nodes, None, None))  # a plain tuple
    assert not space.contains(GraphInstance(None, None, None))
    assert not space.contains(GraphInstance(nodes * 3, None, None))
    assert not space.contains(GraphInstance(nodes, np.array([0, 2]), None))
    assert not space.contains(GraphInstance(nodes, None, links))
    assert not space.contains(GraphInstance(nodes, np.array([0, 5]), links))
    assert not space.contains(GraphInstance(nodes, np.array([0, 2]), links.tolist()))
    assert not space.contains(GraphInstance(nodes, np.array([0, 2]), links.astype(float)))
    assert not space.contains(GraphInstance(nodes, np.array([0, 2]), links[:1]))
    assert not space.contains(GraphInstance(nodes, np.array([0, 2]), links + 1))
    assert not space.contains(GraphInstance(nodes, np.array([0, 2]), -links))
    no_edges = Graph(Box(0, 1, (2,)), None)
    assert not no_edges.contains(GraphInstance(nodes, np.array([0, 2]), links))
    assert not space.contains(GYM.GraphInstance(nodes, None, None))


def test_jsonable_round_trip_matches_gymnasium():
    spaces = [lib.Graph(lib.Box(0, 1, (2,)), lib.Discrete(3), seed=2) for lib in (GS, GYM)]
    samples = [[space.sample(num_nodes=n) for n in (1, 4)] for space in spaces]
    data = [space.to_jsonable(batch) for space, batch in zip(spaces, samples)]
    assert_same_value(data[0], data[1])
    assert "edges" not in data[0][0] and set(data[0][1]) == {"nodes", "edges", "edge_links"}
    back = [space.from_jsonable(d) for space, d in zip(spaces, data)]
    assert_same_value(back[0], back[1])
    assert all(isinstance(g, GraphInstance) for g in back[0])


# --------------------------------------------------------------------------- kernel


@pytest.mark.parametrize("num_nodes", [1, 2, 3, 10, 1000, 2**31])
@pytest.mark.parametrize("num_edges", [0, 1, 7, 3000])
def test_edge_links_kernel_matches_numpy(num_nodes, num_edges):
    space = Discrete(2, seed=9)
    reference = np.random.default_rng(9)
    space.np_random.integers(2**32)  # leave a buffered half-word in both
    reference.integers(2**32)
    links = _graph.graph_edge_links(space, num_nodes, num_edges)
    expected = reference.integers(0, num_nodes, size=(num_edges, 2), dtype=np.int32)
    assert links.dtype == np.int32 and links.shape == (num_edges, 2) and links.flags.c_contiguous
    np.testing.assert_array_equal(links, expected)
    assert_same_generator_state(space.np_random, reference)


@pytest.mark.parametrize("high", [1, 2, 90, 2**32 - 1, 2**32, 2**32 + 1, 2**40, 2**63 - 1])
def test_integers_below_matches_numpy(high):
    space = Discrete(2, seed=1)
    reference = np.random.default_rng(1)
    for _ in range(5):
        assert _graph.integers_below(space, high) == int(reference.integers(high))
    assert_same_generator_state(space.np_random, reference)
    assert type(_graph.integers_below(space, high)) is int


def test_kernel_argument_checks():
    space = Discrete(2, seed=0)
    with pytest.raises(ValueError):
        _graph.integers_below(space, 0)
    with pytest.raises(ValueError):
        _graph.graph_num_edges(space, 1)
    with pytest.raises(ValueError):
        _graph.graph_edge_links(space, 0, 2)
    with pytest.raises(ValueError):
        _graph.graph_edge_links(space, 2**31 + 1, 2)
    with pytest.raises(ValueError):
        _graph.graph_edge_links(space, 2, -1)
    with pytest.raises(OverflowError):
        _graph.integers_below(space, -1)
    assert_same_generator_state(space.np_random, np.random.default_rng(0))


def test_num_edges_kernel():
    space = Discrete(2, seed=4)
    reference = np.random.default_rng(4)
    for n in (2, 3, 10, 3037000499):
        assert _graph.graph_num_edges(space, n) == int(reference.integers(n * (n - 1)))
    assert_same_generator_state(space.np_random, reference)


def test_edge_links_fallback_raises_like_numpy():
    spaces = [lib.Graph(lib.Discrete(2), lib.Discrete(2), seed=0) for lib in (GS, GYM)]
    ours = outcome(lambda: spaces[0]._draw_edge_links(2**31 + 1, 3))
    theirs = outcome(lambda: spaces[1].np_random.integers(0, 2**31 + 1, size=(3, 2), dtype=np.int32))
    assert_same_outcome(ours, theirs, same_warnings=False)


@pytest.mark.parametrize(
    "low, high",
    [
        (np.float32(0), np.float32(1)),
        (np.array([-np.inf, 0.0, 1.0]), np.array([np.inf, np.inf, 2.0])),
        (np.array([[-np.inf, 0], [1, 2]], np.float32), np.array([[1, 1], [np.inf, 3]], np.float32)),
        (np.array([-5, 0], np.int32), np.array([5, 9], np.int32)),
        (np.array([0, 1], np.uint64), np.array([3, 2**64 - 1], np.uint64)),
        (np.array([False, True]), np.array([True, True])),
        (np.array(3, np.int8), np.array(5, np.int8)),
    ],
)
@pytest.mark.parametrize("n", [1, 4])
def test_box_batch_bounds_match_the_box_constructor(low, high, n):
    low, high = np.asarray(low), np.asarray(high)
    tiled = _graph.box_batch_bounds(low, high, n)
    assert tiled is not None
    reps = (n,) + (1,) * low.ndim
    reference = Box(np.tile(low, reps), np.tile(high, reps), dtype=low.dtype)
    for ours, expected in zip(tiled, (reference.low, reference.high,
                                      reference.bounded_below, reference.bounded_above)):
        assert ours.dtype == expected.dtype and ours.flags.c_contiguous
        np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize(
    "low, high",
    [
        (np.array([0.0, np.nan]), np.ones(2)),
        (np.zeros(2), np.array([np.nan, 1.0])),
        (np.zeros(2, np.float16), np.ones(2, np.float16)),
        (np.zeros(2), np.ones(3)),
        (np.zeros(2, np.float32), np.ones(2)),
        (np.zeros(2, ">f8"), np.ones(2, ">f8")),
        ([0.0], [1.0]),
    ],
)
def test_box_batch_bounds_declines_unusual_bounds(low, high):
    assert _graph.box_batch_bounds(low, high, 3) is None


def test_nan_bounds_edited_in_raise_like_gymnasium():
    spaces = [lib.Graph(lib.Box(0, 1, (2,)), None, seed=0) for lib in (GS, GYM)]
    for space in spaces:
        space.node_space.low[0] = np.nan
    results = [outcome(lambda s=s: s.sample(num_nodes=3)) for s in spaces]
    assert isinstance(results[0].error, ValueError)
    assert_same_outcome(*results, same_warnings=False)
    assert_same_tree_states(*spaces)


def test_fundamental_children_kinds():
    """Each fundamental node space samples as its batched form does in Gymnasium."""
    assert Graph(MultiBinary(3), None, seed=0).sample(num_nodes=2).nodes.dtype == np.int8
    assert Graph(MultiDiscrete([2, 3]), None, seed=0).sample(num_nodes=2).nodes.shape == (2, 2)
    assert type(Graph(Text(2), None, seed=0).sample(num_nodes=2).nodes) is tuple


@pytest.mark.parametrize(
    "node, edit",
    [
        (lambda L: L.MultiDiscrete([6, 2], dtype=np.uint8, start=[250, 0]), None),
        (lambda L: L.MultiDiscrete([6, 2], dtype=np.uint8), lambda s: s.start.__setitem__(0, 253)),
        (lambda L: L.MultiDiscrete([3, 2]), lambda s: setattr(s, "start", np.array([1, 1], np.int32))),
        (lambda L: L.Discrete(4), lambda s: setattr(s, "n", np.int64(0))),
        (lambda L: L.Box(0, 1, (2,)), lambda s: s.low.__setitem__(0, 2.0)),
        (lambda L: L.Box(0, 1, (2,)), lambda s: setattr(s, "low", np.zeros(2))),
        (lambda L: L.MultiBinary((2, 3)), None),
    ],
)
def test_edited_and_edge_case_node_spaces_match_gymnasium(node, edit):
    """The fast batched builders defer to the real constructors whenever those would object."""
    for seed in range(3):
        spaces = [lib.Graph(node(lib), None, seed=seed) for lib in (GS, GYM)]
        if edit is not None:
            for space in spaces:
                edit(space.node_space)
        for _ in range(2):
            results = [outcome(lambda s=s: s.sample(num_nodes=3)) for s in spaces]
            assert_same_outcome(*results, same_warnings=False)
        assert_same_tree_states(*spaces)


@pytest.mark.parametrize("entry", [np.bool_(True), 3, None, {"nodes": None, "edges": [[0.5]]}])
def test_from_jsonable_checks_edges_key_first(entry):
    """Gymnasium tests ``"edges" in entry`` (and then the edge space) before reading the nodes."""
    results = [outcome(lambda: lib.Graph(lib.Box(0, 1, (2,)), None).from_jsonable([entry])) for lib in (GS, GYM)]
    assert_same_outcome(*results, f"from_jsonable([{entry!r}])", same_warnings=False)
    assert results[1].raised
