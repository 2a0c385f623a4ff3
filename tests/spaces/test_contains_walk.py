"""The compiled membership walk (``_contains.pyx``) against Gymnasium 1.4.0 and the Python rules.

``Dict.contains`` and ``Tuple.contains`` check their children in C when the
children are Box/Discrete/MultiDiscrete/Dict/Tuple with the built-in checks;
``Dict.contains_batch`` does likewise per leaf. Every verdict, warning and
error must stay those of the definitions: Gymnasium's for ``contains``, the
Python rule (item by item, or child by child) for ``contains_batch``.
"""

from __future__ import annotations

import collections
import sys
import warnings

import gymnasium
import numpy as np
import pytest

import gymspaces
from gymspaces import _contains
from support.differential import error_kind, outcome

LIBS = (gymspaces, gymnasium.spaces)


def _tree(lib):
    return lib.Dict({
        "f": lib.Box(-1, 1, (3,), np.float32),
        "i": lib.Box(0, 9, (2, 2), np.int64),
        "d": lib.Discrete(5, start=-1),
        "m": lib.MultiDiscrete([3, 4]),
        "t": lib.Tuple((lib.Discrete(2), lib.Box(0, 1, (2,), np.float64))),
        "n": lib.Dict({"x": lib.Discrete(3, dtype=np.int8), "b": lib.MultiBinary(2)}),
    })


def _valid():
    return {
        "f": np.zeros(3, np.float32),
        "i": np.ones((2, 2), np.int64),
        "d": np.int64(0),
        "m": np.array([2, 3]),
        "t": (np.int64(1), np.array([0.5, 1.0])),
        "n": {"x": np.int8(2), "b": np.array([0, 1], np.int8)},
    }


SWAPPED_F32 = np.zeros(3, np.float32).astype(">f4")
STRIDED_F32 = np.zeros(6, np.float32)[::2]
LEAF_VARIANTS = {
    "f": [np.array([0.5, -1, 1], np.float32), np.array([0, 2, 0], np.float32), np.array([np.nan, 0, 0], np.float32),
          np.array([np.inf, 0, 0], np.float32), np.zeros(3), np.zeros(3, np.float16), [0.0, 0.5, 1.0], (0, 0, 0),
          0.0, np.float32(0), np.zeros((), np.float32), np.zeros(3, bool), SWAPPED_F32, STRIDED_F32,
          np.zeros(4, np.float32), np.zeros((1, 3), np.float32), np.zeros(3, np.int8), "abc", None, [0, "a", 0]],
    "i": [np.zeros((2, 2), np.int32), np.full((2, 2), 10), np.zeros((2, 2), np.uint64), np.zeros((2, 2)),
          [[1, 2], [3, 4]], np.zeros(4, np.int64), np.zeros((2, 2), np.int64).astype(">i8"),
          np.zeros((2, 4), np.int64)[:, ::2], np.zeros((2, 2), np.int64).T],
    "d": [-1, 3, 4, -2, True, False, 2**70, np.int32(3), np.int8(-1), np.uint8(2), np.uint64(1), np.int64(4),
          np.array(2), np.array([2]), 1.0, np.float64(1), "1", None, np.bool_(True), np.array(2, dtype=">i8")],
    "m": [np.array([0, 0]), [2, 3], (1, 1), np.array([3, 0]), np.array([2, -1]), np.array([2.0, 1.0]),
          np.array([1, 1], np.uint8), np.array([1, 1], np.uint64), np.array([1, 1], ">i8"), np.array([0, 9, 1])[::2],
          np.array([1, 1, 1]), np.array([[1, 1]]), np.array([True, False]), 1, None],
    "t": [[0, np.array([0.5, 0.5])], (0,), (0, np.array([0.5, 0.5]), 1), (2, np.array([0.5, 0.5])),
          (0, [0.5, 0.5]), (0, np.array([0.5, 1.5])), "ab", np.array([0, 1], dtype=object)],
    "n": [{"x": 2}, {"x": np.int8(3), "b": np.array([0, 1])}, {"x": 0, "b": [1, 1]}, {"x": 0},
          collections.OrderedDict(x=0, b=np.array([1, 0])), {"b": np.array([1, 0]), "x": 0}, [0, 1]],
}
CASES = [("valid", _valid())] + [
    (f"{key}-{index}", {**_valid(), key: value})
    for key, values in LEAF_VARIANTS.items() for index, value in enumerate(values)
]


