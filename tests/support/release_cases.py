"""Named, deterministic calls on Gymnasium's spaces API, for the release differential.

:func:`cases` lists a few thousand :class:`Case` objects, each a name and a
function of a :class:`~support.release_outcomes.Tracker`. Every function
builds its own spaces, seeded with a number fixed by its name, so a case
draws the same numbers whatever ran before it, in any process; it uses only
``gymnasium`` and ``numpy`` (never gymspaces), so the same list runs on
plain Gymnasium and on Gymnasium under ``gymspaces.gymnasium.patch()``.

The list adapts to the installed release by looking at what it has, not at
its version number: ``OneOf``, ``batch_differing_spaces``,
``is_space_dtype_shape_equiv`` and a ``dtype`` argument of ``Discrete`` are
used where they exist. Calls whose arguments a release does not take
(``probability=`` before 1.1, say) are still made: the ``TypeError`` they
raise is an outcome that patch mode must reproduce too.

A case may fail; its exception (class and message) is its outcome.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import gymnasium
import gymnasium.spaces as S
import gymnasium.spaces.utils as U
import gymnasium.vector.utils as V
import numpy as np

VERSION = gymnasium.__version__
HAS_ONEOF = isinstance(getattr(S, "OneOf", None), type)
SAMPLE_TAKES_PROBABILITY = "probability" in inspect.signature(S.Discrete.sample).parameters
DISCRETE_TAKES_DTYPE = "dtype" in inspect.signature(S.Discrete.__init__).parameters
DICT_TAKES_SORT_KEYS = "sort_keys" in inspect.signature(S.Dict.__init__).parameters
HAS_BATCH_DIFFERING = callable(getattr(V, "batch_differing_spaces", None))
HAS_DTYPE_SHAPE_EQUIV = callable(getattr(U, "is_space_dtype_shape_equiv", None))


SPACE_CLASSES = ("Box", "Discrete", "MultiBinary", "MultiDiscrete", "Text", "Tuple", "Dict", "Sequence", "Graph", "OneOf")


class Case:
    """One named call: ``function(tracker)`` returns the value to record."""

    __slots__ = ("name", "function")

    def __init__(self, name: str, function: Callable[[Any], Any]) -> None:
        self.name = name
        self.function = function

    def __repr__(self) -> str:
        return f"Case({self.name!r})"


def seed_of(name: str) -> int:
    """A seed fixed by a name (not ``hash``, which changes per process)."""
    return zlib.crc32(name.encode()) % 100_000


# ---------------------------------------------------------------------------
# Recipes: a label and a builder of a fresh, seeded space
# ---------------------------------------------------------------------------


class Recipe:
    """A space to build again and again: ``build(seed)`` gives a fresh one."""

    def __init__(self, label: str, build: Callable[[], Any], kind: str) -> None:
        self.label = label
        self._build = build
        self.kind = kind

    def build(self, t: Any, seed: int | None = None) -> Any:
        space = self._build()
        space.seed(seed_of(self.label) if seed is None else seed)
        return t(space)


INT_DTYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)
FLOAT_DTYPES = (np.float16, np.float32, np.float64)


def _dtype_name(dtype: Any) -> str:
    return np.dtype(dtype).name


def box_recipes() -> list[Recipe]:
    out: list[Recipe] = []

    def add(label: str, build: Callable[[], Any]) -> None:
        out.append(Recipe("box/" + label, build, "box"))

    for dtype in INT_DTYPES:
        name = _dtype_name(dtype)
        info = np.iinfo(dtype)
        low = 0 if info.min == 0 else -3
        add(f"{name}/small", lambda d=dtype, lo=low: S.Box(lo, 7, (2, 3), d))
        add(f"{name}/full-range", lambda d=dtype, i=info: S.Box(int(i.min), int(i.max), (4,), d))
        add(f"{name}/upper-half", lambda d=dtype, i=info: S.Box(int(i.max) // 2, int(i.max), (3,), d))
        add(f"{name}/scalar", lambda d=dtype: S.Box(1, 5, (), d))
        add(f"{name}/per-element", lambda d=dtype, i=info: S.Box(
            np.array([0, int(i.min), 2], dtype=d), np.array([1, 0 if i.min < 0 else 9, int(i.max)], dtype=d), dtype=d))
        add(f"{name}/unbounded", lambda d=dtype: S.Box(-np.inf, np.inf, (3,), d))
        add(f"{name}/half-bounded", lambda d=dtype: S.Box(0, np.inf, (3,), d))
        add(f"{name}/degenerate", lambda d=dtype: S.Box(4, 4, (2,), d))
    for dtype in FLOAT_DTYPES:
        name = _dtype_name(dtype)
        add(f"{name}/unit", lambda d=dtype: S.Box(0.0, 1.0, (2, 3), d))
        add(f"{name}/symmetric", lambda d=dtype: S.Box(-2.5, 2.5, (4,), d))
        add(f"{name}/unbounded", lambda d=dtype: S.Box(-np.inf, np.inf, (3,), d))
        add(f"{name}/below-only", lambda d=dtype: S.Box(-1.0, np.inf, (3,), d))
        add(f"{name}/above-only", lambda d=dtype: S.Box(-np.inf, 3.0, (3,), d))
        add(f"{name}/mixed", lambda d=dtype: S.Box(
            np.array([0.0, -np.inf, -1.0, -np.inf]), np.array([np.inf, 2.0, 1.0, np.inf]), dtype=d))
        add(f"{name}/scalar", lambda d=dtype: S.Box(-1.0, 1.0, (), d))
        add(f"{name}/wide", lambda d=dtype: S.Box(-1e4, 6e4, (2,), d))
    add("int64/huge-span", lambda: S.Box(-(2**62), 2**62, (3,), np.int64))
    add("uint64/huge-span", lambda: S.Box(0, 2**64 - 1, (3,), np.uint64))
    add("image/uint8", lambda: S.Box(0, 255, (4, 5, 3), np.uint8))
    add("image/float32", lambda: S.Box(0.0, 1.0, (3, 4, 4), np.float32))
    add("float32/huge-bounds", lambda: S.Box(-1e38, 1e38, (2,), np.float32))
    add("float16/overflowing-bound", lambda: S.Box(0.0, 1e5, (2,), np.float16))
    add("float32/precision-lowered", lambda: S.Box(np.float64(0.1), np.float64(0.7), (2,), np.float32))
    add("int32/float-bounds", lambda: S.Box(-1.5, 2.5, (2,), np.int32))
    add("float64/default-shape-from-arrays", lambda: S.Box(np.zeros((2, 2)), np.ones((2, 2))))
    add("float32/default-dtype", lambda: S.Box(-1, 1, (5,)))
    return out


def discrete_recipes() -> list[Recipe]:
    out = [
        Recipe("discrete/n1", lambda: S.Discrete(1), "discrete"),
        Recipe("discrete/n2", lambda: S.Discrete(2), "discrete"),
        Recipe("discrete/n5", lambda: S.Discrete(5), "discrete"),
        Recipe("discrete/n100", lambda: S.Discrete(100), "discrete"),
        Recipe("discrete/start-3", lambda: S.Discrete(4, start=-3), "discrete"),
        Recipe("discrete/start7", lambda: S.Discrete(3, start=7), "discrete"),
        Recipe("discrete/npint-n", lambda: S.Discrete(np.int64(6), start=np.int64(1)), "discrete"),
        Recipe("discrete/huge-n", lambda: S.Discrete(2**40), "discrete"),
    ]
    if DISCRETE_TAKES_DTYPE:
        for dtype in (np.int8, np.uint8, np.int16, np.int32, np.uint32, np.uint64):
            name = _dtype_name(dtype)
            out.append(Recipe(f"discrete/dtype-{name}", lambda d=dtype: S.Discrete(6, start=2, dtype=d), "discrete"))
        out.append(Recipe("discrete/int8-start118", lambda: S.Discrete(10, start=118, dtype=np.int8), "discrete"))
        out.append(Recipe("discrete/dtype-str", lambda: S.Discrete(4, dtype="int16"), "discrete"))
    return out


def multi_recipes() -> list[Recipe]:
    return [
        Recipe("multibinary/n1", lambda: S.MultiBinary(1), "multibinary"),
        Recipe("multibinary/n5", lambda: S.MultiBinary(5), "multibinary"),
        Recipe("multibinary/shape2x3", lambda: S.MultiBinary((2, 3)), "multibinary"),
        Recipe("multibinary/list", lambda: S.MultiBinary([2, 2, 2]), "multibinary"),
        Recipe("multibinary/ndarray-n", lambda: S.MultiBinary(np.array([3, 2])), "multibinary"),
        Recipe("multidiscrete/flat", lambda: S.MultiDiscrete([3, 5, 2]), "multidiscrete"),
        Recipe("multidiscrete/ones", lambda: S.MultiDiscrete([1, 1]), "multidiscrete"),
        Recipe("multidiscrete/nested", lambda: S.MultiDiscrete([[2, 3], [4, 5]]), "multidiscrete"),
        Recipe("multidiscrete/start", lambda: S.MultiDiscrete([3, 5, 2], start=[-1, 0, 5]), "multidiscrete"),
        Recipe("multidiscrete/nested-start", lambda: S.MultiDiscrete(np.array([[2, 3], [4, 5]]), start=np.array([[1, -1], [0, 10]])), "multidiscrete"),
        Recipe("multidiscrete/int32", lambda: S.MultiDiscrete([4, 4], dtype=np.int32), "multidiscrete"),
        Recipe("multidiscrete/int8", lambda: S.MultiDiscrete([100, 3], dtype=np.int8), "multidiscrete"),
        Recipe("multidiscrete/uint8", lambda: S.MultiDiscrete([200, 3], dtype=np.uint8), "multidiscrete"),
        Recipe("multidiscrete/uint64", lambda: S.MultiDiscrete([7, 9], dtype=np.uint64), "multidiscrete"),
        Recipe("multidiscrete/large", lambda: S.MultiDiscrete([2**40, 3]), "multidiscrete"),
    ]


def text_recipes() -> list[Recipe]:
    return [
        Recipe("text/default", lambda: S.Text(5), "text"),
        Recipe("text/abc-min0", lambda: S.Text(3, min_length=0, charset="abc"), "text"),
        Recipe("text/dupes-unsorted", lambda: S.Text(5, charset="cbaab"), "text"),
        Recipe("text/unsorted", lambda: S.Text(4, min_length=2, charset="zyxw"), "text"),
        Recipe("text/frozenset", lambda: S.Text(4, charset=frozenset("qrs")), "text"),
        Recipe("text/fixed-length", lambda: S.Text(2, min_length=2, charset="01"), "text"),
        Recipe("text/single-char", lambda: S.Text(3, charset="a"), "text"),
        Recipe("text/unicode", lambda: S.Text(4, charset="é☃a\U0001f600"), "text"),
        Recipe("text/digits-dupes", lambda: S.Text(6, min_length=1, charset="9876543210012"), "text"),
    ]


def composite_recipes() -> list[Recipe]:
    out = [
        Recipe("tuple/discretes", lambda: S.Tuple((S.Discrete(2), S.Discrete(3))), "tuple"),
        Recipe("tuple/box-multibinary", lambda: S.Tuple((S.Box(-1, 1, (2,), np.float32), S.MultiBinary(3))), "tuple"),
        Recipe("tuple/int-box-text", lambda: S.Tuple([S.Box(0, 9, (2,), np.int16), S.Text(3, charset="ab")]), "tuple"),
        Recipe("tuple/nested", lambda: S.Tuple((
            S.Tuple((S.Discrete(2, start=1), S.Box(0, 1, (2,), np.float64))),
            S.Dict({"b": S.MultiDiscrete([2, 3]), "a": S.Discrete(4)}),
        )), "tuple"),
        Recipe("tuple/empty", lambda: S.Tuple(()), "tuple"),
        Recipe("dict/unsorted-keys", lambda: S.Dict({"b": S.Discrete(3), "a": S.Box(0, 1, (2,), np.float32)}), "dict"),
        Recipe("dict/pairs", lambda: S.Dict([("z", S.MultiBinary(2)), ("y", S.Discrete(2))]), "dict"),
        Recipe("dict/kwargs", lambda: S.Dict(pos=S.Box(-1, 1, (2,), np.float32), flag=S.Discrete(2)), "dict"),
        Recipe("dict/nested", lambda: S.Dict({
            "outer": S.Dict({"y": S.Box(0, 3, (2,), np.int32), "x": S.Discrete(3, start=-1)}),
            "list": S.Tuple((S.MultiBinary(2), S.Box(-1, 1, (), np.float32))),
            "md": S.MultiDiscrete([3, 2]),
        }), "dict"),
        Recipe("dict/ordered", lambda: S.Dict(OrderedDict([("k2", S.Discrete(2)), ("k1", S.Discrete(5))])), "dict"),
        Recipe("dict/empty", lambda: S.Dict({}), "dict"),
        Recipe("sequence/discrete", lambda: S.Sequence(S.Discrete(4)), "sequence"),
        Recipe("sequence/box", lambda: S.Sequence(S.Box(0, 1, (2,), np.float32)), "sequence"),
        Recipe("sequence/box-stack", lambda: S.Sequence(S.Box(0, 1, (2,), np.float32), stack=True), "sequence"),
        Recipe("sequence/discrete-stack", lambda: S.Sequence(S.Discrete(3), stack=True), "sequence"),
        Recipe("sequence/multibinary-stack", lambda: S.Sequence(S.MultiBinary(3), stack=True), "sequence"),
        Recipe("sequence/tuple", lambda: S.Sequence(S.Tuple((S.Discrete(2), S.Box(-1, 1, (1,), np.float32)))), "sequence"),
        Recipe("sequence/text", lambda: S.Sequence(S.Text(3, charset="xy")), "sequence"),
        Recipe("graph/box-discrete", lambda: S.Graph(S.Box(0, 1, (2,), np.float32), S.Discrete(3)), "graph"),
        Recipe("graph/discrete-none", lambda: S.Graph(S.Discrete(4), None), "graph"),
        Recipe("graph/int-box-float-box", lambda: S.Graph(S.Box(0, 5, (3,), np.int32), S.Box(-1, 1, (2,), np.float64)), "graph"),
        Recipe("graph/discrete-start", lambda: S.Graph(S.Discrete(3, start=2), S.Discrete(2, start=-1)), "graph"),
    ]
    if HAS_ONEOF:
        out += [
            Recipe("oneof/discrete-box", lambda: S.OneOf((S.Discrete(3), S.Box(0, 1, (2,), np.float32))), "oneof"),
            Recipe("oneof/three", lambda: S.OneOf((S.Discrete(2), S.MultiBinary(3), S.Box(-1, 1, (2,), np.float64))), "oneof"),
            Recipe("oneof/int-boxes", lambda: S.OneOf((S.Box(0, 9, (2,), np.int8), S.Box(0, 9, (3,), np.int16))), "oneof"),
            Recipe("oneof/text-discrete", lambda: S.OneOf([S.Text(3, charset="ab"), S.Discrete(2, start=5)]), "oneof"),
            Recipe("oneof/nested", lambda: S.OneOf((S.Tuple((S.Discrete(2), S.Discrete(3))), S.Dict({"a": S.MultiDiscrete([2, 2])}))), "oneof"),
        ]
    return out


def all_recipes() -> list[Recipe]:
    return box_recipes() + discrete_recipes() + multi_recipes() + text_recipes() + composite_recipes()


# ---------------------------------------------------------------------------
# Values built without sampling (so a sampling difference does not spread)
# ---------------------------------------------------------------------------


def _characters(space: Any) -> list[str]:
    return sorted(set(space.characters))


def value_of(space: Any, k: int) -> Any:
    """The ``k``-th valid-looking element of ``space``, built from its attributes."""
    if isinstance(space, S.Box):
        shape = space.shape
        size = int(np.prod(shape, dtype=np.int64))
        if np.issubdtype(space.dtype, np.integer):
            base = np.array([0, 1, -2, 100, 3][k % 5], dtype=np.int64)
            raw = (base + np.arange(size, dtype=np.int64) % 3).reshape(shape)
        else:
            base = np.array([0.0, 1.0, -2.5, 1e3, 0.25][k % 5])
            raw = (base + np.arange(size) * 0.125).reshape(shape)
        low = np.asarray(space.low)
        high = np.asarray(space.high)
        with np.errstate(all="ignore"):
            clipped = np.minimum(np.maximum(raw.astype(np.float64), low.astype(np.float64)), high.astype(np.float64))
            if np.issubdtype(space.dtype, np.integer):
                exact = np.where(raw < low, low, np.where(raw > high, high, raw))
                return np.asarray(exact).astype(space.dtype)
            return clipped.astype(space.dtype)
    if isinstance(space, S.Discrete):
        kind = space.dtype.type if getattr(space, "dtype", None) is not None else np.int64
        return kind(int(space.start) + (2 * k) % int(space.n))
    if isinstance(space, S.MultiBinary):
        size = int(np.prod(space.shape))
        return ((np.arange(size) + k) % 2).reshape(space.shape).astype(np.int8)
    if isinstance(space, S.MultiDiscrete):
        nvec = np.asarray(space.nvec, dtype=np.int64)
        start = np.asarray(space.start, dtype=np.int64)
        steps = (np.arange(nvec.size, dtype=np.int64).reshape(nvec.shape) + k) % nvec
        return (start + steps).astype(space.dtype)
    if isinstance(space, S.Text):
        chars = _characters(space)
        span = space.max_length - space.min_length + 1
        length = space.min_length + k % span
        return "".join(chars[(i + k) % len(chars)] for i in range(length))
    if isinstance(space, S.Tuple):
        return tuple(value_of(sub, k + i) for i, sub in enumerate(space.spaces))
    if isinstance(space, S.Dict):
        return {key: value_of(sub, k + i) for i, (key, sub) in enumerate(space.spaces.items())}
    if isinstance(space, S.Sequence):
        items = [value_of(space.feature_space, k + i) for i in range(k % 3)]
        if space.stack and isinstance(space.feature_space, (S.Box, S.Discrete, S.MultiBinary, S.MultiDiscrete)):
            feature = space.feature_space
            if not items:
                return np.zeros((0, *feature.shape), dtype=feature.dtype)
            return np.stack([np.asarray(item) for item in items]).astype(feature.dtype)
        return tuple(items)
    if isinstance(space, S.Graph):
        n_nodes = 2 + k % 2
        nodes = np.stack([np.asarray(value_of(space.node_space, k + i)) for i in range(n_nodes)])
        if space.edge_space is None:
            return S.GraphInstance(nodes, None, None)
        n_edges = 1 + k % 3
        edges = np.stack([np.asarray(value_of(space.edge_space, k + i)) for i in range(n_edges)])
        links = np.array([[i % n_nodes, (i + 1) % n_nodes] for i in range(n_edges)], dtype=np.int64)
        return S.GraphInstance(nodes, edges, links)
    if HAS_ONEOF and isinstance(space, S.OneOf):
        index = k % len(space.spaces)
        return (index, value_of(space.spaces[index], k))
    raise TypeError(f"no value recipe for {type(space).__name__}")


def bad_values(space: Any) -> list[tuple[str, Callable[[], Any]]]:
    """(label, maker) of values that are (mostly) not elements of ``space``."""
    common: list[tuple[str, Callable[[], Any]]] = [
        ("none", lambda: None),
        ("str", lambda: "abc"),
        ("int-1e20", lambda: 10**20),
        ("int-2e70", lambda: 2**70),
        ("neg-one", lambda: -1),
        ("float", lambda: 0.5),
        ("empty-list", lambda: []),
        ("list0", lambda: [0]),
        ("f64-scalar", lambda: np.float64(0.5)),
        ("uint64-scalar", lambda: np.uint64(0)),
        ("int8-scalar", lambda: np.int8(1)),
        ("zeros3", lambda: np.zeros(3)),
        ("dict", lambda: {}),
    ]
    extra: list[tuple[str, Callable[[], Any]]] = []
    good = lambda: value_of(space, 1)  # noqa: E731
    if isinstance(space, S.Box):
        shape = space.shape
        extra = [
            ("wrong-shape", lambda: np.zeros((*shape, 2), dtype=space.dtype)),
            ("as-float64", lambda: np.asarray(good()).astype(np.float64)),
            ("as-int64", lambda: np.asarray(good()).astype(np.int64)),
            ("as-float32", lambda: np.asarray(good()).astype(np.float32)),
            ("as-list", lambda: np.asarray(good()).tolist()),
            ("nan", lambda: np.full(shape, np.nan)),
            ("inf", lambda: np.full(shape, np.inf, dtype=np.float64)),
            ("above-high", lambda: np.asarray(space.high, dtype=np.float64) + 1),
            ("below-low", lambda: np.asarray(space.low, dtype=np.float64) - 1),
            ("huge-ints", lambda: np.full(shape, 2**70, dtype=object).tolist() if shape else 2**70),
            ("python-scalar", lambda: 1),
            ("uint64-array", lambda: np.ones(shape, dtype=np.uint64)),
            ("bool-array", lambda: np.ones(shape, dtype=bool)),
        ]
    elif isinstance(space, S.Discrete):
        start, n = int(space.start), int(space.n)
        extra = [
            ("past-end", lambda: start + n),
            ("before-start", lambda: start - 1),
            ("np-int8", lambda: np.int8(min(max(start, -128), 127))),
            ("np-uint64", lambda: np.uint64(max(start, 0))),
            ("np-float64", lambda: np.float64(start)),
            ("np-float64-frac", lambda: np.float64(start) + 0.5),
            ("array0d", lambda: np.array(start)),
            ("array1", lambda: np.array([start])),
            ("bool", lambda: True),
            ("str-digit", lambda: "1"),
            ("py-start", lambda: start),
            ("np-int32", lambda: np.int32(start)),
            ("np-uint8", lambda: np.uint8(max(min(start, 255), 0))),
        ]
    elif isinstance(space, S.MultiBinary):
        shape = space.shape
        extra = [
            ("twos", lambda: np.full(shape, 2, dtype=np.int8)),
            ("float-zeros", lambda: np.zeros(shape)),
            ("bool", lambda: np.ones(shape, dtype=bool)),
            ("list", lambda: np.zeros(shape, dtype=np.int64).tolist()),
            ("wrong-shape", lambda: np.zeros((*shape, 1), dtype=np.int8)),
            ("int64", lambda: np.ones(shape, dtype=np.int64)),
            ("negative", lambda: -np.ones(shape, dtype=np.int8)),
        ]
    elif isinstance(space, S.MultiDiscrete):
        shape = space.shape
        extra = [
            ("float-zeros", lambda: np.zeros(shape)),
            ("list", lambda: np.asarray(good()).tolist()),
            ("past-end", lambda: np.asarray(space.start) + np.asarray(space.nvec)),
            ("before-start", lambda: np.asarray(space.start, dtype=np.int64) - 1),
            ("int32", lambda: np.asarray(good()).astype(np.int32)),
            ("uint64", lambda: np.abs(np.asarray(good(), dtype=np.int64)).astype(np.uint64)),
            ("wrong-shape", lambda: np.zeros((*shape, 1), dtype=space.dtype)),
            ("huge", lambda: np.full(shape, 2**62, dtype=np.int64)),
        ]
    elif isinstance(space, S.Text):
        chars = _characters(space)
        extra = [
            ("too-long", lambda: chars[0] * (space.max_length + 1)),
            ("too-short", lambda: chars[0] * (space.min_length - 1) if space.min_length else ""),
            ("foreign-char", lambda: "#" * max(space.min_length, 1)),
            ("np-str", lambda: np.str_(chars[0] * max(space.min_length, 1))),
            ("bytes", lambda: b"a"),
            ("empty", lambda: ""),
        ]
    elif isinstance(space, S.Tuple):
        extra = [
            ("child-2e70", lambda: (2**70, *tuple(good())[1:]) if space.spaces else (2**70,)),
            ("child-uint64", lambda: (np.uint64(0), *tuple(good())[1:]) if space.spaces else (np.uint64(0),)),
            ("child-float-array", lambda: (np.zeros(3), *tuple(good())[1:]) if space.spaces else (np.zeros(3),)),
            ("as-list", lambda: list(good())),
            ("short", lambda: tuple(good())[:-1]),
            ("long", lambda: tuple(good()) + (0,)),
            ("ndarray", lambda: np.zeros(len(space.spaces))),
        ]
    elif isinstance(space, S.Dict):
        extra = [
            ("child-2e70", lambda: {k: (2**70 if i == 0 else v) for i, (k, v) in enumerate(good().items())}),
            ("child-uint64", lambda: {k: (np.uint64(0) if i == 0 else v) for i, (k, v) in enumerate(good().items())}),
            ("missing-key", lambda: {k: v for k, v in list(good().items())[1:]}),
            ("extra-key", lambda: {**good(), "zzz": 0}),
            ("ordered", lambda: OrderedDict(good())),
            ("reversed", lambda: dict(reversed(list(good().items())))),
            ("pairs", lambda: list(good().items())),
        ]
    elif isinstance(space, S.Sequence):
        extra = [
            ("as-list", lambda: list(good()) if isinstance(good(), tuple) else good().tolist()),
            ("bad-item", lambda: ("not-an-item",)),
            ("item-2e70", lambda: (2**70,)),
            ("item-uint64", lambda: (np.uint64(0),)),
            ("stacked-float", lambda: np.zeros((2, *(space.feature_space.shape or ())), dtype=np.float64)),
            ("ndarray", lambda: np.zeros((2, 1))),
            ("empty-tuple", lambda: ()),
        ]
    elif isinstance(space, S.Graph):
        extra = [
            ("as-tuple", lambda: tuple(good())),
            ("no-edges", lambda: S.GraphInstance(good().nodes, None, None)),
            ("float-nodes", lambda: S.GraphInstance(np.asarray(good().nodes, dtype=np.float64), good().edges, good().edge_links)),
            ("int32-links", lambda: S.GraphInstance(good().nodes, good().edges, None if good().edges is None else good().edge_links.astype(np.int32))),
            ("list-nodes", lambda: S.GraphInstance(np.asarray(good().nodes).tolist(), good().edges, good().edge_links)),
            ("bad-links", lambda: S.GraphInstance(good().nodes, good().edges, None if good().edges is None else good().edge_links + 10)),
        ]
    elif HAS_ONEOF and isinstance(space, S.OneOf):
        extra = [
            ("index-out", lambda: (len(space.spaces), value_of(space.spaces[0], 0))),
            ("np-index", lambda: (np.int64(0), value_of(space.spaces[0], 0))),
            ("as-list", lambda: [0, value_of(space.spaces[0], 0)]),
            ("short", lambda: (0,)),
            ("uint64-index", lambda: (np.uint64(0), value_of(space.spaces[0], 0))),
            ("huge-index", lambda: (2**70, value_of(space.spaces[0], 0))),
            ("wrong-sub", lambda: (0, value_of(space.spaces[-1], 0)) if len(space.spaces) > 1 else (0, None)),
        ]
    return common + extra


# ---------------------------------------------------------------------------
# Operations applied to every recipe
# ---------------------------------------------------------------------------


def _shared_memory_roundtrip(space: Any, values: list[Any]) -> Any:
    shm = V.create_shared_memory(space, n=len(values))
    for index, value in enumerate(values):
        V.write_to_shared_memory(space, index, value, shm)
    read = V.read_from_shared_memory(space, shm, n=len(values))
    result = (shm, read)
    del shm
    return result


def _concatenate(space: Any, values: list[Any]) -> Any:
    out = V.create_empty_array(space, n=len(values))
    result = V.concatenate(space, values, out)
    return (result, out, result is out)


def _iterate(space: Any, values: list[Any]) -> Any:
    batched = V.batch_space(space, len(values))
    stacked = V.concatenate(space, values, V.create_empty_array(space, n=len(values)))
    iterator = V.iterate(batched, stacked)
    return (type(iterator).__qualname__, list(iterator))


def _iterate_sampled(space: Any) -> Any:
    batched = V.batch_space(space, 3)
    items = batched.sample()
    return (items, list(V.iterate(batched, items)))


def _equal(recipe: Recipe, t: Any) -> Any:
    a = recipe.build(t)
    b = recipe.build(t)
    other = t(S.Discrete(2, seed=1))
    return (a == b, a != b, a == other, b == a, a == 3)


def recipe_cases(recipe: Recipe) -> list[Case]:
    """The operations every space goes through."""
    label = recipe.label
    build = recipe.build
    ops: dict[str, Callable[[Any], Any]] = {
        "build": lambda t: build(t),
        "repr": lambda t: (repr(build(t)), str(build(t))),
        "eq": lambda t: _equal(recipe, t),
        "sample3": lambda t: (lambda s: [s.sample() for _ in range(3)])(build(t)),
        "sample-after-seed": lambda t: (lambda s: (s.seed(12345), s.sample(), s.sample()))(build(t)),
        "seed-repeat": lambda t: (lambda s: (s.seed(7), s.sample(), s.seed(7), s.sample()))(build(t)),
        "sample-mask-none": lambda t: build(t).sample(mask=None),
        "sample-probability-none": lambda t: build(t).sample(probability=None),
        "sample-positional-none": lambda t: build(t).sample(None),
        "contains-good": lambda t: (lambda s: [s.contains(value_of(s, k)) for k in range(3)])(build(t)),
        "in-good": lambda t: (lambda s: [value_of(s, k) in s for k in range(2)])(build(t)),
        "contains-own-sample": lambda t: (lambda s: (lambda v: (v, s.contains(v)))(s.sample()))(build(t)),
        "flatdim": lambda t: U.flatdim(build(t)),
        "flatten-0": lambda t: (lambda s: U.flatten(s, value_of(s, 0)))(build(t)),
        "flatten-1": lambda t: (lambda s: U.flatten(s, value_of(s, 1)))(build(t)),
        "unflatten-0": lambda t: (lambda s: U.unflatten(s, U.flatten(s, value_of(s, 0))))(build(t)),
        "unflatten-2": lambda t: (lambda s: U.unflatten(s, U.flatten(s, value_of(s, 2))))(build(t)),
        "flatten-space": lambda t: U.flatten_space(build(t)),
        "flatten-space-flatten": lambda t: (lambda s: (lambda f: (f, f.contains(U.flatten(s, value_of(s, 1)))))(U.flatten_space(s)))(build(t)),
        "to-jsonable": lambda t: (lambda s: s.to_jsonable([value_of(s, 0), value_of(s, 1)]))(build(t)),
        "from-jsonable": lambda t: (lambda s: s.from_jsonable(s.to_jsonable([value_of(s, 0), value_of(s, 1)])))(build(t)),
        "batch-space": lambda t: t(V.batch_space(build(t), 3)),
        "batch-space-sample": lambda t: (lambda b: (b.sample(), b.sample()))(t(V.batch_space(build(t), 2))),
        "batch-space-1": lambda t: t(V.batch_space(build(t), 1)),
        "empty-array": lambda t: V.create_empty_array(build(t), n=2),
        "empty-array-ones": lambda t: V.create_empty_array(build(t), n=2, fn=np.ones),
        "empty-array-n0": lambda t: V.create_empty_array(build(t), n=0),
        "concatenate": lambda t: (lambda s: _concatenate(s, [value_of(s, k) for k in range(3)]))(build(t)),
        "iterate": lambda t: (lambda s: _iterate(s, [value_of(s, k) for k in range(2)]))(build(t)),
        "iterate-sampled": lambda t: _iterate_sampled(build(t)),
        "shared-memory": lambda t: (lambda s: _shared_memory_roundtrip(s, [value_of(s, 0), value_of(s, 1)]))(build(t)),
        "shared-memory-create": lambda t: V.create_shared_memory(build(t), n=1),
        "deepcopy-sample": lambda t: (lambda s: (lambda c: (t(c).sample(), s.sample(), c == s))(copy.deepcopy(s)))(build(t)),
        "pickle-sample": lambda t: (lambda s: (lambda c: (t(c).sample(), s.sample()))(pickle.loads(pickle.dumps(s))))(build(t)),
        "attributes": lambda t: (lambda s: (s.shape, s.dtype, s.is_np_flattenable))(build(t)),
    }
    ops["unflatten-int64-zeros"] = lambda t: (lambda s: U.unflatten(s, np.zeros(U.flatdim(s), dtype=np.int64)))(build(t))
    ops["unflatten-float16-ones"] = lambda t: (lambda s: U.unflatten(s, np.ones(U.flatdim(s), dtype=np.float16)))(build(t))
    ops["unflatten-list"] = lambda t: (lambda s: U.unflatten(s, [0] * U.flatdim(s)))(build(t))
    ops["unflatten-too-long"] = lambda t: (lambda s: U.unflatten(s, np.zeros(U.flatdim(s) + 1, dtype=np.float32)))(build(t))
    if recipe.kind == "box":
        ops["is-bounded"] = lambda t: (lambda s: [s.is_bounded(m) for m in ("both", "below", "above")] + [s.is_bounded("sideways")])(build(t))
    if recipe.kind == "multidiscrete":
        ops["getitem-len"] = lambda t: (lambda s: (s[0], len(s), s[-1:]))(build(t))
    if recipe.kind in ("tuple", "dict", "oneof"):
        ops["container-api"] = lambda t: (lambda s: (len(s), [repr(x) for x in (s.spaces.values() if isinstance(s.spaces, dict) else s.spaces)],
                                                     list(s.keys()) if hasattr(s, "keys") else s[0] if len(s) else None))(build(t))
    if HAS_DTYPE_SHAPE_EQUIV:
        ops["dtype-shape-equiv"] = lambda t: (
            U.is_space_dtype_shape_equiv(build(t), build(t)),
            U.is_space_dtype_shape_equiv(build(t), t(S.Discrete(2, seed=0))),
        )
    if HAS_BATCH_DIFFERING:
        ops["batch-differing"] = lambda t: t(V.batch_differing_spaces([build(t), build(t, 99)]))
        ops["batch-differing-sample"] = lambda t: (lambda b: b.sample())(t(V.batch_differing_spaces([build(t), build(t, 5), build(t, 6)])))
    if label in HUGE_FLAT:
        # A one-hot of 2**40 entries: plain Gymnasium asks for terabytes, which
        # fails or not depending on the machine's overcommit policy.
        ops = {op: function for op, function in ops.items() if not any(word in op for word in FLAT_OPS)}
    cases = [Case(f"{label}/{op}", function) for op, function in ops.items()]
    for bad, maker in bad_values_for(recipe):
        cases.append(Case(f"{label}/contains-bad/{bad}", lambda t, m=maker: (lambda s: s.contains(m(s)))(build(t))))
        if label not in HUGE_FLAT:
            cases.append(Case(f"{label}/flatten-bad/{bad}", lambda t, m=maker: (lambda s: U.flatten(s, m(s)))(build(t))))
        if bad not in COMMON_BAD:
            # Odd items into the batch helpers: the casts they make (or refuse).
            cases.append(Case(f"{label}/concatenate-bad/{bad}", lambda t, m=maker: (lambda s: _concatenate(s, [m(s), m(s)]))(build(t))))
            cases.append(Case(f"{label}/shared-memory-bad/{bad}", lambda t, m=maker: (lambda s: _shared_memory_roundtrip(s, [m(s)]))(build(t))))
    return cases


HUGE_FLAT = frozenset(("discrete/huge-n", "multidiscrete/large"))
FLAT_OPS = ("flatten", "unflatten", "flatten-space")

COMMON_BAD = frozenset(("none", "str", "int-1e20", "int-2e70", "neg-one", "float", "empty-list", "list0", "f64-scalar",
                        "uint64-scalar", "int8-scalar", "zeros3", "dict"))


def bad_values_for(recipe: Recipe) -> list[tuple[str, Callable[[Any], Any]]]:
    """The bad-value makers, as functions of the case's own space."""

    # The labels come from a probe build (its warnings are not a case's);
    # each maker rebuilds its value from the case's own space so that no
    # object is shared between cases.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            probe = recipe._build()
        except Exception:  # the build case records the error
            return []
    out = []
    for label, _ in bad_values(probe):
        out.append((label, lambda s, name=label: dict(bad_values(s))[name]()))
    return out


