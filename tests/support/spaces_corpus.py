"""Representative space constructions, usable with either library.

Every recipe is ``build(lib, **kwargs)`` where ``lib`` is the ``gymspaces``
module or ``gymnasium.spaces`` and ``kwargs`` are extra constructor keywords
(typically ``seed=``). ``build(lib)`` alone is the plain ``lambda lib: ...``
form. Bounds are created inside the lambda, so every call gets fresh arrays
(signed-int Boxes overwrite infinities in the caller's arrays).

Recipes whose *sampling* raises in Gymnasium (quirks Q8, Q9) are included on
purpose: parity then means both libraries raise the same exception type after
consuming the same draws.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

inf = np.inf

FLOAT_DTYPES = [np.float16, np.float32, np.float64]
SIGNED_DTYPES = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED_DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64]
INT_DTYPES = SIGNED_DTYPES + UNSIGNED_DTYPES


class Recipe(NamedTuple):
    id: str
    build: Callable[..., Any]
    kind: str

    def __repr__(self) -> str:
        return self.id


def _name(dtype: Any) -> str:
    return np.dtype(dtype).name


# --------------------------------------------------------------------------- Box
BOX_RECIPES: list[Recipe] = []


def _box(id_: str, build: Callable[..., Any]) -> None:
    BOX_RECIPES.append(Recipe(f"Box-{id_}", build, "Box"))


for _dt in FLOAT_DTYPES:
    _n = _name(_dt)
    _box(f"{_n}-scalar-bounded-(3,)", lambda lib, dt=_dt, **kw: lib.Box(-1, 2, (3,), dt, **kw))
    _box(f"{_n}-unbounded-(2,3)", lambda lib, dt=_dt, **kw: lib.Box(-inf, inf, (2, 3), dt, **kw))
    _box(f"{_n}-below-only-(4,)", lambda lib, dt=_dt, **kw: lib.Box(0.5, inf, (4,), dt, **kw))
    _box(f"{_n}-above-only-(4,)", lambda lib, dt=_dt, **kw: lib.Box(-inf, -3.25, (4,), dt, **kw))
    _box(
        f"{_n}-mixed-array-(7,)",
        lambda lib, dt=_dt, **kw: lib.Box(
            np.array([-inf, -1.0, -inf, 0.0, -2.5, 1.0, -inf], dtype=dt),
            np.array([inf, inf, 1.0, 5.0, -2.5, inf, 0.0], dtype=dt),
            dtype=dt,
            **kw,
        ),
    )
    _box(
        f"{_n}-mixed-2d-(2,3)",
        lambda lib, dt=_dt, **kw: lib.Box(
            np.array([[-inf, 0.0, -1.0], [-inf, -inf, 2.0]], dtype=dt),
            np.array([[inf, inf, 1.0], [3.0, inf, 2.5]], dtype=dt),
            dtype=dt,
            **kw,
        ),
    )
    _box(f"{_n}-shape-()", lambda lib, dt=_dt, **kw: lib.Box(0, 1, (), dt, **kw))
    _box(f"{_n}-inferred-(1,)", lambda lib, dt=_dt, **kw: lib.Box(-1.5, 1.5, dtype=dt, **kw))
    _box(
        f"{_n}-dtype-extremes-(3,)",
        lambda lib, dt=_dt, **kw: lib.Box(
            float(np.finfo(dt).min) / 2, float(np.finfo(dt).max) / 2, (3,), dt, **kw
        ),
    )

_box("float16-inexact-bounds-(6,)", lambda lib, **kw: lib.Box(-0.1, 0.3, (6,), np.float16, **kw))
_box(
    "float32-per-coordinate-(2,3)",
    lambda lib, **kw: lib.Box(
        np.array([[-1.0, -2.0, 0.0], [5.0, -100.0, 1e-3]], dtype=np.float32),
        np.array([[1.0, 2.0, 1e-6], [6.0, 100.0, 2e-3]], dtype=np.float32),
        **kw,
    ),
)
_box(
    "float32-0d-array-bounds",
    lambda lib, **kw: lib.Box(np.array(-2.0, np.float32), np.array(3.0, np.float32), **kw),
)
_box("float32-degenerate-(3,)", lambda lib, **kw: lib.Box(1.25, 1.25, (3,), **kw))
_box("float32-empty-(0,)", lambda lib, **kw: lib.Box(0, 1, (0,), **kw))
_box("float32-empty-(2,0)", lambda lib, **kw: lib.Box(-inf, inf, (2, 0), **kw))
_box(
    "float32-full-range",
    lambda lib, **kw: lib.Box(
        float(np.finfo(np.float32).min), float(np.finfo(np.float32).max), (4,), **kw
    ),
)
_box("float16-full-range", lambda lib, **kw: lib.Box(-65504.0, 65504.0, (5,), np.float16, **kw))
_box("float32-(84,84,3)", lambda lib, **kw: lib.Box(0, 1, (84, 84, 3), np.float32, **kw))
_box("float64-big-endian-(3,)", lambda lib, **kw: lib.Box(-1, 1, (3,), ">f8", **kw))
# Q9: high - low overflows float64 -> OverflowError on sample.
_box(
    "float64-range-overflow",
    lambda lib, **kw: lib.Box(
        float(np.finfo(np.float64).min), float(np.finfo(np.float64).max), (2,), np.float64, **kw
    ),
)
# Q10: the unbounded coordinate draws before the uniform pass raises.
_box(
    "float64-overflow-after-normal",
    lambda lib, **kw: lib.Box(
        np.array([-inf, -1.7e308, 0.0]), np.array([inf, 1.7e308, inf]), dtype=np.float64, **kw
    ),
)

for _dt in SIGNED_DTYPES:
    _n = _name(_dt)
    _box(f"{_n}-small-(5,)", lambda lib, dt=_dt, **kw: lib.Box(-3, 7, (5,), dt, **kw))
    _box(f"{_n}-shape-()", lambda lib, dt=_dt, **kw: lib.Box(-1, 1, (), dt, **kw))
    _box(f"{_n}-unbounded-(3,)", lambda lib, dt=_dt, **kw: lib.Box(-inf, inf, (3,), dt, **kw))
    _box(f"{_n}-below-only-(3,)", lambda lib, dt=_dt, **kw: lib.Box(-2, inf, (3,), dt, **kw))
    _box(f"{_n}-above-only-(3,)", lambda lib, dt=_dt, **kw: lib.Box(-inf, 5, (3,), dt, **kw))
    if _dt is not np.int64:
        # (For int64 the replaced +inf, 2**63-1 in float64, wraps on the cast: not constructible.)
        _box(
            f"{_n}-mixed-inf-array-(4,)",
            lambda lib, dt=_dt, **kw: lib.Box(
                np.array([-inf, 0.0, -inf, 5.0]), np.array([inf, inf, 3.0, 9.0]), dtype=dt, **kw
            ),
        )
    _box(f"{_n}-degenerate-(2,)", lambda lib, dt=_dt, **kw: lib.Box(3, 3, (2,), dt, **kw))
    if _dt is not np.int64:
        _box(
            f"{_n}-dtype-extremes-(4,)",
            lambda lib, dt=_dt, **kw: lib.Box(
                int(np.iinfo(dt).min), int(np.iinfo(dt).max), (4,), dt, **kw
            ),
        )

for _dt in UNSIGNED_DTYPES:
    _n = _name(_dt)
    _box(f"{_n}-small-(5,)", lambda lib, dt=_dt, **kw: lib.Box(0, 9, (5,), dt, **kw))
    _box(f"{_n}-shape-()", lambda lib, dt=_dt, **kw: lib.Box(0, 4, (), dt, **kw))
    _box(
        f"{_n}-array-(2,2)",
        lambda lib, dt=_dt, **kw: lib.Box(
            np.array([[0, 5], [10, 1]], dtype=dt), np.array([[3, 5], [20, 100]], dtype=dt), **kw
        ),
    )
    if _dt is not np.uint64:
        _box(
            f"{_n}-dtype-extremes-(4,)",
            lambda lib, dt=_dt, **kw: lib.Box(0, int(np.iinfo(dt).max), (4,), dt, **kw),
        )

_i64 = np.iinfo(np.int64)
_box("uint8-(84,84,3)", lambda lib, **kw: lib.Box(0, 255, (84, 84, 3), np.uint8, **kw))
_box("int64-near-extremes", lambda lib, **kw: lib.Box(int(_i64.min), int(_i64.max) - 1, (4,), np.int64, **kw))
_box("int64-huge-positive", lambda lib, **kw: lib.Box(2**62, 2**63 - 10, (4,), np.int64, **kw))
_box("int64-huge-negative", lambda lib, **kw: lib.Box(int(_i64.min), -(2**62), (4,), np.int64, **kw))
# Q8: high + 1 wraps in int64 -> "high - low < 0" on sample.
_box("int64-max-high", lambda lib, **kw: lib.Box(0, int(_i64.max), (2,), np.int64, **kw))
_box("int64-full-range", lambda lib, **kw: lib.Box(int(_i64.min), int(_i64.max), (2,), np.int64, **kw))
_box("uint64-below-2**63", lambda lib, **kw: lib.Box(0, 2**63 - 2, (3,), np.uint64, **kw))
_box("uint64-at-2**63", lambda lib, **kw: lib.Box(0, 2**63, (3,), np.uint64, **kw))
_box("uint64-above-2**63", lambda lib, **kw: lib.Box(2**63 + 5, 2**64 - 100, (3,), np.uint64, **kw))
_box("uint64-max", lambda lib, **kw: lib.Box(0, 2**64 - 1, (3,), np.uint64, **kw))
_box("uint32-huge", lambda lib, **kw: lib.Box(2**31, 2**32 - 1, (3,), np.uint32, **kw))
_box("bool-(4,)", lambda lib, **kw: lib.Box(0, 1, (4,), np.bool_, **kw))
_box(
    "bool-array-(2,3)",
    lambda lib, **kw: lib.Box(
        np.array([[False, True, False], [False, False, True]]),
        np.array([[True, True, False], [True, False, True]]),
        dtype=np.bool_,
        **kw,
    ),
)
_box("bool-shape-()", lambda lib, **kw: lib.Box(0, 1, (), np.bool_, **kw))
_box("int32-from-float-bounds", lambda lib, **kw: lib.Box(-2.7, 3.9, (4,), np.int32, **kw))


# ---------------------------------------------------------------------- Discrete
DISCRETE_RECIPES: list[Recipe] = []


def _discrete(id_: str, build: Callable[..., Any]) -> None:
    DISCRETE_RECIPES.append(Recipe(f"Discrete-{id_}", build, "Discrete"))


for _n_value in [1, 2, 3, 10, 1000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 5, 2**63 - 1]:
    _discrete(f"n={_n_value}", lambda lib, n=_n_value, **kw: lib.Discrete(n, **kw))
_discrete("n=2**64-1-uint64", lambda lib, **kw: lib.Discrete(2**64 - 1, dtype=np.uint64, **kw))
_discrete("n=2**32-uint64", lambda lib, **kw: lib.Discrete(2**32, dtype=np.uint64, **kw))
_discrete("start=-2", lambda lib, **kw: lib.Discrete(5, start=-2, **kw))
_discrete("start=100", lambda lib, **kw: lib.Discrete(7, start=100, **kw))
_discrete("start=-2**40", lambda lib, **kw: lib.Discrete(3, start=-(2**40), **kw))
_discrete("np.int64-n", lambda lib, **kw: lib.Discrete(np.int64(6), start=np.int32(1), **kw))
for _dt in INT_DTYPES:
    _n = _name(_dt)
    _discrete(f"{_n}-n=1", lambda lib, dt=_dt, **kw: lib.Discrete(1, dtype=dt, **kw))
    _discrete(f"{_n}-n=2", lambda lib, dt=_dt, **kw: lib.Discrete(2, dtype=dt, **kw))
    _discrete(f"{_n}-n=10", lambda lib, dt=_dt, **kw: lib.Discrete(10, dtype=dt, **kw))
    _discrete(f"{_n}-n=100-start=3", lambda lib, dt=_dt, **kw: lib.Discrete(100, start=3, dtype=dt, **kw))
    _discrete(
        f"{_n}-n=max",
        lambda lib, dt=_dt, **kw: lib.Discrete(int(np.iinfo(dt).max), dtype=dt, **kw),
    )
    if np.dtype(_dt).kind == "i":
        _discrete(f"{_n}-start=-5", lambda lib, dt=_dt, **kw: lib.Discrete(9, start=-5, dtype=dt, **kw))
_discrete("int32-big-endian", lambda lib, **kw: lib.Discrete(5, start=1, dtype=">i4", **kw))
# Q15: start + n - 1 overflows the dtype -> samples wrap with a RuntimeWarning.
_discrete("int8-overflowing-start", lambda lib, **kw: lib.Discrete(100, start=100, dtype=np.int8, **kw))
_discrete("uint8-overflowing-start", lambda lib, **kw: lib.Discrete(200, start=200, dtype=np.uint8, **kw))
_discrete(
    "int64-overflowing-start",
    lambda lib, **kw: lib.Discrete(2**62, start=2**62 + 2**61, dtype=np.int64, **kw),
)


# ------------------------------------------------------------------- MultiBinary
MULTI_BINARY_RECIPES: list[Recipe] = []
for _n_value in [1, 3, 4, 5, 8, 13, 64, 1001, (2, 3), (3, 2, 2), [5], np.array([2, 5]), (1,)]:
    MULTI_BINARY_RECIPES.append(
        Recipe(
            f"MultiBinary-{np.asarray(_n_value).tolist()}-{type(_n_value).__name__}",
            lambda lib, n=_n_value, **kw: lib.MultiBinary(n, **kw),
            "MultiBinary",
        )
    )


# ----------------------------------------------------------------- MultiDiscrete
MULTI_DISCRETE_RECIPES: list[Recipe] = []


def _multi_discrete(id_: str, build: Callable[..., Any]) -> None:
    MULTI_DISCRETE_RECIPES.append(Recipe(f"MultiDiscrete-{id_}", build, "MultiDiscrete"))


_multi_discrete("[5,2,7]", lambda lib, **kw: lib.MultiDiscrete([5, 2, 7], **kw))
_multi_discrete("[1,1,1]", lambda lib, **kw: lib.MultiDiscrete([1, 1, 1], **kw))
_multi_discrete("0d-5", lambda lib, **kw: lib.MultiDiscrete(5, **kw))
_multi_discrete("0d-array-7-start", lambda lib, **kw: lib.MultiDiscrete(np.array(7), start=np.array(-3), **kw))
_multi_discrete("2d", lambda lib, **kw: lib.MultiDiscrete([[1, 2], [3, 4]], **kw))
_multi_discrete(
    "3d-start",
    lambda lib, **kw: lib.MultiDiscrete(
        np.arange(1, 13).reshape(2, 3, 2), start=np.arange(12).reshape(2, 3, 2) - 6, **kw
    ),
)
_multi_discrete("huge-nvec", lambda lib, **kw: lib.MultiDiscrete([2**40, 3, 2**62], **kw))
_multi_discrete("start-offsets", lambda lib, **kw: lib.MultiDiscrete([4, 6], start=[-10, 10], **kw))
_multi_discrete("empty", lambda lib, **kw: lib.MultiDiscrete(np.zeros((0,), dtype=np.int64), **kw))
_multi_discrete("big-endian", lambda lib, **kw: lib.MultiDiscrete([3, 4], dtype=">i4", start=[1, 2], **kw))
for _dt in INT_DTYPES:
    _n = _name(_dt)
    _multi_discrete(f"{_n}-[3,5,2]", lambda lib, dt=_dt, **kw: lib.MultiDiscrete([3, 5, 2], dtype=dt, **kw))
    _multi_discrete(
        f"{_n}-start-2d",
        lambda lib, dt=_dt, **kw: lib.MultiDiscrete([[2, 3], [4, 5]], dtype=dt, start=[[1, 0], [7, 2]], **kw),
    )
    _multi_discrete(
        f"{_n}-dtype-max",
        lambda lib, dt=_dt, **kw: lib.MultiDiscrete([int(np.iinfo(dt).max), 2], dtype=dt, **kw),
    )
# Arrays wrap silently on overflow (no warning, unlike Discrete scalars).
_multi_discrete("uint8-wrapping-start", lambda lib, **kw: lib.MultiDiscrete([10, 3], dtype=np.uint8, start=[250, 0], **kw))
_multi_discrete("int8-wrapping-start", lambda lib, **kw: lib.MultiDiscrete([100], dtype=np.int8, start=[100], **kw))


# -------------------------------------------------------------------------- Text
TEXT_RECIPES: list[Recipe] = []


def _text(id_: str, build: Callable[..., Any]) -> None:
    TEXT_RECIPES.append(Recipe(f"Text-{id_}", build, "Text"))


_text("default-5", lambda lib, **kw: lib.Text(5, **kw))
_text("abc", lambda lib, **kw: lib.Text(5, charset="abc", **kw))
_text("min0", lambda lib, **kw: lib.Text(10, min_length=0, charset="xyz", **kw))
_text("fixed-length-set", lambda lib, **kw: lib.Text(3, min_length=3, charset={"d", "a", "c", "b"}, **kw))
_text("frozenset-digits", lambda lib, **kw: lib.Text(20, min_length=2, charset=frozenset("9876543210"), **kw))
_text("list-with-duplicates", lambda lib, **kw: lib.Text(6, charset=["q", "r", "s", "q", "r"], **kw))
_text("unicode", lambda lib, **kw: lib.Text(8, charset="αβγ😀中\u0301", **kw))
_text("single-char", lambda lib, **kw: lib.Text(4, charset="z", **kw))
_text("empty-charset-min0", lambda lib, **kw: lib.Text(4, min_length=0, charset="", **kw))
_text("max0", lambda lib, **kw: lib.Text(0, min_length=0, charset="ab", **kw))
_text("long", lambda lib, **kw: lib.Text(1000, min_length=900, charset="ab", **kw))
_text("np-int-lengths", lambda lib, **kw: lib.Text(np.int64(7), min_length=np.int32(2), charset="hello", **kw))
_text("lone-surrogates", lambda lib, **kw: lib.Text(6, charset="\ud800a\udfff", **kw))
_text("many-chars", lambda lib, **kw: lib.Text(12, charset="".join(chr(c) for c in range(0x400, 0x4C8)), **kw))


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


def recipe_params(recipes: list[Recipe]) -> list[Any]:
    """``pytest.param`` objects with readable ids."""
    import pytest

    return [pytest.param(r, id=r.id) for r in recipes]

