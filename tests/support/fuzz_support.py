"""Generators of spaces, masks and (mostly broken) arguments for the fuzz tests.

A *recipe* is a plain nested tuple, readable in Hypothesis reports:

* ``("leaf", class_name, args, kwargs)`` -- a fundamental space built as
  ``getattr(lib, class_name)(*args, **kwargs)``; ``args`` may be invalid.
* ``("Tuple", (child, ...))``, ``("Dict", ((key, child), ...), sort_keys)``,
  ``("Sequence", child, stack)``, ``("Graph", node, edge_or_None)``,
  ``("OneOf", (child, ...))``.

:func:`make` builds a recipe with either library (arrays are copied first, so
both libraries see identical fresh inputs). Masks, probabilities and values
are produced from a valid structure by :func:`corrupt`, which applies one of
:data:`ARRAY_OPS` (wrong dtype/shape/length, bad values, strided, read-only,
big-endian, Fortran order, lists, scalars, ...) to one leaf. Everything is
driven by a ``numpy`` Generator seeded from a Hypothesis-drawn integer, so a
failure report (recipe + seed) reproduces it exactly.

The comparison helpers are the project's own (``differential``,
``composite_helpers``); nothing here compares results.
"""

from __future__ import annotations

import copy
import math
import os
from typing import Any

import numpy as np
from hypothesis import strategies as st

inf, nan = float("inf"), float("nan")