class DictSubclass(dict):
    pass


class LyingKeys(dict):
    def keys(self):
        return {"f": 0, "i": 0, "d": 0, "m": 0, "t": 0, "n": 0}.keys()


def _whole_cases():
    valid = _valid()
    missing = dict(valid)
    del missing["m"]
    return [
        ("missing", missing), ("extra", {**valid, "z": 1}), ("ordered", collections.OrderedDict(valid)),
        ("reordered", dict(reversed(list(valid.items())))), ("subclass", DictSubclass(valid)),
        ("lying-keys", LyingKeys({**valid, "z": 1})), ("list", list(valid.values())), ("none", None),
        ("mapping-proxy", type(sys.__dict__)(valid)),
    ]


def _same(gs_call, gym_call):
    ours, theirs = outcome(gs_call), outcome(gym_call)
    assert type(ours.value) is type(theirs.value)
    assert (ours.value, error_kind(ours.error) if ours.error else None, ours.warnings) == (
        theirs.value, error_kind(theirs.error) if theirs.error else None, theirs.warnings)
    return ours


@pytest.mark.parametrize("name, element", CASES + _whole_cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_dict_contains_matches_gymnasium(name, element):
    ours, theirs = _tree(gymspaces), _tree(gymnasium.spaces)
    result = _same(lambda: ours.contains(element), lambda: theirs.contains(element))
    assert result.raised or type(result.value) is bool  # a returned None is not a verdict
    _same(lambda: element in ours, lambda: element in theirs)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint32, np.int64])
def test_long_multi_discrete_rows_match_gymnasium(dtype):
    def space(lib):
        return lib.Dict({"l": lib.MultiDiscrete(np.arange(2, 42), start=np.arange(-20, 20))})

    ours, theirs = space(gymspaces), space(gymnasium.spaces)
    valid = np.arange(-20, 20)
    for value in (valid, valid + 1, valid - 1, np.arange(-20, 60, 2), valid[:-1]):
        element = {"l": value.astype(dtype)}
        _same(lambda: ours.contains(element), lambda: theirs.contains(element))


@pytest.mark.parametrize("name, element", CASES, ids=lambda v: v if isinstance(v, str) else "")
def test_tuple_contains_matches_gymnasium(name, element):
    def tuple_of(lib):
        return lib.Tuple(tuple(_tree(lib).spaces.values()))

    ours, theirs = tuple_of(gymspaces), tuple_of(gymnasium.spaces)
    parts = tuple(element.values())
    for candidate in (parts, list(parts), parts[:-1], parts + (1,)):
        _same(lambda: ours.contains(candidate), lambda: theirs.contains(candidate))


class Always(gymspaces.Box):
    def contains(self, x):
        return True


class NeverIn(gymspaces.Discrete):
    def __contains__(self, x):
        return False


class Truthy:
    def __init__(self, value):
        self.value = value

    def __bool__(self):
        return self.value


class Loose(gymspaces.MultiDiscrete):
    def _contains_general(self, x):
        return Truthy(True)


def test_overrides_are_honoured():
    box, never = Always(-1, 1, (3,), np.float32), NeverIn(5)
    far = {"b": np.full(3, 7.0, np.float32), "n": 1}
    assert gymspaces.Dict({"b": box, "n": gymspaces.Discrete(5)}).contains(far)
    # Dict checks with ``in`` (the override), Tuple calls ``contains``.
    assert not gymspaces.Dict({"b": box, "n": never}).contains(far)
    assert gymspaces.Tuple((box, never)).contains((far["b"], 1))
    # An instance attribute shadows the class's method.
    plain = gymspaces.Discrete(5)
    space = gymspaces.Dict({"n": plain})
    assert space.contains({"n": 1})
    plain.contains = lambda x: False
    assert not space.contains({"n": 1}) and not gymspaces.Tuple((plain,)).contains((1,))
    # A private name is no hook: the general rule stays the library's.
    loose = gymspaces.Dict({"m": Loose([2, 2])})
    assert not loose.contains({"m": [5.0, 5.0]}) and not loose.contains({"m": np.array([5, 5])})
    assert loose.contains({"m": [1, 1]})