# ---------------------------------------------------------------------------
# Masks and probabilities
# ---------------------------------------------------------------------------


def _mask_case(name: str, build: Callable[[], Any], seed: int, mask: Callable[[], Any] | None = None,
               probability: Callable[[], Any] | None = None, repeat: int = 2, **kwargs: Any) -> Case:
    def function(t: Any) -> Any:
        space = build()
        space.seed(seed)
        t(space)
        arguments = dict(kwargs)
        if mask is not None:
            arguments["mask"] = mask()
        if probability is not None:
            arguments["probability"] = probability()
        return [space.sample(**arguments) for _ in range(repeat)]

    return Case(name, function)


def mask_cases() -> list[Case]:
    out: list[Case] = []
    i8 = lambda *v: (lambda: np.array(v, dtype=np.int8))  # noqa: E731
    f64 = lambda *v: (lambda: np.array(v, dtype=np.float64))  # noqa: E731

    def both(prefix: str, build: Callable[[], Any], masks: dict, probabilities: dict, **kwargs: Any) -> None:
        for label, maker in masks.items():
            out.append(_mask_case(f"{prefix}/mask/{label}", build, seed_of(prefix + label), mask=maker, **kwargs))
        for label, maker in probabilities.items():
            out.append(_mask_case(f"{prefix}/probability/{label}", build, seed_of(prefix + label), probability=maker, **kwargs))

    discrete_masks = {
        "valid": i8(1, 0, 1, 0, 0),
        "single": i8(0, 0, 0, 1, 0),
        "all-zero": i8(0, 0, 0, 0, 0),
        "all-one": i8(1, 1, 1, 1, 1),
        "bool-dtype": lambda: np.array([True, False, True, False, False]),
        "float-dtype": lambda: np.array([1.0, 0, 1, 0, 0]),
        "int64-dtype": lambda: np.array([1, 0, 1, 0, 0], dtype=np.int64),
        "uint8-dtype": lambda: np.array([1, 0, 1, 0, 0], dtype=np.uint8),
        "short": i8(1, 0, 1, 0),
        "2d": lambda: np.ones((1, 5), dtype=np.int8),
        "value-2": i8(2, 0, 1, 0, 0),
        "value-neg": i8(-1, 0, 1, 0, 0),
        "list": lambda: [1, 0, 1, 0, 0],
        "tuple": lambda: (1, 0, 1, 0, 0),
        "scalar": lambda: np.int8(1),
    }
    discrete_probabilities = {
        "valid": f64(0.1, 0.2, 0.3, 0.4, 0.0),
        "one-hot": f64(0, 0, 1, 0, 0),
        "non-summing": f64(0.5, 0.5, 0.5, 0.0, 0.0),
        "negative": f64(-0.1, 0.5, 0.6, 0.0, 0.0),
        "all-zero": f64(0, 0, 0, 0, 0),
        "float32": lambda: np.array([0.2, 0.2, 0.2, 0.2, 0.2], dtype=np.float32),
        "int-dtype": lambda: np.array([0, 0, 1, 0, 0], dtype=np.int64),
        "short": f64(0.25, 0.25, 0.25, 0.25),
        "list": lambda: [0.2, 0.2, 0.2, 0.2, 0.2],
        "nan": f64(np.nan, 0.5, 0.5, 0, 0),
        "sum-close": f64(0.1, 0.2, 0.3, 0.4, 1e-9),
        "above-one": f64(1.5, -0.5, 0, 0, 0),
    }
    both("discrete5", lambda: S.Discrete(5), discrete_masks, discrete_probabilities)
    both("discrete5-start2", lambda: S.Discrete(5, start=2), {k: discrete_masks[k] for k in ("valid", "all-zero", "bool-dtype")},
         {k: discrete_probabilities[k] for k in ("valid", "non-summing")})
    if DISCRETE_TAKES_DTYPE:
        both("discrete5-int8", lambda: S.Discrete(5, start=-2, dtype=np.int8), {k: discrete_masks[k] for k in ("valid", "all-zero")},
             {k: discrete_probabilities[k] for k in ("valid", "one-hot")})
    out.append(_mask_case("discrete3/probability/known", lambda: S.Discrete(3), 0, probability=f64(0.2, 0.3, 0.5)))
    out.append(_mask_case("discrete3/mask-and-probability", lambda: S.Discrete(3), 0, mask=i8(1, 1, 0), probability=f64(0.2, 0.3, 0.5)))
    out.append(_mask_case("discrete1/mask/zero", lambda: S.Discrete(1, start=4), 0, mask=i8(0)))

    box_inputs = {"ones": lambda: np.ones((2,), dtype=np.int8), "none-tuple": lambda: (None,), "zero": lambda: 0}
    both("box2", lambda: S.Box(0, 1, (2,), np.float32), box_inputs, box_inputs)
    both("box2-int", lambda: S.Box(0, 5, (2,), np.int16), box_inputs, {})

    mb_masks = {
        "valid": i8(0, 1, 2),
        "all-two": i8(2, 2, 2),
        "value-3": i8(0, 3, 2),
        "bool-dtype": lambda: np.array([True, False, True]),
        "int64-dtype": lambda: np.array([0, 1, 2]),
        "short": i8(0, 1),
        "list": lambda: [0, 1, 2],
    }
    mb_probabilities = {
        "valid": f64(0.2, 1.0, 0.0),
        "above-one": f64(0.2, 1.5, 0.0),
        "negative": f64(-0.2, 0.5, 0.0),
        "float32": lambda: np.array([0.5, 0.5, 0.5], dtype=np.float32),
        "short": f64(0.5, 0.5),
        "int-dtype": lambda: np.array([0, 1, 1]),
    }
    both("multibinary3", lambda: S.MultiBinary(3), mb_masks, mb_probabilities)
    both("multibinary2x2", lambda: S.MultiBinary((2, 2)), {"valid": lambda: np.array([[0, 1], [2, 2]], dtype=np.int8), "flat": i8(0, 1, 2, 2)},
         {"valid": lambda: np.array([[0.1, 0.9], [0.5, 0.5]])})

    md_masks = {
        "valid": lambda: (np.array([1, 0, 1], dtype=np.int8), np.array([0, 1, 1, 0, 0], dtype=np.int8), np.array([1, 1], dtype=np.int8)),
        "all-zero-sub": lambda: (np.array([0, 0, 0], dtype=np.int8), np.array([0, 1, 1, 0, 0], dtype=np.int8), np.array([1, 1], dtype=np.int8)),
        "short-tuple": lambda: (np.array([1, 0, 1], dtype=np.int8),),
        "wrong-length-sub": lambda: (np.array([1, 0], dtype=np.int8), np.array([0, 1, 1, 0, 0], dtype=np.int8), np.array([1, 1], dtype=np.int8)),
        "bool-sub": lambda: (np.array([True, False, True]), np.array([0, 1, 1, 0, 0], dtype=np.int8), np.array([1, 1], dtype=np.int8)),
        "ndarray": lambda: np.ones((3,), dtype=np.int8),
        "list": lambda: [np.array([1, 0, 1], dtype=np.int8), np.array([0, 1, 1, 0, 0], dtype=np.int8), np.array([1, 1], dtype=np.int8)],
    }
    md_probabilities = {
        "valid": lambda: (np.array([0.5, 0.0, 0.5]), np.array([0.2, 0.2, 0.2, 0.2, 0.2]), np.array([1.0, 0.0])),
        "non-summing": lambda: (np.array([0.5, 0.5, 0.5]), np.array([0.2, 0.2, 0.2, 0.2, 0.2]), np.array([1.0, 0.0])),
        "negative": lambda: (np.array([1.5, -0.5, 0.0]), np.array([0.2, 0.2, 0.2, 0.2, 0.2]), np.array([1.0, 0.0])),
        "short-tuple": lambda: (np.array([0.5, 0.0, 0.5]),),
    }
    both("multidiscrete352", lambda: S.MultiDiscrete([3, 5, 2]), md_masks, md_probabilities)
    both("multidiscrete-start", lambda: S.MultiDiscrete([3, 5, 2], start=[-1, 0, 5]), {"valid": md_masks["valid"]}, {"valid": md_probabilities["valid"]})
    both("multidiscrete-nested", lambda: S.MultiDiscrete([[2, 3], [2, 2]]), {
        "valid": lambda: ((np.array([1, 0], dtype=np.int8), np.array([0, 1, 1], dtype=np.int8)), (np.array([1, 1], dtype=np.int8), np.array([0, 1], dtype=np.int8))),
        "flat": lambda: (np.array([1, 0], dtype=np.int8), np.array([0, 1, 1], dtype=np.int8), np.array([1, 1], dtype=np.int8), np.array([0, 1], dtype=np.int8)),
    }, {
        "valid": lambda: ((np.array([0.5, 0.5]), np.array([0.0, 1.0, 0.0])), (np.array([1.0, 0.0]), np.array([0.3, 0.7]))),
    })

    text_masks = {
        "length-and-chars": lambda: (3, np.array([1, 0, 1], dtype=np.int8)),
        "chars-only": lambda: (None, np.array([0, 1, 1], dtype=np.int8)),
        "length-only": lambda: (2, None),
        "length-zero": lambda: (0, None),
        "length-too-long": lambda: (9, None),
        "all-zero-chars": lambda: (2, np.array([0, 0, 0], dtype=np.int8)),
        "all-zero-chars-length0": lambda: (0, np.array([0, 0, 0], dtype=np.int8)),
        "bool-chars": lambda: (2, np.array([True, False, True])),
        "short-chars": lambda: (2, np.array([1, 1], dtype=np.int8)),
        "np-length": lambda: (np.int64(2), None),
        "not-tuple": lambda: np.array([1, 0, 1], dtype=np.int8),
        "none-none": lambda: (None, None),
    }
    text_probabilities = {
        "valid": lambda: (None, np.array([0.5, 0.0, 0.5])),
        "length": lambda: (3, np.array([0.2, 0.3, 0.5])),
        "non-summing": lambda: (2, np.array([0.5, 0.5, 0.5])),
        "negative": lambda: (2, np.array([1.5, -0.5, 0.0])),
        "length-only": lambda: (2, None),
    }
    both("text-abc", lambda: S.Text(5, min_length=0, charset="abc"), text_masks, text_probabilities)
    both("text-dupes", lambda: S.Text(5, charset="cbaab"), {k: text_masks[k] for k in ("length-and-chars", "chars-only", "short-chars")},
         {"valid": text_probabilities["valid"]})
    both("text-min2", lambda: S.Text(4, min_length=2, charset="xyz"), {k: text_masks[k] for k in ("length-and-chars", "length-zero", "all-zero-chars", "none-none")}, {})

    tuple_build = lambda: S.Tuple((S.Discrete(3), S.MultiBinary(2)))  # noqa: E731
    both("tuple", tuple_build, {
        "valid": lambda: (np.array([0, 1, 1], dtype=np.int8), np.array([2, 0], dtype=np.int8)),
        "none-first": lambda: (None, np.array([1, 2], dtype=np.int8)),
        "short": lambda: (np.array([0, 1, 1], dtype=np.int8),),
        "list": lambda: [None, None],
        "invalid-sub": lambda: (np.array([0, 0, 0], dtype=np.int8), None),
    }, {
        "valid": lambda: (np.array([0.0, 0.5, 0.5]), np.array([0.5, 1.0])),
        "none-first": lambda: (None, np.array([0.5, 1.0])),
        "short": lambda: (np.array([0.0, 0.5, 0.5]),),
    })
    dict_build = lambda: S.Dict({"b": S.Discrete(3), "a": S.MultiBinary(2)})  # noqa: E731
    both("dict", dict_build, {
        "valid": lambda: {"a": np.array([2, 1], dtype=np.int8), "b": np.array([0, 0, 1], dtype=np.int8)},
        "partial-none": lambda: {"a": None, "b": np.array([0, 0, 1], dtype=np.int8)},
        "missing-key": lambda: {"a": None},
        "extra-key": lambda: {"a": None, "b": None, "c": None},
        "not-dict": lambda: (None, None),
    }, {
        "valid": lambda: {"a": np.array([0.5, 1.0]), "b": np.array([0.0, 0.0, 1.0])},
        "missing-key": lambda: {"a": np.array([0.5, 1.0])},
    })
    seq_build = lambda: S.Sequence(S.Discrete(3))  # noqa: E731
    seq_masks = {
        "length2-none": lambda: (2, None),
        "length0-none": lambda: (0, None),
        "none-none": lambda: (None, None),
        "none-mask": lambda: (None, np.array([1, 0, 1], dtype=np.int8)),
        "length3-mask": lambda: (3, np.array([0, 1, 0], dtype=np.int8)),
        "choices": lambda: (np.array([1, 3]), None),
        "choices-int8": lambda: (np.array([1, 3], dtype=np.int8), None),
        "negative-length": lambda: (-1, None),
        "float-length": lambda: (2.0, None),
        "np-length": lambda: (np.int64(2), None),
        "choices-2d": lambda: (np.array([[1, 2]]), None),
        "choices-negative": lambda: (np.array([1, -2]), None),
        "not-tuple": lambda: 2,
        "short": lambda: (2,),
    }
    seq_probabilities = {
        "length2-none": lambda: (2, None),
        "none-prob": lambda: (None, np.array([0.5, 0.0, 0.5])),
        "choices-prob": lambda: (np.array([0, 2]), np.array([0.0, 1.0, 0.0])),
        "non-summing": lambda: (2, np.array([0.5, 0.5, 0.5])),
    }
    both("sequence", seq_build, seq_masks, seq_probabilities)
    both("sequence-stack", lambda: S.Sequence(S.Discrete(3), stack=True),
         {k: seq_masks[k] for k in ("length2-none", "length0-none", "none-mask", "choices")},
         {k: seq_probabilities[k] for k in ("length2-none", "none-prob")})
    both("sequence-box-stack", lambda: S.Sequence(S.Box(0, 1, (2,), np.float32), stack=True),
         {k: seq_masks[k] for k in ("length2-none", "length0-none", "none-none")}, {"length2-none": seq_probabilities["length2-none"]})

    graph_build = lambda: S.Graph(S.Discrete(3), S.Discrete(2))  # noqa: E731
    graph_masks = {
        "both": lambda: (np.array([1, 0, 1], dtype=np.int8), np.array([0, 1], dtype=np.int8)),
        "nodes-only": lambda: (np.array([1, 1, 0], dtype=np.int8), None),
        "none-none": lambda: (None, None),
        "all-zero-nodes": lambda: (np.array([0, 0, 0], dtype=np.int8), None),
        "per-node-tuple": lambda: (tuple(np.array([1, 0, 0], dtype=np.int8) for _ in range(3)), None),
        "short": lambda: (np.array([1, 0, 1], dtype=np.int8),),
    }
    graph_probabilities = {
        "both": lambda: (np.array([0.5, 0.0, 0.5]), np.array([0.0, 1.0])),
        "nodes-only": lambda: (np.array([0.2, 0.3, 0.5]), None),
        "non-summing": lambda: (np.array([0.5, 0.5, 0.5]), None),
    }
    both("graph", graph_build, graph_masks, graph_probabilities, num_nodes=3, num_edges=2)
    both("graph-default-sizes", graph_build, {"none-none": graph_masks["none-none"]}, {})
    for nodes, edges in ((1, None), (1, 3), (3, 0), (0, None), (4, 20), (2, -1)):
        out.append(_mask_case(f"graph/sizes/nodes{nodes}-edges{edges}", graph_build, 3, num_nodes=nodes, num_edges=edges))
        out.append(_mask_case(f"graph-no-edge-space/sizes/nodes{nodes}-edges{edges}", lambda: S.Graph(S.Box(0, 1, (2,), np.float32), None),
                              4, num_nodes=nodes, num_edges=edges))
    out.append(_mask_case("graph-box/mask/none-none", lambda: S.Graph(S.Box(0, 1, (2,), np.float32), S.Box(0, 3, (), np.int32)), 8,
                          mask=lambda: (None, None), num_nodes=2, num_edges=2))
    out.append(_mask_case("graph-box/mask/ones", lambda: S.Graph(S.Box(0, 1, (2,), np.float32), S.Box(0, 3, (), np.int32)), 8,
                          mask=lambda: (np.ones(2, dtype=np.int8), None), num_nodes=2, num_edges=2))

    if HAS_ONEOF:
        oneof_build = lambda: S.OneOf((S.Discrete(3), S.MultiBinary(2)))  # noqa: E731
        both("oneof", oneof_build, {
            "valid": lambda: (np.array([0, 1, 1], dtype=np.int8), np.array([2, 0], dtype=np.int8)),
            "none-first": lambda: (None, np.array([1, 2], dtype=np.int8)),
            "short": lambda: (np.array([0, 1, 1], dtype=np.int8),),
            "none-none": lambda: (None, None),
        }, {
            "valid": lambda: (np.array([0.0, 0.5, 0.5]), np.array([0.5, 1.0])),
            "short": lambda: (np.array([0.0, 0.5, 0.5]),),
        })
    return out