# Scale every fuzz test's example count: GYMSPACES_FUZZ_SCALE=10 for a long local run.
FUZZ_SCALE = float(os.environ.get("GYMSPACES_FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    return max(1, int(n * FUZZ_SCALE))


FLOAT_DTYPES = ["float16", "float32", "float64"]
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
BOX_DTYPES = FLOAT_DTYPES + INT_DTYPES + ["bool"]
SHAPES = [(), (1,), (3,), (2, 3), (2, 1, 2), (0,), (4,), (3, 0)]

# --------------------------------------------------------------------------- building


def fresh(value: Any) -> Any:
    """A private copy of a constructor argument (signed-int Box writes into its bounds)."""
    if isinstance(value, np.ndarray):
        out = value.copy(order="K")
        out.flags.writeable = value.flags.writeable
        return out
    if isinstance(value, (list, tuple, dict, set)):
        return copy.deepcopy(value)
    return value


def make(lib: Any, recipe: tuple) -> Any:
    """The space described by ``recipe``, built with ``lib`` (may raise)."""
    kind = recipe[0]
    if kind == "leaf":
        _, name, args, kwargs = recipe
        return getattr(lib, name)(*[fresh(a) for a in args], **{k: fresh(v) for k, v in kwargs})
    if kind == "Tuple":
        return lib.Tuple([make(lib, child) for child in recipe[1]])
    if kind == "OneOf":
        return lib.OneOf([make(lib, child) for child in recipe[1]])
    if kind == "Dict":
        return lib.Dict({key: make(lib, child) for key, child in recipe[1]}, sort_keys=recipe[2])
    if kind == "Sequence":
        return lib.Sequence(make(lib, recipe[1]), stack=recipe[2])
    if kind == "Graph":
        edge = None if recipe[2] is None else make(lib, recipe[2])
        return lib.Graph(make(lib, recipe[1]), edge)
    raise ValueError(kind)


def leaf(name: str, *args: Any, **kwargs: Any) -> tuple:
    return ("leaf", name, args, tuple(kwargs.items()))


# --------------------------------------------------------------------------- leaf recipes


@st.composite
def box_recipes(draw: Any, valid_only: bool = False) -> tuple:
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
        # int64/uint64 extremes are quirky (Q8); stay inside for valid spaces.
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
    recipe = leaf("Box", *args, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from(_box_breakers(recipe, dt, shape)))
    return recipe


def _box_breakers(recipe: tuple, dt: np.dtype, shape: tuple) -> list[tuple]:
    _, _, args, kwargs = recipe
    kw = dict(kwargs)
    return [
        leaf("Box", 1, 0, shape, dt),  # low > high
        leaf("Box", nan, 1.0, shape, dt),
        leaf("Box", 0, nan, shape, dt),
        leaf("Box", 0, 1, (-1,), dt),
        leaf("Box", 0, 1, (2.0,), dt),
        leaf("Box", 0, 1, 3, dt),
        leaf("Box", 0, 1, None, dt),
        leaf("Box", np.zeros(3), np.ones(2), None, dt),
        leaf("Box", np.zeros(3), np.ones(3), (4,), dt),
        leaf("Box", 0, 1, shape, None),
        leaf("Box", 0, 1, shape, "U3"),
        leaf("Box", 0, 1, shape, "complex64"),
        leaf("Box", 0, 1, shape, object),
        leaf("Box", "0", "1", shape, dt),
        leaf("Box", -1, 1, shape, "uint8"),
        leaf("Box", 0, 300, shape, "uint8"),
        leaf("Box", -inf, inf, shape, "uint16"),
        leaf("Box", -inf, inf, shape, "int64"),
        leaf("Box", -inf, inf, shape, "bool"),
        leaf("Box", 0, 2, shape, "bool"),
        leaf("Box", 0.5, 1.5, shape, "int32"),
        leaf("Box", 0, 1, shape, ">f8"),
        leaf("Box", 0, 1, shape, "<i2"),
        leaf("Box", [0, 0], [1, 1], None, dt),
        leaf("Box", 0, 1, shape, dt, seed="x"),
        leaf("Box", *args, **{**kw, "shape": (7, 7)}),
        leaf("Box", np.zeros((2, 3)).T, np.ones((3, 2)), None, dt),  # Fortran-ordered bounds
        leaf("Box", np.zeros(6)[::2], np.ones(6)[::2], None, dt),  # strided bounds
        leaf("Box", np.zeros(3, ">f8"), np.ones(3, ">f8"), None, dt),  # big-endian bounds
    ]


@st.composite
def discrete_recipes(draw: Any, valid_only: bool = False) -> tuple:
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
    recipe = leaf("Discrete", n, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            leaf("Discrete", 0),
            leaf("Discrete", -1),
            leaf("Discrete", 2.0),
            leaf("Discrete", np.float64(3.0)),
            leaf("Discrete", "3"),
            leaf("Discrete", None),
            leaf("Discrete", np.array([3])),
            leaf("Discrete", np.array(3)),
            leaf("Discrete", True),
            leaf("Discrete", 3, start=1.5),
            leaf("Discrete", 3, start=None),
            leaf("Discrete", 3, dtype="float32"),
            leaf("Discrete", 3, dtype=None),
            leaf("Discrete", 3, dtype="bool"),
            leaf("Discrete", 300, dtype="int8"),
            leaf("Discrete", 3, start=-1, dtype="uint8"),
            leaf("Discrete", 2**64, dtype="uint64"),
            leaf("Discrete", 2**70),
            leaf("Discrete", 3, start=2**63),
            leaf("Discrete", 10**12),  # huge but cheap
        ]))
    return recipe


@st.composite
def multi_binary_recipes(draw: Any, valid_only: bool = False) -> tuple:
    form = draw(st.sampled_from(["int", "tuple", "list", "array"]))
    if form == "int":
        n: Any = draw(st.integers(1, 70))
    else:
        dims = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
        n = tuple(dims) if form == "tuple" else list(dims) if form == "list" else np.array(dims)
    recipe = leaf("MultiBinary", n)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            leaf("MultiBinary", 0),
            leaf("MultiBinary", -2),
            leaf("MultiBinary", (2, 0)),
            leaf("MultiBinary", (2, -1)),
            leaf("MultiBinary", np.int64(3)),  # rejected by Gymnasium (documented quirk)
            leaf("MultiBinary", 2.0),
            leaf("MultiBinary", "3"),
            leaf("MultiBinary", None),
            leaf("MultiBinary", ()),
            leaf("MultiBinary", [2.5, 2]),
            leaf("MultiBinary", np.array([[2, 3]])),
        ]))
    return recipe