def test_warnings_come_from_each_leaf_once():
    element = {**_valid(), "f": [0.0, 0.0, 0.0], "i": [[1, 1], [1, 1]]}
    result = _same(lambda: _tree(gymspaces).contains(element), lambda: _tree(gymnasium.spaces).contains(element))
    assert result.value is True and len(result.warnings) == 2


@pytest.mark.usefixtures("unpatched")
def test_patched_gymnasium_dict_answers_as_plain():
    from gymspaces.gymnasium import is_compiled, patched

    space = _tree(gymnasium.spaces)
    elements = [element for _, element in CASES + _whole_cases()]

    def answers():
        return [(outcome(lambda: space.contains(element)), outcome(lambda: element in space)) for element in elements]

    plain = answers()
    with patched():
        assert is_compiled(space)
        compiled = answers()
    for (ours, ours_in), (theirs, theirs_in) in zip(compiled, plain):
        for mine, reference in ((ours, theirs), (ours_in, theirs_in)):
            assert type(mine.value) is type(reference.value)
            assert (mine.value, error_kind(mine.error) if mine.error else None, mine.warnings) == (
                reference.value, error_kind(reference.error) if reference.error else None, reference.warnings)


def _nested(levels, kind="dict"):
    space, element = gymspaces.Discrete(2), 1
    for level in range(levels):
        if kind == "dict" or (kind == "mixed" and level % 2):
            space, element = gymspaces.Dict({"a": space}), {"a": element}
        else:
            space, element = gymspaces.Tuple((space,)), (element,)
    return space, element


@pytest.mark.parametrize("kind", ["dict", "tuple", "mixed"])
def test_deep_nesting_raises_recursion_error_not_a_crash(kind):
    """Documented in _contains.pyx: nesting deeper than sys.getrecursionlimit()
    levels raises RecursionError on every supported Python (3.12+ does not stop
    C recursion at that limit itself)."""
    for levels in (sys.getrecursionlimit() + 1, sys.getrecursionlimit() + 100, 20_000):
        space, element = _nested(levels, kind)
        with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
            space.contains(element)
        with pytest.raises(RecursionError):
            element in space  # noqa: B015


@pytest.mark.parametrize("kind", ["dict", "tuple"])
def test_nesting_depth_follows_the_recursion_limit(kind):
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(300)
        space, element = _nested(400, kind)
        with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
            space.contains(element)
        space, element = _nested(150, kind)  # well within the limit, whatever the stack above
        assert space.contains(element) is True
    finally:
        sys.setrecursionlimit(limit)


def test_no_reference_leaks():
    space = _tree(gymspaces)
    elements = [element for _, element in CASES + _whole_cases()]
    # Shared singletons (small ints, None, numpy's bools) change count elsewhere.
    leaves = [value for element in elements if isinstance(element, dict) for value in element.values()
              if sys.getrefcount(value) < 1000]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for element in elements:
            space.contains(element)
        before = [sys.getrefcount(value) for value in leaves] + [sys.getrefcount(space)]
        for _ in range(50):
            for element in elements:
                space.contains(element)
        after = [sys.getrefcount(value) for value in leaves] + [sys.getrefcount(space)]
    assert before == after


# --------------------------------------------------------------------------- contains_batch


def _python_rule(space, batch, monkeypatch):
    """``contains_batch`` with the compiled Dict kernel turned off (the Python rule)."""
    with monkeypatch.context() as patched:
        patched.setattr(_contains, "dict_contains_batch", lambda self, batch: None)
        return outcome(lambda: space.contains_batch(batch))


def _batch_space():
    return gymspaces.Dict({
        "f": gymspaces.Box(-1, 1, (3,), np.float32),
        "h": gymspaces.Box(np.array([0, -np.inf], np.float16), np.array([np.inf, 1.0], np.float16), (2,), np.float16),
        "u": gymspaces.Box(0, 200, (2, 2), np.uint8),
        "d": gymspaces.Discrete(5, start=-2),
        "e": gymspaces.Discrete(3, dtype=np.int8),
        "m": gymspaces.MultiDiscrete([3, 4], start=[0, -1]),
        "w": gymspaces.MultiDiscrete([[2, 2], [2, 3]], dtype=np.uint16),
        "l": gymspaces.MultiDiscrete(np.arange(2, 42), start=np.arange(-20, 20)),  # rows longer than 32
    }, seed=3)