# ---------------------------------------------------------------------------
# Cases named after reported release differences, and other single calls
# ---------------------------------------------------------------------------


def single_cases() -> list[Case]:
    out: list[Case] = []

    def add(name: str, function: Callable[[Any], Any]) -> None:
        out.append(Case("single/" + name, function))

    add("discrete-contains-10e20", lambda t: t(S.Discrete(5, seed=0)).contains(10**20))
    add("discrete-contains-2e70-start", lambda t: t(S.Discrete(5, start=-2, seed=0)).contains(-(2**70)))
    add("discrete-contains-uint64-0", lambda t: t(S.Discrete(5, seed=0)).contains(np.uint64(0)))
    add("discrete-contains-uint64-max", lambda t: t(S.Discrete(5, seed=0)).contains(np.uint64(2**64 - 1)))
    add("discrete-contains-np-bool", lambda t: t(S.Discrete(5, seed=0)).contains(np.bool_(True)))
    add("discrete-contains-float", lambda t: t(S.Discrete(5, seed=0)).contains(1.0))
    add("box-uint8-contains-2e70", lambda t: t(S.Box(0, 255, (2,), np.uint8, seed=0)).contains([2**70, 1]))
    add("box-uint8-contains-neg", lambda t: t(S.Box(0, 255, (2,), np.uint8, seed=0)).contains([-1, 1]))
    add("box-int64-contains-2e63", lambda t: t(S.Box(0, 10, (1,), np.int64, seed=0)).contains([2**63]))
    add("box-float32-contains-2e70", lambda t: t(S.Box(0, 1, (1,), np.float32, seed=0)).contains([2**70]))
    add("box-scalar-contains-py-int", lambda t: t(S.Box(0, 10, (), np.int32, seed=0)).contains(3))
    add("box-scalar-contains-py-float", lambda t: t(S.Box(0, 10, (), np.float32, seed=0)).contains(3.5))
    add("box-shape1-contains-py-float", lambda t: t(S.Box(0, 10, (1,), np.float32, seed=0)).contains(3.5))
    add("multidiscrete-contains-float-zeros", lambda t: t(S.MultiDiscrete([3, 5, 2], seed=0)).contains(np.zeros(3)))
    add("multidiscrete-contains-list", lambda t: t(S.MultiDiscrete([3, 5, 2], seed=0)).contains([0, 4, 1]))
    add("multidiscrete-contains-2e70", lambda t: t(S.MultiDiscrete([3, 5, 2], seed=0)).contains([2**70, 0, 0]))
    add("multibinary-contains-list", lambda t: t(S.MultiBinary(3, seed=0)).contains([0, 1, 1]))
    if DISCRETE_TAKES_DTYPE:
        add("discrete-int8-start118-contains-int8-120", lambda t: t(S.Discrete(10, start=118, dtype=np.int8, seed=0)).contains(np.int8(120)))
        add("discrete-int8-start118-contains-127", lambda t: t(S.Discrete(10, start=118, dtype=np.int8, seed=0)).contains(127))
        add("discrete-int8-start118-contains-128", lambda t: t(S.Discrete(10, start=118, dtype=np.int8, seed=0)).contains(128))
        add("discrete-int8-start118-sample", lambda t: [t(S.Discrete(10, start=118, dtype=np.int8, seed=0)).sample() for _ in range(2)])
        add("discrete-uint8-contains-neg", lambda t: t(S.Discrete(3, dtype=np.uint8, seed=0)).contains(-1))
    add("discrete-dtype-argument", lambda t: t(S.Discrete(3, seed=0, dtype=np.int32)))
    add("discrete-probability-1.0.0", lambda t: t(S.Discrete(3, seed=0)).sample(probability=np.array([0.2, 0.3, 0.5])))
    add("sequence-mask-2-none", lambda t: t(S.Sequence(S.Discrete(3), seed=0)).sample(mask=(2, None)))
    add("sequence-stack-mask-2-none", lambda t: t(S.Sequence(S.Discrete(3), seed=0, stack=True)).sample(mask=(2, None)))
    add("text-dupes-sample", lambda t: [t(S.Text(5, charset="cbaab", seed=0)).sample() for _ in range(1)])
    add("text-dupes-attributes", lambda t: (lambda s: (s.characters, s.character_set if hasattr(s, "character_set") else None,
                                                       s.character_list if hasattr(s, "character_list") else None))(t(S.Text(5, charset="cbaab", seed=0))))
    add("text-default-sample", lambda t: [t(S.Text(8, seed=0)).sample() for _ in range(3)])
    add("text-character-index", lambda t: (lambda s: [s.character_index(c) for c in "abc"])(t(S.Text(5, charset="cbaab", seed=0))))
    add("text-character-index-missing", lambda t: t(S.Text(5, charset="cba", seed=0)).character_index("z"))
    add("flatten-tuple-short-value", lambda t: U.flatten(t(S.Tuple((S.Discrete(2), S.Discrete(3)), seed=0)), (1,)))
    add("flatten-tuple-long-value", lambda t: U.flatten(t(S.Tuple((S.Discrete(2), S.Discrete(3)), seed=0)), (1, 2, 0)))
    add("flatten-dict-missing-key", lambda t: U.flatten(t(S.Dict({"a": S.Discrete(2), "b": S.Discrete(3)}, seed=0)), {"a": 1}))
    add("flatten-discrete-out-of-range", lambda t: U.flatten(t(S.Discrete(3, seed=0)), 5))
    add("flatten-discrete-negative", lambda t: U.flatten(t(S.Discrete(3, seed=0)), -1))
    add("flatten-multidiscrete-out-of-range", lambda t: U.flatten(t(S.MultiDiscrete([3, 2], seed=0)), np.array([3, 0])))
    add("flatten-box-wrong-shape", lambda t: U.flatten(t(S.Box(0, 1, (2,), seed=0)), np.zeros(3)))
    add("flatten-box-list", lambda t: U.flatten(t(S.Box(0, 1, (2,), seed=0)), [0.5, 0.25]))
    add("unflatten-discrete-none-hot", lambda t: U.unflatten(t(S.Discrete(3, seed=0)), np.zeros(3, dtype=np.int64)))
    add("unflatten-discrete-two-hot", lambda t: U.unflatten(t(S.Discrete(3, seed=0)), np.array([1, 1, 0], dtype=np.int64)))
    add("unflatten-multidiscrete-wrong-length", lambda t: U.unflatten(t(S.MultiDiscrete([3, 2], seed=0)), np.zeros(4, dtype=np.int64)))
    add("unflatten-box-wrong-size", lambda t: U.unflatten(t(S.Box(0, 1, (2, 2), seed=0)), np.zeros(3, dtype=np.float32)))
    add("unflatten-tuple-float", lambda t: U.unflatten(t(S.Tuple((S.Discrete(2), S.Box(0, 1, (1,))), seed=0)), np.array([0.0, 1.0, 0.5])))
    add("flatdim-graph", lambda t: U.flatdim(t(S.Graph(S.Box(0, 1, (2,)), S.Discrete(2), seed=0))))
    add("flatdim-sequence", lambda t: U.flatdim(t(S.Sequence(S.Discrete(2), seed=0))))
    add("flatdim-text", lambda t: U.flatdim(t(S.Text(3, seed=0))))
    add("flatdim-space-base", lambda t: U.flatdim(S.Space((2,), np.float32)))
    add("flatten-space-base", lambda t: U.flatten_space(S.Space((2,), np.float32)))
    add("flatten-graph", lambda t: U.flatten(t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0)),
                                                S.GraphInstance(np.array([0, 2]), np.array([1]), np.array([[0, 1]]))))
    add("flatten-graph-no-edges", lambda t: U.flatten(t(S.Graph(S.Box(0, 1, (2,)), None, seed=0)),
                                                         S.GraphInstance(np.zeros((2, 2), dtype=np.float32), None, None)))
    add("unflatten-graph", lambda t: (lambda s: U.unflatten(s, U.flatten(s, S.GraphInstance(np.array([0, 2]), np.array([1]), np.array([[0, 1]])))))(
        t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0))))
    add("flatten-sequence-stack", lambda t: U.flatten(t(S.Sequence(S.Discrete(3), stack=True, seed=0)), np.array([0, 2])))
    add("flatten-sequence-tuple", lambda t: U.flatten(t(S.Sequence(S.Discrete(3), seed=0)), (np.int64(0), np.int64(2))))
    add("flatten-text", lambda t: U.flatten(t(S.Text(4, charset="abc", seed=0)), "ca"))
    add("flatten-text-foreign", lambda t: U.flatten(t(S.Text(4, charset="abc", seed=0)), "z"))
    add("unflatten-text", lambda t: U.unflatten(t(S.Text(4, charset="abc", seed=0)), np.array([2, 0, 3, 3], dtype=np.int32)))
    add("flatten-space-graph", lambda t: U.flatten_space(t(S.Graph(S.Box(0, 1, (2,)), S.Discrete(3), seed=0))))
    add("flatten-space-sequence", lambda t: U.flatten_space(t(S.Sequence(S.Discrete(3), seed=0))))
    add("box-int8-sample-unbounded", lambda t: [t(S.Box(-np.inf, np.inf, (6,), np.int8, seed=0)).sample() for _ in range(2)])
    add("box-int16-sample-full", lambda t: t(S.Box(-(2**15), 2**15 - 1, (6,), np.int16, seed=0)).sample())
    add("box-int32-sample-full", lambda t: t(S.Box(-(2**31), 2**31 - 1, (6,), np.int32, seed=0)).sample())
    add("box-uint32-sample-full", lambda t: t(S.Box(0, 2**32 - 1, (6,), np.uint32, seed=0)).sample())
    add("box-int64-sample-full", lambda t: t(S.Box(-(2**63), 2**63 - 1, (6,), np.int64, seed=0)).sample())
    add("box-uint64-sample-full", lambda t: t(S.Box(0, 2**64 - 1, (6,), np.uint64, seed=0)).sample())
    add("box-float16-shared-memory", lambda t: _shared_memory_roundtrip(t(S.Box(0, 1, (3,), np.float16, seed=0)),
                                                                       [np.array([0.5, 0.25, 1.0], dtype=np.float16)]))
    add("box-float16-create-shared-memory", lambda t: V.create_shared_memory(t(S.Box(0, 1, (3,), np.float16, seed=0)), n=2))
    add("box-bool-dtype", lambda t: t(S.Box(0, 1, (2,), np.bool_, seed=0)))
    add("box-complex-dtype", lambda t: t(S.Box(0, 1, (2,), np.complex64, seed=0)))
    add("box-low-above-high", lambda t: t(S.Box(1, 0, (2,), seed=0)))
    add("box-shape-mismatch", lambda t: t(S.Box(np.zeros(2), np.ones(3), seed=0)))
    add("box-no-shape-scalar", lambda t: t(S.Box(0, 1, seed=0)))
    add("box-nan-bound", lambda t: t(S.Box(np.nan, 1, (2,), seed=0)))
    add("box-int-inf-sample", lambda t: t(S.Box(-np.inf, 0, (3,), np.int32, seed=0)).sample())
    add("discrete-n0", lambda t: t(S.Discrete(0, seed=0)))
    add("discrete-negative-n", lambda t: t(S.Discrete(-2, seed=0)))
    add("discrete-float-n", lambda t: t(S.Discrete(2.0, seed=0)))
    add("multidiscrete-zero", lambda t: t(S.MultiDiscrete([0, 2], seed=0)))
    add("multibinary-zero", lambda t: t(S.MultiBinary(0, seed=0)).sample())
    add("text-min-above-max", lambda t: t(S.Text(2, min_length=3, seed=0)))
    add("text-empty-charset", lambda t: t(S.Text(2, charset="", seed=0)))
    add("dict-seed-dict", lambda t: (lambda s: (s.seed({"a": 3, "b": 4}), s.sample()))(t(S.Dict({"a": S.Discrete(3), "b": S.Discrete(5)}, seed=0))))
    add("dict-seed-dict-missing", lambda t: t(S.Dict({"a": S.Discrete(3), "b": S.Discrete(5)}, seed=0)).seed({"a": 3}))
    add("dict-seed-dict-extra", lambda t: t(S.Dict({"a": S.Discrete(3)}, seed=0)).seed({"a": 3, "c": 2}))
    add("tuple-seed-list", lambda t: (lambda s: (s.seed([1, 2]), s.sample()))(t(S.Tuple((S.Discrete(3), S.Discrete(5)), seed=0))))
    add("tuple-seed-tuple", lambda t: (lambda s: (s.seed((1, 2)), s.sample()))(t(S.Tuple((S.Discrete(3), S.Discrete(5)), seed=0))))
    add("tuple-seed-short-list", lambda t: t(S.Tuple((S.Discrete(3), S.Discrete(5)), seed=0)).seed([1]))
    add("tuple-seed-np-int", lambda t: (lambda s: (s.seed(np.int64(4)), s.sample()))(t(S.Tuple((S.Discrete(3), S.Discrete(5)), seed=0))))
    add("sequence-seed-tuple", lambda t: (lambda s: (s.seed((3, 4)), s.sample()))(t(S.Sequence(S.Discrete(3), seed=0))))
    add("graph-seed-tuple", lambda t: (lambda s: (s.seed((3, 4, 5)), s.sample(num_nodes=2, num_edges=1)))(t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0))))
    add("graph-seed-pair", lambda t: (lambda s: (s.seed((3, 4)), s.sample(num_nodes=2, num_edges=1)))(t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0))))
    add("discrete-seed-negative", lambda t: t(S.Discrete(3, seed=0)).seed(-1))
    add("discrete-seed-str", lambda t: t(S.Discrete(3, seed=0)).seed("x"))
    add("discrete-seed-huge", lambda t: (lambda s: (s.seed(2**70), s.sample()))(t(S.Discrete(3, seed=0))))
    add("discrete-seed-generator", lambda t: (lambda s: s.sample())(t(S.Discrete(7, seed=np.random.default_rng(3)))))
    add("box-seed-np-uint64", lambda t: (lambda s: (s.seed(np.uint64(9)), s.sample()))(t(S.Box(0, 1, (2,), seed=0))))
    add("box-seed-float", lambda t: t(S.Box(0, 1, (2,), seed=0)).seed(1.5))
    add("graph-node-space-invalid", lambda t: t(S.Graph(S.MultiBinary(2), None, seed=0)))
    add("graph-contains-edge-links-float", lambda t: t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0)).contains(
        S.GraphInstance(np.array([0, 1]), np.array([1]), np.array([[0.0, 1.0]]))))
    add("graph-attribute-names", lambda t: sorted(vars(t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0)))))
    add("graph-batch-node-space", lambda t: getattr(t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0)), "batch_node_space", "absent"))
    add("graph-sample-state-default", lambda t: t(S.Graph(S.Box(0, 1, (2,)), S.Discrete(3), seed=0)).sample())
    add("concatenate-discrete-list-out", lambda t: V.concatenate(t(S.Discrete(3, seed=0)), [0, 1, 2], np.zeros(3, dtype=np.int64)))
    add("concatenate-box-wrong-out", lambda t: V.concatenate(t(S.Box(0, 1, (2,), seed=0)), [np.zeros(2)] * 2, np.zeros((3, 2))))
    add("concatenate-box-tuple-items", lambda t: V.concatenate(t(S.Box(0, 1, (2,), seed=0)), (np.zeros(2), np.ones(2)), np.zeros((2, 2), dtype=np.float32)))
    add("concatenate-generator-items", lambda t: V.concatenate(t(S.Discrete(3, seed=0)), (x for x in [1, 2]), np.zeros(2, dtype=np.int64)))
    add("iterate-discrete", lambda t: list(V.iterate(t(S.Discrete(3, seed=0)), 1)))
    add("iterate-box-unbatched", lambda t: list(V.iterate(t(S.Box(0, 1, (2,), seed=0)), np.zeros(2, dtype=np.float32))))
    add("iterate-multidiscrete-batched", lambda t: list(V.iterate(t(S.MultiDiscrete([[3, 3], [3, 3]], seed=0)), np.zeros((2, 2), dtype=np.int64))))
    add("iterate-tuple-mismatched", lambda t: list(V.iterate(t(S.Tuple((S.Box(0, 1, (2,)), S.Box(0, 1, (3,))), seed=0)),
                                                              (np.zeros(2), np.zeros(3)))))
    add("iterate-dict-batched", lambda t: list(V.iterate(t(S.Dict({"a": S.MultiDiscrete([2, 2]), "b": S.Box(0, 1, (2, 1))}, seed=0)),
                                                          {"a": np.array([0, 1]), "b": np.zeros((2, 1))})))
    add("empty-array-text", lambda t: V.create_empty_array(t(S.Text(3, seed=0)), n=2))
    add("empty-array-graph", lambda t: V.create_empty_array(t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0)), n=2))
    add("empty-array-sequence", lambda t: V.create_empty_array(t(S.Sequence(S.Discrete(3), seed=0)), n=2))
    add("empty-array-custom-fn", lambda t: V.create_empty_array(t(S.Box(0, 1, (2,), seed=0)), n=2, fn=lambda shape, dtype: np.full(shape, 7, dtype=dtype)))
    add("shared-memory-write-out-of-range", lambda t: (lambda s: V.write_to_shared_memory(s, 5, np.zeros(2, dtype=np.float32), V.create_shared_memory(s, n=2)))(
        t(S.Box(0, 1, (2,), seed=0))))
    add("shared-memory-read-n-mismatch", lambda t: (lambda s: V.read_from_shared_memory(s, V.create_shared_memory(s, n=2), n=3))(t(S.Box(0, 1, (2,), seed=0))))
    add("shared-memory-fork-ctx", lambda t: (lambda s: V.create_shared_memory(s, n=2, ctx=__import__("multiprocessing").get_context("fork")))(
        t(S.Dict({"a": S.Discrete(3), "b": S.MultiBinary(2)}, seed=0))))
    add("shared-memory-write-wrong-shape", lambda t: (lambda s: V.write_to_shared_memory(s, 0, np.zeros(3), V.create_shared_memory(s, n=2)))(
        t(S.Box(0, 1, (2,), seed=0))))
    add("batch-space-n0", lambda t: t(V.batch_space(t(S.Box(0, 1, (2,), seed=0)), 0)))
    add("batch-space-discrete-start", lambda t: t(V.batch_space(t(S.Discrete(3, start=-1, seed=0)), 3)))
    add("batch-space-base-space", lambda t: V.batch_space(S.Space((2,), np.float32), 2))
    add("to-jsonable-box-list", lambda t: t(S.Box(0, 1, (2,), seed=0)).to_jsonable([[0.5, 0.5]]))
    add("from-jsonable-box-nested-list", lambda t: t(S.Box(0, 1, (2,), seed=0)).from_jsonable([[0.5, 0.25]]))
    add("from-jsonable-discrete", lambda t: t(S.Discrete(3, seed=0)).from_jsonable([0, 2]))
    add("from-jsonable-text", lambda t: t(S.Text(3, seed=0)).from_jsonable(["ab"]))
    add("from-jsonable-graph", lambda t: t(S.Graph(S.Discrete(3), S.Discrete(2), seed=0)).from_jsonable(
        [{"nodes": [0, 1], "edges": [1], "edge_links": [[0, 1]]}]))
    add("from-jsonable-sequence", lambda t: t(S.Sequence(S.Discrete(3), seed=0)).from_jsonable([[0, 1], []]))
    add("from-jsonable-dict", lambda t: t(S.Dict({"a": S.Discrete(3), "b": S.Box(0, 1, (2,))}, seed=0)).from_jsonable({"a": [1], "b": [[0.5, 0.5]]}))
    add("equality-box-dtype", lambda t: t(S.Box(0, 1, (2,), np.float32, seed=0)) == t(S.Box(0, 1, (2,), np.float64, seed=0)))
    add("equality-text-charset-order", lambda t: t(S.Text(3, charset="abc", seed=0)) == t(S.Text(3, charset="cba", seed=0)))
    add("equality-dict-key-order", lambda t: t(S.Dict([("a", S.Discrete(2)), ("b", S.Discrete(3))], seed=0))
        == t(S.Dict([("b", S.Discrete(3)), ("a", S.Discrete(2))], seed=0)))
    add("equality-discrete-start", lambda t: t(S.Discrete(3, seed=0)) == t(S.Discrete(3, start=1, seed=0)))
    add("equality-sequence-stack", lambda t: t(S.Sequence(S.Discrete(3), seed=0)) == t(S.Sequence(S.Discrete(3), stack=True, seed=0)))
    if DICT_TAKES_SORT_KEYS:
        add("dict-sort-keys-false", lambda t: (lambda s: (list(s.spaces), s.sample()))(t(S.Dict({"b": S.Discrete(2), "a": S.Discrete(3)}, sort_keys=False, seed=0))))
    if HAS_ONEOF:
        add("oneof-flatten-dtype", lambda t: U.flatten(t(S.OneOf((S.Discrete(3), S.Box(0, 1, (2,), np.float32)), seed=0)), (1, np.array([0.5, 0.25], np.float32))))
        add("oneof-flatten-dtype-int", lambda t: U.flatten(t(S.OneOf((S.Discrete(3), S.Box(0, 9, (2,), np.int8)), seed=0)), (0, np.int64(2))))
        add("oneof-flatten-dtype-f64", lambda t: U.flatten(t(S.OneOf((S.Box(0, 1, (1,), np.float64), S.Box(0, 1, (2,), np.float16)), seed=0)),
                                                              (1, np.array([0.5, 0.25], np.float16))))
        add("oneof-flatten-space", lambda t: U.flatten_space(t(S.OneOf((S.Discrete(3), S.Box(0, 1, (2,), np.float16)), seed=0))))
        add("oneof-unflatten", lambda t: U.unflatten(t(S.OneOf((S.Discrete(3), S.Box(0, 1, (2,), np.float32)), seed=0)), np.array([1.0, 0.5, 0.25, 0.0], np.float32)))
        add("oneof-unflatten-bad-index", lambda t: U.unflatten(t(S.OneOf((S.Discrete(3), S.Box(0, 1, (2,), np.float32)), seed=0)), np.array([7.0, 0.5, 0.25, 0.0])))
        add("oneof-empty", lambda t: t(S.OneOf((), seed=0)))
        add("oneof-seed-list", lambda t: (lambda s: (s.seed([1, 2, 3]), s.sample()))(t(S.OneOf((S.Discrete(3), S.Discrete(4)), seed=0))))
        add("oneof-seed-short", lambda t: t(S.OneOf((S.Discrete(3), S.Discrete(4)), seed=0)).seed([1, 2]))
        add("oneof-contains-np-index", lambda t: t(S.OneOf((S.Discrete(3), S.Discrete(4)), seed=0)).contains((np.int64(1), np.int64(3))))
    return out


def sample_stream_cases() -> list[Case]:
    """Longer streams of a few spaces, to show a draw consumed differently."""
    out = []
    for recipe in all_recipes():
        if recipe.kind in ("box", "discrete") and not recipe.label.endswith(("/small", "/unit", "/scalar", "/n2", "/n5")):
            continue

        def function(t: Any, r: Recipe = recipe) -> Any:
            space = r.build(t, 2024)
            return [space.sample() for _ in range(6)]

        out.append(Case(f"{recipe.label}/stream6", function))
    return out


def cases() -> list[Case]:
    """Every case, in a fixed order, names unique."""
    out: list[Case] = []
    for recipe in all_recipes():
        out.extend(recipe_cases(recipe))
    out.extend(mask_cases())
    out.extend(single_cases())
    out.extend(sample_stream_cases())
    names = [case.name for case in out]
    if len(set(names)) != len(names):
        seen: set[str] = set()
        dupes = sorted({n for n in names if n in seen or seen.add(n)})  # type: ignore[func-returns-value]
        raise AssertionError(f"duplicate case names: {dupes[:10]}")
    return out
