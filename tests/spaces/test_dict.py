"""Unit tests of gymspaces.Dict: key order, mapping protocol, seeding, masks."""

from __future__ import annotations

import collections.abc
from collections import OrderedDict

import numpy as np
import pytest

from support import common_checks
from support.differential import GS, GYM, assert_same_generator_state, assert_same_outcome, outcome
from gymspaces import Box, Dict, Discrete, MultiBinary, Sequence
from gymspaces.error import Error


def keys_in_both(build):
    """The key order each library gives the Dict built by ``build(lib)``."""
    gs_space, gym_space = build(GS), build(GYM)
    assert list(gs_space.keys()) == list(gym_space.keys())
    return list(gs_space.keys())


# --------------------------------------------------------------------------- key order


def test_plain_mapping_is_sorted():
    assert keys_in_both(lambda L: L.Dict({"b": L.Discrete(2), "a": L.Discrete(3)})) == ["a", "b"]


def test_sort_keys_false_keeps_insertion_order():
    build = lambda L: L.Dict({"b": L.Discrete(2), "a": L.Discrete(3)}, sort_keys=False)  # noqa: E731
    assert keys_in_both(build) == ["b", "a"]
    assert build(GS).sort_keys is False


def test_ordered_dict_and_pair_sequences_keep_their_order():
    assert keys_in_both(
        lambda L: L.Dict(OrderedDict([("b", L.Discrete(2)), ("a", L.Discrete(3))]))
    ) == ["b", "a"]
    assert keys_in_both(lambda L: L.Dict([("b", L.Discrete(2)), ("a", L.Discrete(3))])) == ["b", "a"]
    assert keys_in_both(lambda L: L.Dict((("c", L.Discrete(2)), ("a", L.Discrete(3))))) == ["c", "a"]


def test_keyword_spaces_are_appended_unsorted():
    """Quirk Q21b (docs/quirks.md): keywords follow the (sorted) mapping in keyword order."""
    build = lambda L: L.Dict({"m": L.Discrete(2), "c": L.Discrete(2)}, z=L.Discrete(2), b=L.Discrete(3))  # noqa: E731
    assert keys_in_both(build) == ["c", "m", "z", "b"]
    assert keys_in_both(lambda L: L.Dict(y=L.Discrete(2), x=L.Discrete(3))) == ["y", "x"]


def test_incomparable_keys_keep_insertion_order():
    assert keys_in_both(lambda L: L.Dict({"b": L.Discrete(2), 1: L.Discrete(3), "a": L.Discrete(4)})) == ["b", 1, "a"]
    assert keys_in_both(lambda L: L.Dict({3: L.Discrete(2), 1: L.Discrete(3)})) == [1, 3]


def test_a_dict_space_is_a_mapping_argument():
    inner = Dict({"b": Discrete(2), "a": Discrete(3)}, sort_keys=False)
    assert list(Dict(inner).keys()) == ["a", "b"]


def test_none_gives_an_empty_dict():
    assert len(Dict()) == 0 and Dict().spaces == {}
    assert repr(Dict()) == "Dict()"


@pytest.mark.parametrize(
    "build, error",
    [
        (lambda L: L.Dict({"a": L.Discrete(2)}, a=L.Discrete(3)), ValueError),
        (lambda L: L.Dict(5), TypeError),
        (lambda L: L.Dict({1, 2}), TypeError),
        (lambda L: L.Dict("ab"), ValueError),  # a str is a sequence, not of pairs
        (lambda L: L.Dict({"a": 3}), TypeError),
        (lambda L: L.Dict(a=L.Discrete(2), b="x"), TypeError),
        (lambda L: L.Dict([("a", L.Discrete(2), 3)]), ValueError),
    ],
)
def test_construction_errors_match_gymnasium(build, error):
    results = [outcome(lambda lib=lib: build(lib)) for lib in (GS, GYM)]
    assert isinstance(results[0].error, error)
    assert_same_outcome(*results, same_warnings=False)
    assert str(results[0].error) == str(results[1].error)


