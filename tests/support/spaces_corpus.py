"""The fixed recipes: representative spaces of every kind, built alike in both libraries.

Each entry is a :class:`~support.recipes.Recipe` named for pytest ids:
fundamental spaces per kind (``BOX_RECIPES``, ..., ``ALL_RECIPES``) and
hand-picked nested spaces (``COMPOSITE_CORPUS``), sampled over many seeds by
the parity tests. :class:`CoinSpace` is a custom space, for a subclass of
either library's ``Space``.

Recipes whose *sampling* raises in Gymnasium (quirks Q8, Q9 in docs/quirks.md) are included on
purpose: parity then means both libraries raise the same exception type after
consuming the same draws.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from support.recipes import Recipe, spec

inf = np.inf

FLOAT_DTYPES = [np.float16, np.float32, np.float64]
SIGNED_DTYPES = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED_DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64]
INT_DTYPES = SIGNED_DTYPES + UNSIGNED_DTYPES


def _name(dtype: Any) -> str:
    return np.dtype(dtype).name


# --------------------------------------------------------------------------- Box
BOX_RECIPES: list[Recipe] = []


def _box(id_: str, recipe: Recipe) -> None:
    BOX_RECIPES.append(recipe.named(f"Box-{id_}"))


for _dt in FLOAT_DTYPES:
    _n = _name(_dt)
    _box(f"{_n}-scalar-bounded-(3,)", spec.Box(-1, 2, (3,), _dt))
    _box(f"{_n}-unbounded-(2,3)", spec.Box(-inf, inf, (2, 3), _dt))
    _box(f"{_n}-below-only-(4,)", spec.Box(0.5, inf, (4,), _dt))
    _box(f"{_n}-above-only-(4,)", spec.Box(-inf, -3.25, (4,), _dt))
    _box(
        f"{_n}-mixed-array-(7,)",
        spec.Box(
            np.array([-inf, -1.0, -inf, 0.0, -2.5, 1.0, -inf], dtype=_dt),
            np.array([inf, inf, 1.0, 5.0, -2.5, inf, 0.0], dtype=_dt),
            dtype=_dt,
            
        ),
    )
    _box(
        f"{_n}-mixed-2d-(2,3)",
        spec.Box(
            np.array([[-inf, 0.0, -1.0], [-inf, -inf, 2.0]], dtype=_dt),
            np.array([[inf, inf, 1.0], [3.0, inf, 2.5]], dtype=_dt),
            dtype=_dt,
            
        ),
    )
    _box(f"{_n}-shape-()", spec.Box(0, 1, (), _dt))
    _box(f"{_n}-inferred-(1,)", spec.Box(-1.5, 1.5, dtype=_dt))
    _box(
        f"{_n}-dtype-extremes-(3,)",
        spec.Box(
            float(np.finfo(_dt).min) / 2, float(np.finfo(_dt).max) / 2, (3,), _dt
        ),
    )

_box("float16-inexact-bounds-(6,)", spec.Box(-0.1, 0.3, (6,), np.float16))
_box(
    "float32-per-coordinate-(2,3)",
    spec.Box(
        np.array([[-1.0, -2.0, 0.0], [5.0, -100.0, 1e-3]], dtype=np.float32),
        np.array([[1.0, 2.0, 1e-6], [6.0, 100.0, 2e-3]], dtype=np.float32),
        
    ),
)
_box(
    "float32-0d-array-bounds",
    spec.Box(np.array(-2.0, np.float32), np.array(3.0, np.float32)),
)
_box("float32-degenerate-(3,)", spec.Box(1.25, 1.25, (3,)))
_box("float32-empty-(0,)", spec.Box(0, 1, (0,)))
_box("float32-empty-(2,0)", spec.Box(-inf, inf, (2, 0)))
_box(
    "float32-full-range",
    spec.Box(
        float(np.finfo(np.float32).min), float(np.finfo(np.float32).max), (4,)
    ),
)
_box("float16-full-range", spec.Box(-65504.0, 65504.0, (5,), np.float16))
_box("float32-(84,84,3)", spec.Box(0, 1, (84, 84, 3), np.float32))
_box("float64-big-endian-(3,)", spec.Box(-1, 1, (3,), ">f8"))
# Quirk Q9 (docs/quirks.md): high - low overflows float64 -> OverflowError on sample.
_box(
    "float64-range-overflow",
    spec.Box(
        float(np.finfo(np.float64).min), float(np.finfo(np.float64).max), (2,), np.float64
    ),
)
# Quirk Q10 (docs/quirks.md): the unbounded coordinate draws before the uniform pass raises.
_box(
    "float64-overflow-after-normal",
    spec.Box(
        np.array([-inf, -1.7e308, 0.0]), np.array([inf, 1.7e308, inf]), dtype=np.float64
    ),
)

for _dt in SIGNED_DTYPES:
    _n = _name(_dt)
    _box(f"{_n}-small-(5,)", spec.Box(-3, 7, (5,), _dt))
    _box(f"{_n}-shape-()", spec.Box(-1, 1, (), _dt))
    _box(f"{_n}-unbounded-(3,)", spec.Box(-inf, inf, (3,), _dt))
    _box(f"{_n}-below-only-(3,)", spec.Box(-2, inf, (3,), _dt))
    _box(f"{_n}-above-only-(3,)", spec.Box(-inf, 5, (3,), _dt))
    if _dt is not np.int64:
        # (For int64 the replaced +inf, 2**63-1 in float64, wraps on the cast: not constructible.)
        _box(
            f"{_n}-mixed-inf-array-(4,)",
            spec.Box(
                np.array([-inf, 0.0, -inf, 5.0]), np.array([inf, inf, 3.0, 9.0]), dtype=_dt
            ),
        )
    _box(f"{_n}-degenerate-(2,)", spec.Box(3, 3, (2,), _dt))
    if _dt is not np.int64:
        _box(
            f"{_n}-dtype-extremes-(4,)",
            spec.Box(
                int(np.iinfo(_dt).min), int(np.iinfo(_dt).max), (4,), _dt
            ),
        )

for _dt in UNSIGNED_DTYPES:
    _n = _name(_dt)
    _box(f"{_n}-small-(5,)", spec.Box(0, 9, (5,), _dt))
    _box(f"{_n}-shape-()", spec.Box(0, 4, (), _dt))
    _box(
        f"{_n}-array-(2,2)",
        spec.Box(
            np.array([[0, 5], [10, 1]], dtype=_dt), np.array([[3, 5], [20, 100]], dtype=_dt)
        ),
    )
    if _dt is not np.uint64:
        _box(
            f"{_n}-dtype-extremes-(4,)",
            spec.Box(0, int(np.iinfo(_dt).max), (4,), _dt),
        )

_i64 = np.iinfo(np.int64)
_box("uint8-(84,84,3)", spec.Box(0, 255, (84, 84, 3), np.uint8))
_box("int64-near-extremes", spec.Box(int(_i64.min), int(_i64.max) - 1, (4,), np.int64))
_box("int64-huge-positive", spec.Box(2**62, 2**63 - 10, (4,), np.int64))
_box("int64-huge-negative", spec.Box(int(_i64.min), -(2**62), (4,), np.int64))
# Quirk Q8 (docs/quirks.md): high + 1 wraps in int64 -> "high - low < 0" on sample.
_box("int64-max-high", spec.Box(0, int(_i64.max), (2,), np.int64))
_box("int64-full-range", spec.Box(int(_i64.min), int(_i64.max), (2,), np.int64))
_box("uint64-below-2**63", spec.Box(0, 2**63 - 2, (3,), np.uint64))
_box("uint64-at-2**63", spec.Box(0, 2**63, (3,), np.uint64))
_box("uint64-above-2**63", spec.Box(2**63 + 5, 2**64 - 100, (3,), np.uint64))
_box("uint64-max", spec.Box(0, 2**64 - 1, (3,), np.uint64))
_box("uint32-huge", spec.Box(2**31, 2**32 - 1, (3,), np.uint32))
_box("bool-(4,)", spec.Box(0, 1, (4,), np.bool_))
_box(
    "bool-array-(2,3)",
    spec.Box(
        np.array([[False, True, False], [False, False, True]]),
        np.array([[True, True, False], [True, False, True]]),
        dtype=np.bool_,
        
    ),
)
_box("bool-shape-()", spec.Box(0, 1, (), np.bool_))
_box("int32-from-float-bounds", spec.Box(-2.7, 3.9, (4,), np.int32))


# ---------------------------------------------------------------------- Discrete
DISCRETE_RECIPES: list[Recipe] = []


def _discrete(id_: str, recipe: Recipe) -> None:
    DISCRETE_RECIPES.append(recipe.named(f"Discrete-{id_}"))


for _n_value in [1, 2, 3, 10, 1000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 5, 2**63 - 1]:
    _discrete(f"n={_n_value}", spec.Discrete(_n_value))
_discrete("n=2**64-1-uint64", spec.Discrete(2**64 - 1, dtype=np.uint64))
_discrete("n=2**32-uint64", spec.Discrete(2**32, dtype=np.uint64))
_discrete("start=-2", spec.Discrete(5, start=-2))
_discrete("start=100", spec.Discrete(7, start=100))
_discrete("start=-2**40", spec.Discrete(3, start=-(2**40)))
_discrete("np.int64-n", spec.Discrete(np.int64(6), start=np.int32(1)))
for _dt in INT_DTYPES:
    _n = _name(_dt)
    _discrete(f"{_n}-n=1", spec.Discrete(1, dtype=_dt))
    _discrete(f"{_n}-n=2", spec.Discrete(2, dtype=_dt))
    _discrete(f"{_n}-n=10", spec.Discrete(10, dtype=_dt))
    _discrete(f"{_n}-n=100-start=3", spec.Discrete(100, start=3, dtype=_dt))
    _discrete(
        f"{_n}-n=max",
        spec.Discrete(int(np.iinfo(_dt).max), dtype=_dt),
    )
    if np.dtype(_dt).kind == "i":
        _discrete(f"{_n}-start=-5", spec.Discrete(9, start=-5, dtype=_dt))
_discrete("int32-big-endian", spec.Discrete(5, start=1, dtype=">i4"))
# Quirk Q15 (docs/quirks.md): start + n - 1 overflows the dtype -> samples wrap with a RuntimeWarning.
_discrete("int8-overflowing-start", spec.Discrete(100, start=100, dtype=np.int8))
_discrete("uint8-overflowing-start", spec.Discrete(200, start=200, dtype=np.uint8))
_discrete(
    "int64-overflowing-start",
    spec.Discrete(2**62, start=2**62 + 2**61, dtype=np.int64),
)


# ------------------------------------------------------------------- MultiBinary
MULTI_BINARY_RECIPES: list[Recipe] = []
for _n_value in [1, 3, 4, 5, 8, 13, 64, 1001, (2, 3), (3, 2, 2), [5], np.array([2, 5]), (1,)]:
    MULTI_BINARY_RECIPES.append(
        spec.MultiBinary(_n_value).named(f"MultiBinary-{np.asarray(_n_value).tolist()}-{type(_n_value).__name__}")
    )


# ----------------------------------------------------------------- MultiDiscrete
MULTI_DISCRETE_RECIPES: list[Recipe] = []


def _multi_discrete(id_: str, recipe: Recipe) -> None:
    MULTI_DISCRETE_RECIPES.append(recipe.named(f"MultiDiscrete-{id_}"))


_multi_discrete("[5,2,7]", spec.MultiDiscrete([5, 2, 7]))
_multi_discrete("[1,1,1]", spec.MultiDiscrete([1, 1, 1]))
_multi_discrete("0d-5", spec.MultiDiscrete(5))
_multi_discrete("0d-array-7-start", spec.MultiDiscrete(np.array(7), start=np.array(-3)))
_multi_discrete("2d", spec.MultiDiscrete([[1, 2], [3, 4]]))
_multi_discrete(
    "3d-start",
    spec.MultiDiscrete(
        np.arange(1, 13).reshape(2, 3, 2), start=np.arange(12).reshape(2, 3, 2) - 6
    ),
)
_multi_discrete("huge-nvec", spec.MultiDiscrete([2**40, 3, 2**62]))
_multi_discrete("start-offsets", spec.MultiDiscrete([4, 6], start=[-10, 10]))
_multi_discrete("empty", spec.MultiDiscrete(np.zeros((0,), dtype=np.int64)))
_multi_discrete("big-endian", spec.MultiDiscrete([3, 4], dtype=">i4", start=[1, 2]))
for _dt in INT_DTYPES:
    _n = _name(_dt)
    _multi_discrete(f"{_n}-[3,5,2]", spec.MultiDiscrete([3, 5, 2], dtype=_dt))
    _multi_discrete(
        f"{_n}-start-2d",
        spec.MultiDiscrete([[2, 3], [4, 5]], dtype=_dt, start=[[1, 0], [7, 2]]),
    )
    _multi_discrete(
        f"{_n}-dtype-max",
        spec.MultiDiscrete([int(np.iinfo(_dt).max), 2], dtype=_dt),
    )
# Arrays wrap silently on overflow (no warning, unlike Discrete scalars).
_multi_discrete("uint8-wrapping-start", spec.MultiDiscrete([10, 3], dtype=np.uint8, start=[250, 0]))
_multi_discrete("int8-wrapping-start", spec.MultiDiscrete([100], dtype=np.int8, start=[100]))


# -------------------------------------------------------------------------- Text
TEXT_RECIPES: list[Recipe] = []


def _text(id_: str, recipe: Recipe) -> None:
    TEXT_RECIPES.append(recipe.named(f"Text-{id_}"))


_text("default-5", spec.Text(5))
_text("abc", spec.Text(5, charset="abc"))
_text("min0", spec.Text(10, min_length=0, charset="xyz"))
_text("fixed-length-set", spec.Text(3, min_length=3, charset={"d", "a", "c", "b"}))
_text("frozenset-digits", spec.Text(20, min_length=2, charset=frozenset("9876543210")))
_text("list-with-duplicates", spec.Text(6, charset=["q", "r", "s", "q", "r"]))
_text("unicode", spec.Text(8, charset="αβγ😀中\u0301"))
_text("single-char", spec.Text(4, charset="z"))
_text("empty-charset-min0", spec.Text(4, min_length=0, charset=""))
_text("max0", spec.Text(0, min_length=0, charset="ab"))
_text("long", spec.Text(1000, min_length=900, charset="ab"))
_text("np-int-lengths", spec.Text(np.int64(7), min_length=np.int32(2), charset="hello"))
_text("lone-surrogates", spec.Text(6, charset="\ud800a\udfff"))
_text("many-chars", spec.Text(12, charset="".join(chr(c) for c in range(0x400, 0x4C8))))


ALL_RECIPES: list[Recipe] = (
    BOX_RECIPES + DISCRETE_RECIPES + MULTI_BINARY_RECIPES + MULTI_DISCRETE_RECIPES + TEXT_RECIPES
)

RECIPES_BY_KIND: dict[str, list[Recipe]] = {
    "Box": BOX_RECIPES,
    "Discrete": DISCRETE_RECIPES,
    "MultiBinary": MULTI_BINARY_RECIPES,
    "MultiDiscrete": MULTI_DISCRETE_RECIPES,
    "Text": TEXT_RECIPES,
}



# ----------------------------------------------------------------------- composites
_BOX3 = spec.Box(0.0, 1.0, (3,), "float32")
_BOX_UNB = spec.Box(-inf, inf, (2,), "float64")
_D3 = spec.Discrete(3, start=0)
_D2S = spec.Discrete(2, start=-1)
_MD = spec.MultiDiscrete([3, 4])
_MB = spec.MultiBinary(3)
_TEXT = spec.Text(4, min_length=1, charset="abc")

# Hand-picked nested spaces, sampled over many seeds by test_composite_parity.
COMPOSITE_CORPUS: dict[str, Recipe] = {
    "Dict(Tuple(Sequence(Box)))": spec.Dict(
        {"obs": spec.Tuple([spec.Sequence(_BOX3, stack=False), _D3]), "act": _MD}, sort_keys=True
    ),
    "Dict-unsorted": spec.Dict({"z": _D3, "a": _BOX_UNB, "m": _MB}, sort_keys=False),
    "Tuple(Text,MultiBinary,Box)": spec.Tuple([_TEXT, _MB, _BOX_UNB]),
    "Sequence(Dict)-stack": spec.Sequence(spec.Dict({"b": _BOX3, "a": _D2S}, sort_keys=True), stack=True),
    "Sequence(Sequence(Discrete))": spec.Sequence(spec.Sequence(_D3, stack=False), stack=False),
    "Sequence(Discrete)-stack": spec.Sequence(_D2S, stack=True),
    "Graph(Discrete,Discrete)": spec.Graph(_D3, spec.Discrete(2, start=0)),
    "Graph(Box,None)": spec.Graph(_BOX3, None),
    "Graph(Box-unbounded,MultiBinary)": spec.Graph(_BOX_UNB, _MB),
    "Graph(Box-int-inf,Discrete)": spec.Graph(spec.Box(-inf, inf, (2,), "int32"), _D2S),
    "Graph(Dict,Box)": spec.Graph(spec.Dict({"f": _BOX3, "k": _D3}, sort_keys=True), _BOX_UNB),
    "Graph(Tuple,MultiDiscrete)": spec.Graph(spec.Tuple([_D2S, _MB]), _MD),
    "Graph(MultiDiscrete,Box-float16)": spec.Graph(_MD, spec.Box(-2.0, 2.0, (2,), "float16")),
    "OneOf(Tuple,Dict,Sequence,Graph)": spec.OneOf([
        spec.Tuple([_D3, _BOX3]),
        spec.Dict({"x": _MB}, sort_keys=True),
        spec.Sequence(_D3, stack=True),
        spec.Graph(_D3, _D3),
    ]),
    "OneOf(single)": spec.OneOf([_D3]),
    "Tuple(Graph,OneOf)": spec.Tuple([spec.Graph(_BOX3, _D3), spec.OneOf([_TEXT, _MD])]),
    "Tuple()": spec.Tuple([]),
    "Dict()": spec.Dict({}, sort_keys=True),
}
COMPOSITE_CORPUS = {name: recipe.named(name) for name, recipe in COMPOSITE_CORPUS.items()}


# --------------------------------------------------------------------------- a custom space


class CoinSpace:
    """A custom space of ``0`` and ``1`` (a fair coin), written in Python. Put it before
    either library's ``Space`` in a subclass's bases: ``class Coin(CoinSpace, gymspaces.Space)``."""

    def __init__(self, seed: Any = None) -> None:
        super().__init__((), np.int64, seed)

    def sample(self, mask: Any = None, probability: Any = None) -> int:
        return int(self.np_random.integers(2))

    def contains(self, x: Any) -> bool:
        return x in (0, 1)
