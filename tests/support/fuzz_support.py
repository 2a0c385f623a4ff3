"""Broken arguments for the fuzz tests: corrupted masks, probabilities and values.

Values are produced from a valid structure (a sample, or
:func:`support.composite_helpers.valid_mask`) by :func:`corrupt`, which applies
one of :data:`ARRAY_OPS` (wrong dtype/shape/length, bad values, strided,
read-only, big-endian, Fortran order, lists, scalars, ...) to one leaf, or one
of :data:`STRUCT_OPS` to one tuple/dict. Everything is driven by a ``numpy``
Generator seeded from a Hypothesis-drawn integer, so a failure report (recipe +
seed) reproduces it exactly. The spaces come from
:mod:`support.recipe_strategies`; :func:`examples` scales every fuzz test's
example count.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable
from typing import Any

import gymnasium.spaces.utils as gym_utils
import gymnasium.vector.utils as gym_vector
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import gymspaces.utils as gs_utils
import gymspaces.vector as gs_vector
from support.differential import GS, GYM

inf, nan = float("inf"), float("nan")

# Scale every fuzz test's example count: GYMSPACES_FUZZ_SCALE=10 for a long local run.
FUZZ_SCALE = float(os.environ.get("GYMSPACES_FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    return max(1, int(n * FUZZ_SCALE))


# --------------------------------------------------------------------------- tests on seeded pairs

SEEDS = st.integers(0, 2**32 - 1)
UTILS = {GS: gs_utils, GYM: gym_utils}  # each library's flatten family
VECTOR = {GS: gs_vector, GYM: gym_vector}  # each library's vector helpers


def on_seeded_pairs(
    max_examples: int,
    recipes: st.SearchStrategy,
    seeded_pair: Callable[[Any, int], tuple[Any, Any] | None],
    **strategies: st.SearchStrategy,
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Make ``check(gs_space, gym_space, ops_seed, **drawn)`` a fuzz test on a pair of spaces.

    For each of ``max_examples`` examples Hypothesis draws ``recipe`` from
    ``recipes``, ``seed`` and ``ops_seed`` from :data:`SEEDS`, and a value from
    each of ``strategies`` (``drawn``, by keyword). ``seeded_pair(recipe, seed)``
    builds the space in both libraries and seeds both alike, checking that they
    agree; it returns ``None`` when both constructors raised alike, which ends
    the example, else ``check`` runs on the pair.

    The test keeps ``check``'s name, and Hypothesis keys it (its derandomized
    examples) on ``check``'s source (``functools.wraps``), as if ``check``
    itself were decorated with ``@given``.
    """
    def decorate(check: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(check)
        def test(recipe: Any, seed: int, ops_seed: int, **drawn: Any) -> None:
            pair = seeded_pair(recipe, seed)
            if pair is not None:
                check(*pair, ops_seed, **drawn)

        # The arguments Hypothesis fills in (functools.wraps would show check's).
        test.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in ("recipe", "seed", "ops_seed")]
            + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY) for name in strategies]
        )
        drawn_test = given(recipe=recipes, seed=SEEDS, ops_seed=SEEDS, **strategies)(test)
        return settings(max_examples=max_examples)(drawn_test)

    return decorate


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