def test_error_messages():
    with pytest.raises(ValueError, match="Dict space keyword 'a' already exists in the spaces dictionary."):
        Dict({"a": Discrete(2)}, a=Discrete(3))
    with pytest.raises(TypeError, match="expecting dict, OrderedDict or Sequence, actual type"):
        Dict(5)
    with pytest.raises(TypeError, match="Dict space element is not an instance of Space: key='a', space=3"):
        Dict({"a": 3})


# --------------------------------------------------------------------------- mapping protocol


def test_mapping_protocol():
    space = Dict({"b": Discrete(2), "a": Box(0, 1, (2,))})
    assert isinstance(space, collections.abc.Mapping)
    assert len(space) == 2
    assert list(space) == ["a", "b"]
    assert space["b"] == Discrete(2)
    assert isinstance(space.keys(), collections.abc.KeysView)
    assert list(space.keys()) == ["a", "b"]
    assert list(space.values()) == [Box(0, 1, (2,)), Discrete(2)]
    assert list(space.items())[1] == ("b", Discrete(2))
    assert space.get("c") is None
    with pytest.raises(KeyError):
        space["c"]


def test_setitem():
    space = Dict({"a": Discrete(2)})
    space["b"] = Discrete(3)
    assert list(space) == ["a", "b"] and space["b"] == Discrete(3)
    with pytest.raises(TypeError, match="Trying to set c to Dict space with value that is not a gymnasium space"):
        space["c"] = 3


def test_in_tests_sample_membership_not_keys():
    """Quirk Q21a (docs/quirks.md): ``"a" in space`` is ``contains("a")``, in both libraries."""
    for lib in (GS, GYM):
        space = lib.Dict({"a": lib.Discrete(2)})
        assert "a" not in space
        assert {"a": 1} in space


def test_repr_equality_and_hash():
    space = Dict({"b": Discrete(2), "a": Box(0, 1, (2,))})
    assert repr(space) == "Dict('a': Box(0.0, 1.0, (2,), float32), 'b': Discrete(2))"
    assert repr(Dict({1: Discrete(2)})) == "Dict(1: Discrete(2))"
    assert space == Dict({"a": Box(0, 1, (2,)), "b": Discrete(2)}, sort_keys=False)
    assert space != Dict({"a": Box(0, 1, (2,))})
    assert space != {"a": Box(0, 1, (2,)), "b": Discrete(2)}
    with pytest.raises(TypeError):
        hash(space)


def test_is_np_flattenable():
    assert Dict(a=Discrete(2), b=MultiBinary(2)).is_np_flattenable is True
    assert Dict(a=Discrete(2), b=Sequence(Discrete(2))).is_np_flattenable is False


# --------------------------------------------------------------------------- seeding


def test_int_seed_draws_subseeds_in_key_order():
    """The own generator is left advanced past the sub-seed draws (quirk Q3, docs/quirks.md)."""
    for lib in (GS, GYM):
        space = lib.Dict({"b": lib.Discrete(2), "a": lib.Discrete(2)})
        assert space.seed(42) == {"a": 191664963, "b": 1662057957}
        reference = np.random.default_rng(42)
        reference.integers(2**31 - 1, size=2)
        assert_same_generator_state(space.np_random, reference)


def test_dict_seed_follows_the_seed_dicts_order():
    """A dict seed leaves the own generator unset (quirk Q2, docs/quirks.md)."""
    for lib in (GS, GYM):
        space = lib.Dict({"a": lib.Discrete(2), "b": lib.Tuple((lib.Discrete(2), lib.Discrete(3)))})
        result = space.seed({"b": [1, 2], "a": 3})
        assert list(result) == ["b", "a"]
        assert result == {"b": (1, 2), "a": 3}
        assert space._np_random is None
        assert_same_generator_state(space["a"].np_random, np.random.default_rng(3))


