"""Helpers for tests over space trees (Tuple, Dict, Sequence, Graph, OneOf and their leaves).

They work on built spaces of either library, whatever recipe built them.
Results are compared with :mod:`support.differential`'s comparator.

* :func:`generators` lists every generator of a space tree, so final RNG
  states can be compared after a stream of samples
  (:func:`assert_same_tree_states`, :func:`same_sharing`).
* :func:`assert_same_sample_tree` compares two (nested) samples exactly;
  :func:`assert_same_nesting` walks two nested values, leaves compared as told.
* :func:`valid_mask` (and :func:`leaf_mask`) produce valid masks /
  probabilities, :func:`seed_structure` nested seeds, for a space.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from support import capture
from support.differential import _assert_same_generator_state

COMPOSITE_KINDS = ("Tuple", "Dict", "Sequence", "Graph", "OneOf")

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
    capture.observe_tree_states(gym_space)
    gs_gens, gym_gens = list(generators(gs_space)), list(generators(gym_space))
    assert [p for p, _ in gs_gens] == [p for p, _ in gym_gens]
    for (path, a), (_, b) in zip(gs_gens, gym_gens):
        assert (a is None) == (b is None), f"generator set in one tree only at {path} ({context})"
        if a is not None:
            _assert_same_generator_state(a, b, f"{context} {path}")


def same_sharing(gs_space: Any, gym_space: Any) -> bool:
    """The two trees share generators between the same pairs of spaces."""

    def pattern(space: Any) -> list[int | None]:
        ids: dict[int, int] = {}
        result = []
        for _, gen in generators(space):
            result.append(None if gen is None else ids.setdefault(id(gen), len(ids)))
        return result

    return pattern(gs_space) == pattern(gym_space)


def assert_same_sample_tree(a: Any, b: Any, *, type_names: bool = False) -> None:
    """``a`` and ``b`` are the same (nested) sample: the same type at every level
    (with ``type_names``, the same type name: samples of either library), the same
    keys in order, lengths, dtypes, shapes and values."""
    if type_names:
        assert type(a).__name__ == type(b).__name__, (type(a), type(b))
    else:
        assert type(a) is type(b), (type(a), type(b))
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            assert_same_sample_tree(a[key], b[key], type_names=type_names)
    elif isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same_sample_tree(x, y, type_names=type_names)
    elif isinstance(a, np.generic):
        assert a.dtype == b.dtype and a == b
    else:
        assert a == b


def assert_same_nesting(actual: Any, expected: Any, same_leaf: Callable[[Any, Any, str], None], where: str = "") -> None:
    """The same type at every level, dicts with the same keys in order, lists and
    tuples of the same length; ``same_leaf(actual, expected, where)`` compares the
    rest (``where`` says where, e.g. ``"[0]['a']"``)."""
    assert type(actual) is type(expected), f"{where}: {type(actual)} vs {type(expected)}"
    if isinstance(expected, dict):
        assert list(actual) == list(expected), where
        for key in expected:
            assert_same_nesting(actual[key], expected[key], same_leaf, f"{where}[{key!r}]")
    elif isinstance(expected, (list, tuple)):
        assert len(actual) == len(expected), where
        for i, (a, b) in enumerate(zip(actual, expected)):
            assert_same_nesting(a, b, same_leaf, f"{where}[{i}]")
    else:
        same_leaf(actual, expected, where)


# --------------------------------------------------------------------------- valid masks


def _weights(rng: np.random.Generator, n: int) -> np.ndarray:
    w = rng.random(n)
    w[rng.random(n) < 0.3] = 0.0
    if n and not w.any():
        w[rng.integers(n)] = 1.0
    return w / w.sum() if n else w


def leaf_mask(space: Any, rng: np.random.Generator, kind: str) -> Any:
    """A valid mask/probability for a fundamental space, or None (Box, or too big to build)."""
    name = type(space).__name__
    weighted = kind == "probability"
    if name == "Discrete":
        n = int(space.n)
        if n > 64:
            return None
        return _weights(rng, n) if weighted else rng.integers(0, 2, n).astype(np.int8)
    if name == "MultiDiscrete":
        def nest(nvec: np.ndarray) -> Any:
            if nvec.ndim == 1:
                return tuple(
                    _weights(rng, int(k)) if weighted else rng.integers(0, 2, int(k)).astype(np.int8)
                    for k in nvec
                )
            if nvec.ndim == 0:
                k = int(nvec)
                return _weights(rng, k) if weighted else rng.integers(0, 2, k).astype(np.int8)
            return tuple(nest(sub) for sub in nvec)

        if int(np.max(space.nvec, initial=0)) > 64:
            return None
        return nest(np.asarray(space.nvec))
    if name == "MultiBinary":
        if math.prod(space.shape) > 4096:
            return None
        if weighted:
            return rng.random(space.shape)
        return rng.integers(0, 3, space.shape).astype(np.int8)
    if name == "Text":
        if space.max_length > 10**6:
            return (None, None)
        length = None if rng.random() < 0.5 else int(rng.integers(space.min_length, space.max_length + 1))
        chars = len(space.character_set)
        part = None if rng.random() < 0.3 else (
            _weights(rng, chars) if weighted else rng.integers(0, 2, chars).astype(np.int8)
        )
        return (length, part)
    return None  # Box: masks are unsupported


def valid_mask(space: Any, rng: np.random.Generator, kind: str) -> Any:
    """A valid mask (``kind="mask"``) or probability structure for any space."""
    name = type(space).__name__
    if name in ("Tuple", "OneOf"):
        return tuple(valid_mask(child, rng, kind) for child in space.spaces)
    if name == "Dict":
        keys = list(space.spaces)
        order = rng.permutation(len(keys))
        return {keys[i]: valid_mask(space.spaces[keys[i]], rng, kind) for i in order}
    if name == "Sequence":
        choice = rng.integers(4)
        low = 1 if space.stack else 0  # a stacked sequence of length 0 raises (tested elsewhere)
        length: Any = None
        if choice == 1:
            length = int(rng.integers(low, 4))
        elif choice == 2:
            length = np.int64(rng.integers(low, 4))
        elif choice == 3:
            length = rng.integers(low, 4, size=int(rng.integers(1, 4)))
        return (length, valid_mask(space.feature_space, rng, kind))
    if name == "Graph":
        node_mask = None
        if type(space.node_space).__name__ == "Discrete" and rng.random() < 0.8:
            # The batched node space is a MultiDiscrete over the default 10 nodes.
            rows = [leaf_mask(space.node_space, rng, kind) for _ in range(10)]
            node_mask = None if rows[0] is None else tuple(rows)
        edge_mask = None
        if space.edge_space is not None and type(space.edge_space).__name__ == "Discrete" and rng.random() < 0.8:
            edge_mask = leaf_mask(space.edge_space, rng, kind)  # repeated once per edge by Graph
        return (node_mask, edge_mask)
    return leaf_mask(space, rng, kind)


# --------------------------------------------------------------------------- seeds


def seed_structure(space: Any, rng: np.random.Generator, *, in_graph: bool = False) -> Any:
    """A nested seed for ``space`` (of either library) mixing ints, lists, tuples and dicts.

    Tuples/Dicts below a Graph or a stacked Sequence get ints only: a list or
    dict seed leaves their own generator as it was (quirk Q2 in docs/quirks.md) -- unset, so the
    Graph's per-sample ``batch_space`` would reseed it from OS entropy, or
    already seeded from OS entropy when the parent was built (quirk Q1 in docs/quirks.md).
    """
    name = type(space).__name__

    def draw() -> int:
        return int(rng.integers(0, 2**32))

    if name not in COMPOSITE_KINDS or (in_graph and name in ("Tuple", "Dict")) or rng.random() < 0.25:
        return draw()
    if name == "Tuple":
        parts = [seed_structure(child, rng, in_graph=in_graph) for child in space.spaces]
        return parts if rng.random() < 0.5 else tuple(parts)
    if name == "Dict":
        keys = list(space.spaces)
        order = rng.permutation(len(keys))
        return {keys[i]: seed_structure(space.spaces[keys[i]], rng, in_graph=in_graph) for i in order}
    if name == "Sequence":
        return [draw(), seed_structure(space.feature_space, rng, in_graph=in_graph or space.stack)]
    if name == "Graph":
        parts = [draw(), seed_structure(space.node_space, rng, in_graph=True)]
        if space.edge_space is not None:
            parts.append(seed_structure(space.edge_space, rng, in_graph=True))
        return tuple(parts)
    return [draw(), *[seed_structure(child, rng, in_graph=in_graph) for child in space.spaces]]  # OneOf


def seed_shape(seeds: Any) -> Any:
    """The structure of a seed() result with every int replaced by ``int``."""
    if isinstance(seeds, dict):
        return {key: seed_shape(value) for key, value in seeds.items()}
    if isinstance(seeds, (tuple, list)):
        return type(seeds)(seed_shape(value) for value in seeds)
    return type(seeds)


