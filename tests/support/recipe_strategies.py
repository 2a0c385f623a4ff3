"""Hypothesis strategies that generate :class:`~support.recipes.Recipe` trees.

Two families, for two kinds of test:

* parity (``space_recipes``, ``composite_space_recipes``): small valid trees
  over a few representative leaves, every composite nested in every other,
  sampled and seeded many times by ``tests/parity/test_composite_parity.py``;
* fuzz (``leaf_recipes``, ``composite_recipes``): constructor arguments in
  every accepted form (every Box dtype and bound form, Discrete start/dtype,
  nested MultiDiscrete, Text charsets), some broken on purpose unless
  ``valid_only``, for ``tests/fuzz``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from support.recipes import Recipe, spec

inf, nan = float("inf"), float("nan")

LEAF_KINDS = ("Box", "Discrete", "MultiDiscrete", "MultiBinary", "Text")

# --------------------------------------------------------------------------- parity: small valid trees

BOX_RECIPES = [
    spec.Box(0.0, 1.0, (2,), "float32"),
    spec.Box(-1.0, 2.0, (), "float64"),
    spec.Box(-inf, inf, (2,), "float32"),
    spec.Box(0.5, inf, (3,), "float64"),
    spec.Box(-inf, -1.0, (1,), "float32"),
    spec.Box(0, 9, (2,), "int64"),
    spec.Box(-inf, inf, (2,), "int32"),
    spec.Box(0, 255, (3,), "uint8"),
    spec.Box(-2.0, 2.0, (2, 2), "float16"),
]

_discrete = st.builds(lambda n, start: spec.Discrete(n, start=start), st.integers(1, 5), st.integers(-3, 3))
_multi_discrete = st.builds(spec.MultiDiscrete, st.lists(st.integers(1, 4), min_size=1, max_size=3))
_multi_binary = st.builds(spec.MultiBinary, st.integers(1, 5))
_text = st.builds(
    lambda max_length, min_length, charset: spec.Text(
        max_length, min_length=min(min_length, max_length), charset=charset
    ),
    st.integers(1, 4),
    st.integers(0, 2),
    st.sampled_from(["abc", "xy01"]),
)
numeric_leaves = st.one_of(st.sampled_from(BOX_RECIPES), _discrete, _multi_discrete, _multi_binary)
leaf_space_recipes = st.one_of(numeric_leaves, _text)
_keys = st.sampled_from(["a", "b", "c", "pos", "vel"])

# Graph features: fundamental spaces, or a small Tuple/Dict of numeric ones.
graph_node_recipes = st.one_of(
    numeric_leaves,
    st.builds(spec.Tuple, st.lists(numeric_leaves, min_size=1, max_size=2)),
    st.builds(
        lambda pairs: spec.Dict(dict(pairs), sort_keys=True),
        st.lists(st.tuples(_keys, numeric_leaves), min_size=1, max_size=2, unique_by=lambda p: p[0]),
    ),
)
graph_recipes = st.builds(spec.Graph, graph_node_recipes, st.one_of(st.none(), numeric_leaves))


def _extend(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.builds(spec.Tuple, st.lists(inner, max_size=3)),
        st.builds(
            lambda pairs, sort_keys: spec.Dict(dict(pairs), sort_keys=sort_keys),
            st.lists(st.tuples(_keys, inner), max_size=3, unique_by=lambda p: p[0]),
            st.booleans(),
        ),
        st.builds(lambda child, stack: spec.Sequence(child, stack=stack), inner, st.booleans()),
        st.builds(spec.OneOf, st.lists(inner, min_size=1, max_size=3)),
    )


space_recipes = st.recursive(st.one_of(leaf_space_recipes, graph_recipes), _extend, max_leaves=5)
composite_space_recipes = space_recipes.filter(lambda recipe: recipe.kind not in LEAF_KINDS)


# --------------------------------------------------------------------------- fuzz: leaves

FLOAT_DTYPES = ["float16", "float32", "float64"]
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
BOX_DTYPES = FLOAT_DTYPES + INT_DTYPES + ["bool"]
SHAPES = [(), (1,), (3,), (2, 3), (2, 1, 2), (0,), (4,), (3, 0)]


@st.composite
def box_recipes(draw: Any, valid_only: bool = False) -> Recipe:
    dtype = draw(st.sampled_from(BOX_DTYPES))
    dt = np.dtype(dtype)
    shape = draw(st.sampled_from(SHAPES))
    if dt.kind == "f":
        big = float(np.finfo(dt).max) / 4
        finite = st.one_of(st.integers(-5, 5).map(float), st.floats(-big, big, allow_nan=False, width=64))
        infinite = True
    elif dt.kind == "b":
        finite, infinite = st.integers(0, 1), False
    else:
        info = np.iinfo(dt)
        # int64/uint64 extremes are quirky (quirk Q8, docs/quirks.md); stay inside for valid spaces.
        lo, hi = int(info.min) // 2, int(info.max) // 2
        finite = st.one_of(st.integers(max(lo, -5), 5 if info.max > 5 else int(info.max)), st.integers(lo, hi))
        infinite = dt.kind == "i" and dt.itemsize < 8

    def bound_pair() -> tuple[Any, Any]:
        a, b = draw(finite), draw(finite)
        a, b = min(a, b), max(a, b)
        if infinite and draw(st.integers(0, 3)) == 0:
            a = -inf
        if infinite and draw(st.integers(0, 3)) == 0:
            b = inf
        return a, b

    form = draw(st.sampled_from(["scalar", "scalar", "array", "np-scalar", "0d-bounds"]))
    kwargs: dict[str, Any] = {}
    if form == "scalar":
        low, high = bound_pair()
        args = (low, high, shape, dt)
    elif form == "np-scalar":
        low, high = bound_pair()
        cast = np.float64 if isinstance(low, float) or isinstance(high, float) else dt.type
        args = (cast(low), cast(high), shape, dt)
    elif form == "0d-bounds":
        low, high = bound_pair()
        src = np.float64 if isinstance(low, float) or isinstance(high, float) else dt
        args = (np.array(low, src), np.array(high, src))
        kwargs["dtype"] = dt
    else:
        pairs = [bound_pair() for _ in range(math.prod(shape))]
        floaty = any(isinstance(v, float) for p in pairs for v in p)
        src = np.dtype(np.float64) if floaty and dt.kind != "f" else dt
        low = np.array([p[0] for p in pairs], dtype=src).reshape(shape)
        high = np.array([p[1] for p in pairs], dtype=src).reshape(shape)
        args = (low, high)
        kwargs["dtype"] = dt
        if draw(st.booleans()):
            kwargs["shape"] = shape
    recipe = spec.Box(*args, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from(_box_breakers(recipe, dt, shape)))
    return recipe


def _box_breakers(recipe: Recipe, dt: np.dtype, shape: tuple) -> list[Recipe]:
    args, kw = recipe.args, recipe.kwargs
    return [
        spec.Box(1, 0, shape, dt),  # low > high
        spec.Box(nan, 1.0, shape, dt),
        spec.Box(0, nan, shape, dt),
        spec.Box(0, 1, (-1,), dt),
        spec.Box(0, 1, (2.0,), dt),
        spec.Box(0, 1, 3, dt),
        spec.Box(0, 1, None, dt),
        spec.Box(np.zeros(3), np.ones(2), None, dt),
        spec.Box(np.zeros(3), np.ones(3), (4,), dt),
        spec.Box(0, 1, shape, None),
        spec.Box(0, 1, shape, "U3"),
        spec.Box(0, 1, shape, "complex64"),
        spec.Box(0, 1, shape, object),
        spec.Box("0", "1", shape, dt),
        spec.Box(-1, 1, shape, "uint8"),
        spec.Box(0, 300, shape, "uint8"),
        spec.Box(-inf, inf, shape, "uint16"),
        spec.Box(-inf, inf, shape, "int64"),
        spec.Box(-inf, inf, shape, "bool"),
        spec.Box(0, 2, shape, "bool"),
        spec.Box(0.5, 1.5, shape, "int32"),
        spec.Box(0, 1, shape, ">f8"),
        spec.Box(0, 1, shape, "<i2"),
        spec.Box([0, 0], [1, 1], None, dt),
        spec.Box(0, 1, shape, dt, seed="x"),
        spec.Box(*args, **{**kw, "shape": (7, 7)}),
        spec.Box(np.zeros((2, 3)).T, np.ones((3, 2)), None, dt),  # Fortran-ordered bounds
        spec.Box(np.zeros(6)[::2], np.ones(6)[::2], None, dt),  # strided bounds
        spec.Box(np.zeros(3, ">f8"), np.ones(3, ">f8"), None, dt),  # big-endian bounds
    ]


@st.composite
def discrete_recipes(draw: Any, valid_only: bool = False) -> Recipe:
    dtype = draw(st.sampled_from(INT_DTYPES + ["int64"] * 3))
    info = np.iinfo(dtype)
    n = draw(st.one_of(st.integers(1, 12), st.integers(1, int(info.max))))
    room = int(info.max) - n + 1
    start = draw(st.one_of(st.just(0), st.integers(-3, 3), st.integers(int(info.min), max(int(info.min), room))))
    start = max(int(info.min), min(start, room)) if info.min < 0 else max(0, min(start, room))
    kwargs: dict[str, Any] = {"start": start}
    if dtype != "int64" or draw(st.booleans()):
        kwargs["dtype"] = dtype
    if draw(st.integers(0, 3)) == 0:
        n = np.int64(n) if n <= 2**63 - 1 else n
    recipe = spec.Discrete(n, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            spec.Discrete(0),
            spec.Discrete(-1),
            spec.Discrete(2.0),
            spec.Discrete(np.float64(3.0)),
            spec.Discrete("3"),
            spec.Discrete(None),
            spec.Discrete(np.array([3])),
            spec.Discrete(np.array(3)),
            spec.Discrete(True),
            spec.Discrete(3, start=1.5),
            spec.Discrete(3, start=None),
            spec.Discrete(3, dtype="float32"),
            spec.Discrete(3, dtype=None),
            spec.Discrete(3, dtype="bool"),
            spec.Discrete(300, dtype="int8"),
            spec.Discrete(3, start=-1, dtype="uint8"),
            spec.Discrete(2**64, dtype="uint64"),
            spec.Discrete(2**70),
            spec.Discrete(3, start=2**63),
            spec.Discrete(10**12),  # huge but cheap
        ]))
    return recipe


@st.composite
def multi_binary_recipes(draw: Any, valid_only: bool = False) -> Recipe:
    form = draw(st.sampled_from(["int", "tuple", "list", "array"]))
    if form == "int":
        n: Any = draw(st.integers(1, 70))
    else:
        dims = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
        n = tuple(dims) if form == "tuple" else list(dims) if form == "list" else np.array(dims)
    recipe = spec.MultiBinary(n)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            spec.MultiBinary(0),
            spec.MultiBinary(-2),
            spec.MultiBinary((2, 0)),
            spec.MultiBinary((2, -1)),
            spec.MultiBinary(np.int64(3)),  # rejected by Gymnasium (documented quirk)
            spec.MultiBinary(2.0),
            spec.MultiBinary("3"),
            spec.MultiBinary(None),
            spec.MultiBinary(()),
            spec.MultiBinary([2.5, 2]),
            spec.MultiBinary(np.array([[2, 3]])),
        ]))
    return recipe


def _nested(values: list, shape: tuple) -> Any:
    return np.array(values, dtype=np.int64).reshape(shape).tolist()


@st.composite
def multi_discrete_recipes(draw: Any, valid_only: bool = False) -> Recipe:
    dtype = draw(st.sampled_from(INT_DTYPES + ["int64"] * 3))
    info = np.iinfo(dtype)
    shape = draw(st.sampled_from([(), (1,), (3,), (2, 2), (2, 1, 3), (0,)]))
    size = math.prod(shape)
    top = min(int(info.max), 6)
    nvec = [draw(st.integers(1, top)) for _ in range(size)]
    kwargs: dict[str, Any] = {}
    if dtype != "int64" or draw(st.booleans()):
        kwargs["dtype"] = dtype
    if draw(st.booleans()):
        lo = -4 if info.min < 0 else 0
        kwargs["start"] = _nested([draw(st.integers(lo, 4)) for _ in range(size)], shape)
        if draw(st.booleans()):
            kwargs["start"] = np.array(kwargs["start"], dtype=dtype)
    form = draw(st.sampled_from(["list", "array", "array-other-dtype"]))
    if form == "list":
        nv: Any = _nested(nvec, shape)
    elif form == "array":
        nv = np.array(nvec, dtype=dtype).reshape(shape)
    else:
        nv = np.array(nvec, dtype=np.int32).reshape(shape)
    if shape == () and form == "list":
        nv = int(nv)
    recipe = spec.MultiDiscrete(nv, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            spec.MultiDiscrete([3, 0]),
            spec.MultiDiscrete([3, -1]),
            spec.MultiDiscrete([[3, 2], [1]]),  # ragged
            spec.MultiDiscrete([3, 2], start=[0]),
            spec.MultiDiscrete([3, 2], dtype="float32"),
            spec.MultiDiscrete([3, 2], dtype=None),
            spec.MultiDiscrete([3, 2], dtype="bool"),
            spec.MultiDiscrete([3.5, 2]),
            spec.MultiDiscrete("abc"),
            spec.MultiDiscrete(None),
            spec.MultiDiscrete([300, 2], dtype="int8"),
            spec.MultiDiscrete([3, 2], start=[-1, 0], dtype="uint8"),
            spec.MultiDiscrete(np.array([[3, 2], [4, 5]]).T),  # Fortran-ordered nvec
            spec.MultiDiscrete(np.array([3, 9, 2, 9])[::2]),  # strided nvec
            spec.MultiDiscrete(np.array([3, 2], ">i4"), dtype=">i4"),
        ]))
    return recipe


CHARSETS = ["abc", "xy01", "z", "αβγ", "abca", "", frozenset("qrs"), ["m", "n", "m"], "😀中"]


@st.composite
def text_recipes(draw: Any, valid_only: bool = False) -> Recipe:
    max_length = draw(st.integers(0, 8))
    kwargs: dict[str, Any] = {}
    if draw(st.booleans()):
        kwargs["min_length"] = draw(st.integers(0, max_length))
    charset = draw(st.sampled_from(CHARSETS))
    if charset == "" and kwargs.get("min_length", 1) != 0:
        charset = "abc"
    if charset != "abc" or draw(st.booleans()):
        kwargs["charset"] = charset
    recipe = spec.Text(max_length, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            spec.Text(-1),
            spec.Text(3, min_length=4),
            spec.Text(3, min_length=-1),
            spec.Text(3.0),
            spec.Text(np.int8(3)),
            spec.Text(3, min_length=2.0),
            spec.Text("3"),
            spec.Text(None),
            spec.Text(3, charset=""),
            spec.Text(3, charset=123),
            spec.Text(3, charset=None),
            spec.Text(3, charset=["ab", "c"]),
            spec.Text(2**70),  # sample(): numpy's int64 bound error, no allocation
        ]))
    return recipe


def leaf_recipes(valid_only: bool = False) -> st.SearchStrategy:
    return st.one_of(
        box_recipes(valid_only),
        discrete_recipes(valid_only),
        multi_binary_recipes(valid_only),
        multi_discrete_recipes(valid_only),
        text_recipes(valid_only),
    )


# --------------------------------------------------------------------------- fuzz: trees

_KEYS = st.sampled_from(["a", "b", "c", "pos", "vel", "z"])


@st.composite
def small_leaves(draw: Any) -> Recipe:
    """Valid leaves kept small (composites multiply their cost)."""
    recipe = draw(leaf_recipes(valid_only=True))
    if recipe.kind == "Box":
        shape = _leaf_shape(recipe)
        if shape is not None and math.prod(shape) > 6:
            return spec.Box(0, 1, (2,), "float32")
    return recipe


def _leaf_shape(recipe: Recipe) -> tuple | None:
    args = recipe.args
    if len(args) >= 3:
        return args[2]
    return np.shape(args[0])


def _graph_features() -> st.SearchStrategy:
    """Node/edge spaces: a leaf, or a Tuple/Dict of one or two leaves (as in practice)."""
    return st.one_of(
        small_leaves(),
        st.lists(small_leaves(), min_size=1, max_size=2).map(spec.Tuple),
        st.lists(st.tuples(_KEYS, small_leaves()), min_size=1, max_size=2, unique_by=lambda p: p[0])
        .map(lambda pairs: spec.Dict(dict(pairs), sort_keys=True)),
    )


def composite_recipes(depth: int = 3) -> st.SearchStrategy:
    """Trees of Tuple/Dict/Sequence/OneOf (and Graphs of leaves or Tuple/Dict of leaves)
    with up to ``depth`` composite levels.

    Graph features stay shallow: a Graph draws ten node samples and up to ninety
    edge samples, so Graphs or Sequences below a Graph make samples explode.
    """
    graphs = st.tuples(_graph_features(), st.one_of(st.none(), _graph_features())).map(lambda a: spec.Graph(*a))
    inner = st.one_of(small_leaves(), graphs)
    for _ in range(depth - 1):
        child = st.one_of(small_leaves(), inner)
        inner = st.one_of(
            st.lists(child, max_size=3).map(spec.Tuple),
            st.tuples(st.lists(st.tuples(_KEYS, child), max_size=3, unique_by=lambda p: p[0]), st.booleans())
            .map(lambda a: spec.Dict(dict(a[0]), sort_keys=a[1])),
            st.tuples(child, st.booleans()).map(lambda a: spec.Sequence(a[0], stack=a[1])),
            st.lists(child, min_size=1, max_size=3).map(spec.OneOf),
            graphs,
        )
    return inner