@pytest.mark.parametrize(
    "seed, error",
    [({"a": 1}, ValueError), ({"a": 1, "b": 2, "c": 3}, ValueError), ([1, 2], TypeError),
     ((1, 2), TypeError), (np.int64(2), TypeError), ("a", TypeError), (-3, Error)],
)
def test_bad_seeds_match_gymnasium(seed, error):
    common_checks.check_bad_seed(lambda lib: lib.Dict(a=lib.Discrete(2), b=lib.Discrete(2)), seed, error)


def test_none_seed():
    space = Dict(a=Discrete(2), b=Discrete(3))
    seeds = space.seed(None)
    assert list(seeds) == ["a", "b"] and all(type(v) is int for v in seeds.values())
    assert space._np_random is None


# --------------------------------------------------------------------------- sampling


def test_golden_sample_and_key_order():
    space = Dict({"position": Box(-1, 1, shape=(2,)), "color": Discrete(3)}, seed=42)
    sample = space.sample()
    assert type(sample) is dict and list(sample) == ["color", "position"]
    assert sample["color"] == 0
    np.testing.assert_allclose(sample["position"], [-0.3991573, 0.21649833], rtol=1e-6)


def test_masks_by_key_in_any_order():
    space = Dict(a=Discrete(3), b=Discrete(3), seed=0)
    for _ in range(10):
        sample = space.sample(mask={"b": np.array([0, 1, 0], np.int8), "a": None})
        assert sample["b"] == 1 and list(sample) == ["a", "b"]
        sample = space.sample(probability={"a": np.array([0.0, 0.0, 1.0]), "b": None})
        assert sample["a"] == 2


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"mask": {"a": None}}, AssertionError),
        ({"mask": {"a": None, "b": None, "c": None}}, AssertionError),
        ({"mask": [None, None]}, AssertionError),
        ({"probability": (None, None)}, AssertionError),
        ({"probability": {"a": None, "c": None}}, AssertionError),
        ({"mask": {"a": None, "b": None}, "probability": {"a": None, "b": None}}, ValueError),
        ({"mask": {"a": np.array([1, 1, 0], np.int8), "b": np.zeros(3, np.int8)}}, AssertionError),
    ],
)
def test_bad_masks_match_gymnasium(kwargs, error):
    spaces = [lib.Dict(a=lib.Discrete(3), b=lib.Discrete(2), seed=1) for lib in (GS, GYM)]
    results = [outcome(lambda s=s: s.sample(**kwargs)) for s in spaces]
    assert isinstance(results[0].error, error)
    assert_same_outcome(*results, same_warnings=False)
    for key in ("a", "b"):
        assert_same_generator_state(spaces[0][key].np_random, spaces[1][key].np_random)


# --------------------------------------------------------------------------- contains / jsonable


def test_contains():
    space = Dict(a=Discrete(3), b=Box(0, 1, (2,)))
    assert space.contains({"a": 1, "b": np.array([0.5, 0.5], np.float32)})
    assert space.contains({"b": np.array([0.5, 0.5], np.float32), "a": 1})
    assert not space.contains({"a": 1})
    assert not space.contains({"a": 5, "b": np.array([0.5, 0.5], np.float32)})
    assert not space.contains(OrderedDict(a=1)) and not space.contains([1, 2])


def test_jsonable_round_trip():
    space = Dict(a=Discrete(3), b=Box(0, 1, (2,)), seed=0)
    samples = [space.sample() for _ in range(3)]
    data = space.to_jsonable(samples)
    assert list(data) == ["a", "b"] and data["a"] == [int(s["a"]) for s in samples]
    back = space.from_jsonable(data)
    assert [list(d) for d in back] == [["a", "b"]] * 3
    for original, restored in zip(samples, back):
        assert restored["a"] == original["a"]
        np.testing.assert_array_equal(restored["b"], original["b"])


def test_from_jsonable_of_an_empty_dict_raises_stop_iteration():
    """Quirk Q21d (docs/quirks.md), as in Gymnasium."""
    for lib in (GS, GYM):
        with pytest.raises(StopIteration):
            lib.Dict().from_jsonable({})
