"""Shared helpers for the composite-space tests (Tuple, Dict, Sequence, Graph, OneOf).

Results are compared with :mod:`support.differential`'s comparator.

* Space *descriptions* are plain nested tuples (readable in Hypothesis
  reports); :func:`build` turns one into a space of either library, and
  :data:`space_descriptions` generates them.
* :func:`make_mask` and :func:`seed_structure` produce valid masks /
  probabilities and nested seeds for a description.
* :func:`generators` lists every generator of a space tree, so final RNG
  states can be compared after a stream of samples.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium.spaces
import numpy as np
from hypothesis import strategies as st

import gymspaces
from support.differential import assert_same_generator_state

GS = gymspaces
GYM = gymnasium.spaces
LIBS = (GS, GYM)

# --------------------------------------------------------------------------- space trees


def children(space: Any) -> list[Any]:
    """Direct sub-spaces of a composite space of either library (empty for leaves)."""
    name = type(space).__name__
    if name in ("Tuple", "OneOf"):
        return list(space.spaces)
    if name == "Dict":
        return list(space.spaces.values())
    if name == "Sequence":
        return [space.feature_space]
    if name == "Graph":
        return [space.node_space] + ([] if space.edge_space is None else [space.edge_space])
    return []


def generators(space: Any, path: str = "root") -> Iterator[tuple[str, Any]]:
    """``(path, space._np_random)`` for every space of a tree, depth first."""
    yield path, space._np_random
    for i, child in enumerate(children(space)):
        yield from generators(child, f"{path}/{i}:{type(child).__name__}")


def assert_same_tree_states(gs_space: Any, gym_space: Any, context: str = "") -> None:
    """Every generator of the two trees is unset in both or in the same state."""
    gs_gens, gym_gens = list(generators(gs_space)), list(generators(gym_space))
    assert [p for p, _ in gs_gens] == [p for p, _ in gym_gens]
    for (path, a), (_, b) in zip(gs_gens, gym_gens):
        assert (a is None) == (b is None), f"generator set in only one library at {path} ({context})"
        if a is not None:
            assert_same_generator_state(a, b, f"{context} {path}")


def same_sharing(gs_space: Any, gym_space: Any) -> bool:
    """The two trees share generators between the same pairs of spaces."""

    def pattern(space: Any) -> list[int | None]:
        ids: dict[int, int] = {}
        result = []
        for _, gen in generators(space):
            result.append(None if gen is None else ids.setdefault(id(gen), len(ids)))
        return result

    return pattern(gs_space) == pattern(gym_space)


# --------------------------------------------------------------------------- descriptions

LEAF_KINDS = ("Box", "Discrete", "MultiDiscrete", "MultiBinary", "Text")
inf = float("inf")

BOX_DESCRIPTIONS = [
    ("Box", 0.0, 1.0, (2,), "float32"),
    ("Box", -1.0, 2.0, (), "float64"),
    ("Box", -inf, inf, (2,), "float32"),
    ("Box", 0.5, inf, (3,), "float64"),
    ("Box", -inf, -1.0, (1,), "float32"),
    ("Box", 0, 9, (2,), "int64"),
    ("Box", -inf, inf, (2,), "int32"),
    ("Box", 0, 255, (3,), "uint8"),
    ("Box", -2.0, 2.0, (2, 2), "float16"),
]


def build(lib: Any, desc: tuple, gen: Iterator[Any] | None = None) -> Any:
    """Build the space described by ``desc`` with ``lib`` (gymspaces or gymnasium.spaces).

    ``gen`` optionally yields a ``seed=`` argument for every space built (children
    first, in construction order), e.g. fresh or shared ``numpy`` Generators.
    """
    kind = desc[0]
    kids: dict[str, Any] = {}
    if kind == "Tuple":
        kids["spaces"] = [build(lib, child, gen) for child in desc[1]]
    elif kind == "OneOf":
        kids["spaces"] = [build(lib, child, gen) for child in desc[1]]
    elif kind == "Dict":
        kids["spaces"] = {key: build(lib, child, gen) for key, child in desc[1]}
    elif kind == "Sequence":
        kids["space"] = build(lib, desc[1], gen)
    elif kind == "Graph":
        kids["node"] = build(lib, desc[1], gen)
        kids["edge"] = None if desc[2] is None else build(lib, desc[2], gen)
    kw = {} if gen is None else {"seed": next(gen)}
    if kind == "Box":
        _, low, high, shape, dtype = desc
        return lib.Box(low, high, shape, np.dtype(dtype), **kw)
    if kind == "Discrete":
        return lib.Discrete(desc[1], start=desc[2], **kw)
    if kind == "MultiDiscrete":
        return lib.MultiDiscrete(list(desc[1]), **kw)
    if kind == "MultiBinary":
        return lib.MultiBinary(desc[1], **kw)
    if kind == "Text":
        return lib.Text(desc[1], min_length=desc[2], charset=desc[3], **kw)
    if kind == "Tuple":
        return lib.Tuple(kids["spaces"], **kw)
    if kind == "OneOf":
        return lib.OneOf(kids["spaces"], **kw)
    if kind == "Dict":
        return lib.Dict(kids["spaces"], sort_keys=desc[2], **kw)
    if kind == "Sequence":
        return lib.Sequence(kids["space"], stack=desc[2], **kw)
    if kind == "Graph":
        return lib.Graph(kids["node"], kids["edge"], **kw)
    raise ValueError(kind)


def build_pair(desc: tuple) -> tuple[Any, Any]:
    return build(GS, desc), build(GYM, desc)


_discrete = st.builds(
    lambda n, start: ("Discrete", n, start), st.integers(1, 5), st.integers(-3, 3)
)
_multi_discrete = st.builds(
    lambda nvec: ("MultiDiscrete", tuple(nvec)), st.lists(st.integers(1, 4), min_size=1, max_size=3)
)
_multi_binary = st.builds(lambda n: ("MultiBinary", n), st.integers(1, 5))
_text = st.builds(
    lambda max_length, min_length, charset: ("Text", max_length, min(min_length, max_length), charset),
    st.integers(1, 4),
    st.integers(0, 2),
    st.sampled_from(["abc", "xy01"]),
)
numeric_leaves = st.one_of(st.sampled_from(BOX_DESCRIPTIONS), _discrete, _multi_discrete, _multi_binary)
leaf_descriptions = st.one_of(numeric_leaves, _text)
_keys = st.sampled_from(["a", "b", "c", "pos", "vel"])

# Graph features: fundamental spaces, or a small Tuple/Dict of numeric ones.
graph_node_descriptions = st.one_of(
    numeric_leaves,
    st.builds(lambda kids: ("Tuple", tuple(kids)), st.lists(numeric_leaves, min_size=1, max_size=2)),
    st.builds(
        lambda pairs: ("Dict", tuple(pairs), True),
        st.lists(st.tuples(_keys, numeric_leaves), min_size=1, max_size=2, unique_by=lambda p: p[0]),
    ),
)
graph_descriptions = st.builds(
    lambda node, edge: ("Graph", node, edge),
    graph_node_descriptions,
    st.one_of(st.none(), numeric_leaves),
)


def _extend(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.builds(lambda kids: ("Tuple", tuple(kids)), st.lists(inner, max_size=3)),
        st.builds(
            lambda pairs, sort_keys: ("Dict", tuple(pairs), sort_keys),
            st.lists(st.tuples(_keys, inner), max_size=3, unique_by=lambda p: p[0]),
            st.booleans(),
        ),
        st.builds(lambda child, stack: ("Sequence", child, stack), inner, st.booleans()),
        st.builds(lambda kids: ("OneOf", tuple(kids)), st.lists(inner, min_size=1, max_size=3)),
    )


space_descriptions = st.recursive(
    st.one_of(leaf_descriptions, graph_descriptions), _extend, max_leaves=5
)
composite_descriptions = space_descriptions.filter(lambda d: d[0] not in LEAF_KINDS)


# --------------------------------------------------------------------------- masks


def _weights(rng: np.random.Generator, n: int) -> np.ndarray:
    """Probabilities over ``n`` entries, some zero, summing to one."""
    w = rng.random(n)
    w[rng.random(n) < 0.3] = 0.0
    if not w.any():
        w[rng.integers(n)] = 1.0
    return w / w.sum()


def _binary(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, 2, n).astype(np.int8)


def _leaf_mask(desc: tuple, rng: np.random.Generator, kind: str) -> Any:
    name = desc[0]
    weighted = kind == "probability"
    if name == "Discrete":
        return _weights(rng, desc[1]) if weighted else _binary(rng, desc[1])
    if name == "MultiDiscrete":
        return tuple(_weights(rng, n) if weighted else _binary(rng, n) for n in desc[1])
    if name == "MultiBinary":
        if weighted:
            return rng.random(desc[1])
        return rng.integers(0, 3, desc[1]).astype(np.int8)
    if name == "Text":
        length = None if rng.random() < 0.5 else int(rng.integers(desc[2], desc[1] + 1))
        chars = len(set(desc[3]))
        part = None if rng.random() < 0.3 else (_weights(rng, chars) if weighted else _binary(rng, chars))
        return (length, part)
    return None  # Box: no masks


def _length_mask(rng: np.random.Generator, stack: bool) -> Any:
    low = 1 if stack else 0  # a stacked sequence of length 0 raises (tested elsewhere)
    choice = rng.integers(4)
    if choice == 0:
        return None
    if choice == 1:
        return int(rng.integers(low, 4))
    if choice == 2:
        return np.int64(rng.integers(low, 4))
    return rng.integers(low, 4, size=int(rng.integers(1, 4)))


def make_mask(desc: tuple, rng: np.random.Generator, kind: str) -> Any:
    """A valid ``mask`` (kind="mask") or ``probability`` structure for ``desc``."""
    name = desc[0]
    if name in LEAF_KINDS:
        return _leaf_mask(desc, rng, kind)
    if name in ("Tuple", "OneOf"):
        return tuple(make_mask(child, rng, kind) for child in desc[1])
    if name == "Dict":
        pairs = list(desc[1])
        order = rng.permutation(len(pairs))  # key order of a mask does not matter
        return {pairs[i][0]: make_mask(pairs[i][1], rng, kind) for i in order}
    if name == "Sequence":
        return (_length_mask(rng, desc[2]), make_mask(desc[1], rng, kind))
    if name == "Graph":
        node, edge = desc[1], desc[2]
        node_mask = None
        if node[0] == "Discrete" and rng.random() < 0.8:
            # The batched node space is a MultiDiscrete over the default 10 nodes.
            node_mask = tuple(_leaf_mask(node, rng, kind) for _ in range(10))
        edge_mask = None
        if edge is not None and edge[0] == "Discrete" and rng.random() < 0.8:
            edge_mask = _leaf_mask(edge, rng, kind)  # repeated once per edge by Graph
        return (node_mask, edge_mask)
    raise ValueError(name)


# --------------------------------------------------------------------------- seeds


def seed_structure(desc: tuple, rng: np.random.Generator, *, in_graph: bool = False) -> Any:
    """A nested seed for ``desc`` mixing ints, lists, tuples and dicts.

    Tuples/Dicts below a Graph or a stacked Sequence get ints only: a list or
    dict seed leaves their own generator as it was (quirk Q2) -- unset, so the
    Graph's per-sample ``batch_space`` would reseed it from OS entropy, or
    already seeded from OS entropy when the parent was built (quirk Q1).
    """
    name = desc[0]

    def draw() -> int:
        return int(rng.integers(0, 2**32))

    if name in LEAF_KINDS or (in_graph and name in ("Tuple", "Dict")) or rng.random() < 0.25:
        return draw()
    if name == "Tuple":
        parts = [seed_structure(child, rng, in_graph=in_graph) for child in desc[1]]
        return parts if rng.random() < 0.5 else tuple(parts)
    if name == "Dict":
        pairs = list(desc[1])
        order = rng.permutation(len(pairs))
        return {pairs[i][0]: seed_structure(pairs[i][1], rng, in_graph=in_graph) for i in order}
    if name == "Sequence":
        return [draw(), seed_structure(desc[1], rng, in_graph=in_graph or desc[2])]
    if name == "Graph":
        parts = [draw(), seed_structure(desc[1], rng, in_graph=True)]
        if desc[2] is not None:
            parts.append(seed_structure(desc[2], rng, in_graph=True))
        return tuple(parts)
    if name == "OneOf":
        return [draw(), *[seed_structure(child, rng, in_graph=in_graph) for child in desc[1]]]
    raise ValueError(name)


def seed_shape(seeds: Any) -> Any:
    """The structure of a seed() result with every int replaced by ``int``."""
    if isinstance(seeds, dict):
        return {key: seed_shape(value) for key, value in seeds.items()}
    if isinstance(seeds, (tuple, list)):
        return type(seeds)(seed_shape(value) for value in seeds)
    return type(seeds)


# --------------------------------------------------------------------------- fixed corpus

_BOX3 = ("Box", 0.0, 1.0, (3,), "float32")
_BOX_UNB = ("Box", -inf, inf, (2,), "float64")
_D3 = ("Discrete", 3, 0)
_D2S = ("Discrete", 2, -1)
_MD = ("MultiDiscrete", (3, 4))
_MB = ("MultiBinary", 3)
_TEXT = ("Text", 4, 1, "abc")

# Hand-picked nested spaces, sampled over many seeds by test_composite_parity.
COMPOSITE_CORPUS: dict[str, tuple] = {
    "Dict(Tuple(Sequence(Box)))": (
        "Dict",
        (("obs", ("Tuple", (("Sequence", _BOX3, False), _D3))), ("act", _MD)),
        True,
    ),
    "Dict-unsorted": ("Dict", (("z", _D3), ("a", _BOX_UNB), ("m", _MB)), False),
    "Tuple(Text,MultiBinary,Box)": ("Tuple", (_TEXT, _MB, _BOX_UNB)),
    "Sequence(Dict)-stack": ("Sequence", ("Dict", (("b", _BOX3), ("a", _D2S)), True), True),
    "Sequence(Sequence(Discrete))": ("Sequence", ("Sequence", _D3, False), False),
    "Sequence(Discrete)-stack": ("Sequence", _D2S, True),
    "Graph(Discrete,Discrete)": ("Graph", _D3, ("Discrete", 2, 0)),
    "Graph(Box,None)": ("Graph", _BOX3, None),
    "Graph(Box-unbounded,MultiBinary)": ("Graph", _BOX_UNB, _MB),
    "Graph(Box-int-inf,Discrete)": ("Graph", ("Box", -inf, inf, (2,), "int32"), _D2S),
    "Graph(Dict,Box)": ("Graph", ("Dict", (("f", _BOX3), ("k", _D3)), True), _BOX_UNB),
    "Graph(Tuple,MultiDiscrete)": ("Graph", ("Tuple", (_D2S, _MB)), _MD),
    "Graph(MultiDiscrete,Box-float16)": ("Graph", _MD, ("Box", -2.0, 2.0, (2,), "float16")),
    "OneOf(Tuple,Dict,Sequence,Graph)": (
        "OneOf",
        (
            ("Tuple", (_D3, _BOX3)),
            ("Dict", (("x", _MB),), True),
            ("Sequence", _D3, True),
            ("Graph", _D3, _D3),
        ),
    ),
    "OneOf(single)": ("OneOf", (_D3,)),
    "Tuple(Graph,OneOf)": ("Tuple", (("Graph", _BOX3, _D3), ("OneOf", (_TEXT, _MD)))),
    "Tuple()": ("Tuple", ()),
    "Dict()": ("Dict", (), True),
}