def _batch_variants():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # casts of NaN to integers
        yield from _make_batch_variants()


def _make_batch_variants():
    space = _batch_space()
    base = space.sample_batch(16)
    base["f"][3, 1], base["f"][5, 0] = 3.0, np.nan
    base["d"][4], base["e"][6], base["m"][7, 1], base["w"][8, 0, 0] = 3, 3, -2, 2
    base["h"][9, 0] = -1
    base["l"][10, 39] = 100
    changes = {
        "f": [base["f"].astype(np.float64), base["f"].astype(np.float16), base["f"].astype(">f4"),
              np.repeat(base["f"], 2, axis=0)[::2], base["f"][:, :2], base["f"].astype(np.int8), base["f"][:15],
              base["f"].astype(complex), base["f"].astype(object), list(base["f"]), base["f"][:, :2].copy(),
              base["f"][:, :, None].copy()],
        "h": [base["h"].astype(np.float32), base["h"].astype(bool)],
        "u": [base["u"].astype(np.int64), base["u"].astype(bool), base["u"].astype(np.uint16) + 100, base["u"] + 100],
        "d": [base["d"].astype(np.int8), base["d"].astype(np.uint64), base["d"].astype(float), base["d"].astype(bool),
              base["d"].astype(">i8"), base["d"][:, None], base["d"][::-1], np.array(list(base["d"]), object)],
        "e": [base["e"].astype(np.int64), base["e"].astype(np.uint8), base["e"].astype(np.int8)],
        "m": [base["m"].astype(np.int8), base["m"].astype(np.uint32), base["m"].astype(float), base["m"].astype(">i8"),
              base["m"].T.copy().T, base["m"][:, :1], base["m"].astype(bool)],
        "l": [base["l"].astype(np.int8), base["l"].astype(np.int32), base["l"] - 1],
        "w": [base["w"].astype(np.uint8), base["w"].astype(np.int16), base["w"].astype(bool),
              base["w"].reshape(16, 4)],
    }
    yield "sampled", space, base
    for key, values in changes.items():
        for index, value in enumerate(values):
            yield f"{key}-{index}", space, {**base, key: value}
    yield "empty", space, {key: value[:0] for key, value in base.items()}
    yield "ordered", space, collections.OrderedDict(base)


@pytest.mark.parametrize("name, space, batch", list(_batch_variants()), ids=lambda v: v if isinstance(v, str) else "")
def test_dict_contains_batch_is_the_python_rule(name, space, batch, monkeypatch):
    ours, reference = outcome(lambda: space.contains_batch(batch)), _python_rule(space, batch, monkeypatch)
    assert (error_kind(ours.error) if ours.error else None, ours.warnings) == (
        error_kind(reference.error) if reference.error else None, reference.warnings)
    if reference.error is None:
        assert ours.value.dtype == np.bool_ and ours.value.shape == reference.value.shape
        np.testing.assert_array_equal(ours.value, reference.value)


def test_dict_contains_batch_is_item_by_item():
    space = _batch_space()
    batch = dict(next(_batch_variants())[2])
    verdict = space.contains_batch(batch)
    assert _contains.dict_contains_batch(space, batch) is not None  # decided in C
    items = gymspaces.vector.iterate(gymspaces.vector.batch_space(space, 16), batch)
    assert verdict.tolist() == [space.contains(item) for item in items]
    assert verdict.tolist().count(False) == 8


def test_dict_contains_batch_honours_overrides():
    class Picky(gymspaces.Discrete):
        def contains_batch(self, batch):
            return np.zeros(len(batch), dtype=bool)

    space = gymspaces.Dict({"a": gymspaces.Box(0, 1, (2,)), "p": Picky(3)})
    batch = {"a": np.zeros((4, 2), np.float32), "p": np.zeros(4, np.int64)}
    assert space.contains_batch(batch).tolist() == [False] * 4
    assert _contains.dict_contains_batch(space, batch) is None