def _nested(values: list, shape: tuple) -> Any:
    return np.array(values, dtype=np.int64).reshape(shape).tolist()


@st.composite
def multi_discrete_recipes(draw: Any, valid_only: bool = False) -> tuple:
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
    recipe = leaf("MultiDiscrete", nv, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            leaf("MultiDiscrete", [3, 0]),
            leaf("MultiDiscrete", [3, -1]),
            leaf("MultiDiscrete", [[3, 2], [1]]),  # ragged
            leaf("MultiDiscrete", [3, 2], start=[0]),
            leaf("MultiDiscrete", [3, 2], dtype="float32"),
            leaf("MultiDiscrete", [3, 2], dtype=None),
            leaf("MultiDiscrete", [3, 2], dtype="bool"),
            leaf("MultiDiscrete", [3.5, 2]),
            leaf("MultiDiscrete", "abc"),
            leaf("MultiDiscrete", None),
            leaf("MultiDiscrete", [300, 2], dtype="int8"),
            leaf("MultiDiscrete", [3, 2], start=[-1, 0], dtype="uint8"),
            leaf("MultiDiscrete", np.array([[3, 2], [4, 5]]).T),  # Fortran-ordered nvec
            leaf("MultiDiscrete", np.array([3, 9, 2, 9])[::2]),  # strided nvec
            leaf("MultiDiscrete", np.array([3, 2], ">i4"), dtype=">i4"),
        ]))
    return recipe


CHARSETS = ["abc", "xy01", "z", "αβγ", "abca", "", frozenset("qrs"), ["m", "n", "m"], "😀中"]


@st.composite
def text_recipes(draw: Any, valid_only: bool = False) -> tuple:
    max_length = draw(st.integers(0, 8))
    kwargs: dict[str, Any] = {}
    if draw(st.booleans()):
        kwargs["min_length"] = draw(st.integers(0, max_length))
    charset = draw(st.sampled_from(CHARSETS))
    if charset == "" and kwargs.get("min_length", 1) != 0:
        charset = "abc"
    if charset != "abc" or draw(st.booleans()):
        kwargs["charset"] = charset
    recipe = leaf("Text", max_length, **kwargs)
    if not valid_only and draw(st.integers(0, 4)) == 0:
        recipe = draw(st.sampled_from([
            leaf("Text", -1),
            leaf("Text", 3, min_length=4),
            leaf("Text", 3, min_length=-1),
            leaf("Text", 3.0),
            leaf("Text", np.int8(3)),
            leaf("Text", 3, min_length=2.0),
            leaf("Text", "3"),
            leaf("Text", None),
            leaf("Text", 3, charset=""),
            leaf("Text", 3, charset=123),
            leaf("Text", 3, charset=None),
            leaf("Text", 3, charset=["ab", "c"]),
            leaf("Text", 2**70),  # sample(): numpy's int64 bound error, no allocation
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


# --------------------------------------------------------------------------- composite recipes

_KEYS = st.sampled_from(["a", "b", "c", "pos", "vel", "z"])


@st.composite
def small_leaves(draw: Any) -> tuple:
    """Valid leaves kept small (composites multiply their cost)."""
    recipe = draw(leaf_recipes(valid_only=True))
    if recipe[1] == "Box":
        shape = _leaf_shape(recipe)
        if shape is not None and math.prod(shape) > 6:
            return leaf("Box", 0, 1, (2,), "float32")
    return recipe


def _leaf_shape(recipe: tuple) -> tuple | None:
    args, kwargs = recipe[2], dict(recipe[3])
    if len(args) >= 3:
        return args[2]
    return np.shape(args[0])


def _graph_features() -> st.SearchStrategy:
    """Node/edge spaces: a leaf, or a Tuple/Dict of one or two leaves (as in practice)."""
    return st.one_of(
        small_leaves(),
        st.lists(small_leaves(), min_size=1, max_size=2).map(lambda kids: ("Tuple", tuple(kids))),
        st.lists(st.tuples(_KEYS, small_leaves()), min_size=1, max_size=2, unique_by=lambda p: p[0])
        .map(lambda pairs: ("Dict", tuple(pairs), True)),
    )


def composite_recipes(depth: int = 3) -> st.SearchStrategy:
    """Trees of Tuple/Dict/Sequence/OneOf (and Graphs of leaves or Tuple/Dict of leaves)
    with up to ``depth`` composite levels.

    Graph features stay shallow: a Graph draws ten node samples and up to ninety
    edge samples, so Graphs or Sequences below a Graph make samples explode.
    """
    graphs = st.tuples(_graph_features(), st.one_of(st.none(), _graph_features())).map(
        lambda a: ("Graph", a[0], a[1]))
    inner = st.one_of(small_leaves(), graphs)
    for _ in range(depth - 1):
        child = st.one_of(small_leaves(), inner)
        inner = st.one_of(
            st.lists(child, max_size=3).map(lambda kids: ("Tuple", tuple(kids))),
            st.tuples(st.lists(st.tuples(_KEYS, child), max_size=3, unique_by=lambda p: p[0]), st.booleans())
            .map(lambda a: ("Dict", tuple(a[0]), a[1])),
            st.tuples(child, st.booleans()).map(lambda a: ("Sequence", a[0], a[1])),
            st.lists(child, min_size=1, max_size=3).map(lambda kids: ("OneOf", tuple(kids))),
            graphs,
        )
    return inner


# --------------------------------------------------------------------------- leaf corruption

ARRAY_OPS = [
    "same", "list", "tuple", "scalar", "none", "str",
    "dtype:int8", "dtype:int32", "dtype:int64", "dtype:uint8", "dtype:bool", "dtype:float32",
    "dtype:float64", "dtype:float16", "dtype:object",
    "short", "long", "empty", "0d", "2d", "flat",
    "value:2", "value:-1", "value:nan", "value:inf", "value:-inf", "value:0.5", "value:big",
    "zeros", "ones",
    "strided", "readonly", "bigendian", "fortran",
]
# For masks of spaces holding a Sequence: a "big" length would be honoured (2**40 draws).
BOUNDED_OPS = [op for op in ARRAY_OPS if op != "value:big"]
# Copies that keep the value: a correct implementation must treat them like the original.
LAYOUT_OPS = ["same", "strided", "readonly", "bigendian", "fortran"]


def corrupt_array(a: Any, op: str, rng: np.random.Generator) -> Any:
    """``a`` (an array or numpy scalar) changed by ``op``; the input is never modified."""
    arr = np.array(a)  # a copy
    if arr.dtype.kind not in "biufc" and (op.startswith("dtype:") or op.startswith("value:")):
        return arr  # strings etc.: no numeric edit applies
    if op == "same":
        return arr if isinstance(a, np.ndarray) else a
    if op == "list":
        return arr.tolist()
    if op == "tuple":
        return tuple(arr.ravel().tolist())
    if op == "scalar":
        return arr.ravel()[0].item() if arr.size else 1
    if op == "none":
        return None
    if op == "str":
        return "01"
    if op.startswith("dtype:"):
        with np.errstate(all="ignore"):
            return arr.astype(op[6:])
    if op == "short":
        return arr.reshape(-1)[:-1] if arr.size else arr.reshape(-1)
    if op == "long":
        flat = arr.reshape(-1)
        return np.concatenate([flat, flat[:1] if flat.size else np.zeros(1, arr.dtype)])
    if op == "empty":
        return arr.reshape(-1)[:0]
    if op == "0d":
        return np.array(arr.reshape(-1)[0] if arr.size else 0, dtype=arr.dtype)
    if op == "2d":
        return arr[None, ...]
    if op == "flat":
        return arr.reshape(-1)
    if op.startswith("value:"):
        if arr.size == 0:
            return arr
        value = {"2": 2, "-1": -1, "nan": nan, "inf": inf, "-inf": -inf, "0.5": 0.5, "big": 2**40}[op[6:]]
        if isinstance(value, float) and arr.dtype.kind not in "f":
            arr = arr.astype(np.float64)
        elif arr.dtype.kind in "iub" and not np.can_cast(np.min_scalar_type(value), arr.dtype):
            arr = arr.astype(np.float64 if isinstance(value, float) else np.int64)
        index = tuple(int(rng.integers(d)) for d in arr.shape)
        with np.errstate(all="ignore"):  # 2**40 overflows float16 to inf: fine
            arr[index] = value
        return arr if isinstance(a, np.ndarray) else arr[()]
    if op == "zeros":
        return np.zeros_like(arr)
    if op == "ones":
        return np.ones_like(arr)
    if op == "strided":
        if arr.ndim == 0:
            return arr
        doubled = np.stack([arr, arr], axis=-1)
        return doubled[..., 0]
    if op == "readonly":
        arr.flags.writeable = False
        return arr
    if op == "bigendian":
        if arr.dtype.kind in "biufc" and arr.dtype.itemsize > 1:
            return arr.astype(arr.dtype.newbyteorder(">"))
        return arr
    if op == "fortran":
        if arr.ndim >= 2:
            return np.asfortranarray(arr)
        return np.asfortranarray(arr.reshape(1, -1)) if arr.ndim == 1 else arr
    raise ValueError(op)


STRUCT_OPS = ["drop", "extra", "as_list", "none_item", "wrong_type", "nested_none"]


def corrupt_structure(value: Any, op: str) -> Any:
    """Break a tuple/dict structure (masks of composite spaces, composite values)."""
    if isinstance(value, dict):
        keys = list(value)
        if op == "drop" and keys:
            return {k: value[k] for k in keys[1:]}
        if op == "extra":
            return {**value, "__extra__": None}
        if op == "as_list":
            return list(value.values())
        if op == "none_item" and keys:
            return {**value, keys[0]: None}
        if op == "wrong_type":
            return tuple(value.values())
        return None
    if isinstance(value, tuple):
        if op == "drop":
            return value[:-1]
        if op == "extra":
            return value + (value[-1] if value else None,)
        if op == "as_list":
            return list(value)
        if op == "none_item" and value:
            return (None,) + value[1:]
        if op == "wrong_type":
            return {str(i): v for i, v in enumerate(value)}
        return None
    return None


# --------------------------------------------------------------------------- valid masks


def _weights(rng: np.random.Generator, n: int) -> np.ndarray:
    w = rng.random(n)
    w[rng.random(n) < 0.3] = 0.0
    if n and not w.any():
        w[rng.integers(n)] = 1.0
    return w / w.sum() if n else w


def leaf_mask(space: Any, rng: np.random.Generator, kind: str) -> Any:
    """A valid mask/probability for a (Gymnasium) fundamental space, or None."""
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
    """A valid mask/probability structure for any (Gymnasium) space."""
    name = type(space).__name__
    if name in ("Tuple", "OneOf"):
        return tuple(valid_mask(child, rng, kind) for child in space.spaces)
    if name == "Dict":
        keys = list(space.spaces)
        order = rng.permutation(len(keys))
        return {keys[i]: valid_mask(space.spaces[keys[i]], rng, kind) for i in order}
    if name == "Sequence":
        choice = rng.integers(4)
        low = 1 if space.stack else 0
        length: Any = None
        if choice == 1:
            length = int(rng.integers(low, 4))
        elif choice == 2:
            length = np.int64(rng.integers(low, 4))
        elif choice == 3:
            length = rng.integers(low, 4, size=int(rng.integers(1, 4)))
        return (length, valid_mask(space.feature_space, rng, kind))
    if name == "Graph":
        node = leaf_mask(space.node_space, rng, kind) if type(space.node_space).__name__ == "Discrete" else None
        node_mask = None if node is None else tuple(leaf_mask(space.node_space, rng, kind) for _ in range(10))
        edge_mask = None
        if space.edge_space is not None and type(space.edge_space).__name__ == "Discrete":
            edge_mask = leaf_mask(space.edge_space, rng, kind)
        return (node_mask, edge_mask)
    return leaf_mask(space, rng, kind)


def leaves(structure: Any, path: tuple = ()) -> list[tuple]:
    """Paths to every array/scalar leaf of a nested tuple/dict structure."""
    if isinstance(structure, dict):
        return [p for k, v in structure.items() for p in leaves(v, path + (k,))]
    if isinstance(structure, tuple) and not hasattr(structure, "_fields"):
        return [p for i, v in enumerate(structure) for p in leaves(v, path + (i,))]
    if hasattr(structure, "_fields"):  # GraphInstance
        return [p for i, v in enumerate(structure) if v is not None for p in leaves(v, path + (i,))]
    return [path]


def containers(structure: Any, path: tuple = ()) -> list[tuple]:
    """Paths to every plain tuple/dict of a nested structure (itself included)."""
    out: list[tuple] = []
    if isinstance(structure, dict):
        out.append(path)
        for k, v in structure.items():
            out += containers(v, path + (k,))
    elif isinstance(structure, tuple):
        if not hasattr(structure, "_fields"):  # a GraphInstance is not corrupted as a whole
            out.append(path)
        for i, v in enumerate(structure):
            out += containers(v, path + (i,))
    return out


def get_at(structure: Any, path: tuple) -> Any:
    for step in path:
        structure = structure[step]
    return structure


def replace_at(structure: Any, path: tuple, new: Any) -> Any:
    """A copy of ``structure`` with the item at ``path`` replaced (GraphInstance kept)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(structure, dict):
        out = dict(structure)
        out[head] = replace_at(structure[head], rest, new)
        return out
    items = list(structure)
    items[head] = replace_at(structure[head], rest, new)
    if hasattr(structure, "_fields"):
        return type(structure)(*items)
    return type(structure)(items)


def corrupt_leaf_value(value: Any, op: str, rng: np.random.Generator) -> Any:
    """``corrupt_array`` for arrays and numpy scalars, text edits for strings."""
    if isinstance(value, str):
        return {
            "same": value,
            "list": list(value),
            "tuple": tuple(value),
            "scalar": 5,
            "none": None,
            "str": value + "\u2603",  # a character outside every charset
            "short": value[:-1],
            "long": value + (value[:1] or "a") * 20,
            "empty": "",
            "dtype:object": np.array(value, dtype=object),
            "0d": np.str_(value),
            "2d": value.encode("utf-8", "surrogatepass"),
        }.get(op, value[::-1])
    if isinstance(value, list):  # jsonable columns: maybe ragged, or lists of dicts
        edits = {"short": value[:-1], "long": value + value[:1], "empty": [], "none": None,
                 "tuple": tuple(value), "same": value}
        if op in edits:
            return edits[op]
        try:
            arr = np.array(value)
        except (ValueError, TypeError):
            return value[::-1]
        return corrupt_array(arr, op, rng) if arr.dtype.kind in "biuf" else value[::-1]
    if value is None or isinstance(value, (int, float)):
        value = np.asarray(value if value is not None else 0)
    if not isinstance(value, (np.ndarray, np.generic)):
        return None  # anything else (e.g. a GraphInstance's None field was skipped)
    return corrupt_array(value, op, rng)


def corrupt(structure: Any, rng: np.random.Generator, ops: list[str] = ARRAY_OPS) -> tuple[Any, str]:
    """``structure`` with one leaf or container broken; returns it and a description."""
    conts = containers(structure)
    paths = leaves(structure)
    if not conts and not paths:
        return None, "none@()"
    if conts and (rng.random() < 0.2 or not paths):
        path = conts[int(rng.integers(len(conts)))]
        op = STRUCT_OPS[int(rng.integers(len(STRUCT_OPS)))]
        return replace_at(structure, path, corrupt_structure(get_at(structure, path), op)), f"{op}@{path}"
    path = paths[int(rng.integers(len(paths)))]
    op = ops[int(rng.integers(len(ops)))]
    target = get_at(structure, path)
    if target is None:
        new = corrupt_array(np.ones(2, np.int8), op, rng) if rng.random() < 0.5 else None
    else:
        new = corrupt_leaf_value(target, op, rng)
    return replace_at(structure, path, new), f"{op}@{path}"
