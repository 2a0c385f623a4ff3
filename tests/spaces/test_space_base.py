"""The base Space class: shape/dtype, abstract methods, seeding life cycle, pickling hooks."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import gymspaces
from support.differential import GS, GYM, assert_same_outcome, assert_same_value, both, states_equal
from support.recipes import recipe_params
from support.spaces_corpus import ALL_RECIPES, CoinSpace


@pytest.mark.parametrize(
    "args,kwargs",
    [
        ((), {}),
        (((2, 3),), {}),
        (([2, 3], np.float32), {}),
        ((range(3), "int8"), {}),
        (((), bool), {}),
        ((None, np.dtype(">f8")), {}),
        ((), {"shape": (np.int64(4),), "dtype": int}),
        ((), {"dtype": str}),
    ],
)
def test_shape_and_dtype_match_gymnasium(args, kwargs):
    gs_space, gym_space = GS.Space(*args, **kwargs), GYM.Space(*args, **kwargs)
    assert gs_space.shape == gym_space.shape
    assert type(gs_space.shape) is type(gym_space.shape)
    assert gs_space._shape == gym_space._shape
    assert gs_space.dtype == gym_space.dtype
    assert type(gs_space.dtype) is type(gym_space.dtype)
    if gs_space.dtype is not None:
        assert gs_space.dtype.str == gym_space.dtype.str


def test_bad_dtype_raises_like_gymnasium():
    for call in (lambda lib: lib.Space(dtype="junk"), lambda lib: lib.Space(shape=5)):
        gs_result, gym_result = both(call)
        assert gym_result.raised
        assert_same_outcome(gs_result, gym_result, same_message=True)


def test_shape_is_read_only_property():
    space = GS.Space((2,))
    with pytest.raises(AttributeError):
        space.shape = (3,)


def test_abstract_methods_raise_not_implemented():
    space = GS.Space((2,), np.float32)
    with pytest.raises(NotImplementedError):
        space.sample()
    with pytest.raises(NotImplementedError):
        space.sample(mask=np.ones(2, np.int8))
    with pytest.raises(NotImplementedError):
        space.contains(1)
    with pytest.raises(NotImplementedError):
        1 in space  # noqa: B015
    with pytest.raises(NotImplementedError):
        space.is_np_flattenable  # noqa: B018


def test_in_operator_delegates_to_contains():
    calls = []

    class Evens(gymspaces.Space):
        def contains(self, x):
            calls.append(x)
            return x % 2 == 0

    space = Evens()
    assert 4 in space
    assert 3 not in space
    assert calls == [4, 3]


def test_np_random_is_lazy():
    space = GS.Space()
    assert space._np_random is None
    generator = space.np_random
    assert isinstance(generator, np.random.Generator)
    assert isinstance(generator.bit_generator, np.random.PCG64)
    assert space.np_random is generator
    assert space._np_random is generator


def test_np_random_is_read_only():
    space = GS.Space()
    with pytest.raises(AttributeError):
        space.np_random = np.random.default_rng(0)


def test_np_random_falls_back_when_seed_leaves_it_unset():
    """A subclass whose seed() does not set _np_random still gets a generator (composite case)."""

    class Lazy(gymspaces.Space):
        def seed(self, seed=None):
            return None

    space = Lazy()
    assert isinstance(space.np_random, np.random.Generator)
    assert space.np_random is space.np_random


def test_generator_seed_is_stored_as_is():
    generator = np.random.default_rng(3)
    space = GS.Space(seed=generator)
    assert space._np_random is generator
    assert space.np_random is generator


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES[::7]))
def test_generator_seed_is_stored_as_is_for_every_space(recipe):
    generator = np.random.default_rng(5)
    space = recipe.build(GS, seed=generator)
    assert space.np_random is generator
    other = recipe.build(GS, seed=generator)
    assert other.np_random is space.np_random


def test_seed_returns_entropy():
    space = GS.Space()
    assert space.seed(11) == 11
    assert states_equal(space.np_random.bit_generator.state, np.random.default_rng(11).bit_generator.state)
    entropy = space.seed()
    assert type(entropy) is int
    assert space.seed(2**100) == 2**100


def test_seed_replaces_generator():
    space = GS.Space(seed=1)
    first = space.np_random
    space.seed(1)
    assert space.np_random is not first
    assert states_equal(space.np_random.bit_generator.state, np.random.default_rng(1).bit_generator.state)


def test_int_seed_in_constructor_calls_seed():
    seen = []

    class Recording(gymspaces.Space):
        def seed(self, seed=None):
            seen.append(seed)
            return super().seed(seed)

    Recording(seed=9)
    Recording(seed=np.random.default_rng(0))
    Recording()
    assert seen == [9]


def test_jsonable_identity():
    space = GS.Space()
    batch = (1, "a", None)
    assert space.to_jsonable(batch) == [1, "a", None]
    assert type(space.to_jsonable(iter(batch))) is list
    data = [object(), object()]
    assert space.from_jsonable(data) is data
    assert both(lambda lib: lib.Space().to_jsonable((1, 2)))[0].value == GYM.Space().to_jsonable((1, 2))


@pytest.mark.parametrize("as_pairs", [False, True], ids=["mapping", "pairs"])
def test_setstate_renames_legacy_keys(as_pairs):
    for lib in (GS, GYM):
        generator = np.random.default_rng(0)
        state = {"shape": (2, 3), "dtype": np.dtype(np.float32), "np_random": generator, "extra": 1}
        original = dict(state)
        space = lib.Space.__new__(lib.Space)
        space.__setstate__(list(state.items()) if as_pairs else state)
        assert space.shape == (2, 3) and space._shape == (2, 3)
        assert space.np_random is generator
        assert "shape" not in vars(space) and "np_random" not in vars(space)
        assert space.extra == 1
        assert state == original  # the caller's mapping is not mutated


def test_setstate_matches_gymnasium():
    gs_space, gym_space = GS.Space.__new__(GS.Space), GYM.Space.__new__(GYM.Space)
    state = {"shape": [4], "dtype": None, "_np_random": None}
    gs_space.__setstate__(state)
    gym_space.__setstate__(state)
    assert vars(gs_space) == vars(gym_space)


def test_hashable_identity_equality():
    a, b = GS.Space(), GS.Space()
    assert a == a and a != b
    assert hash(a) == hash(a)
    assert len({a, b}) == 2


class Coin(CoinSpace, gymspaces.Space):
    """A pure-Python custom space built on gymspaces.Space."""

    @property
    def is_np_flattenable(self):
        return False


def test_pure_python_subclass():
    coin = Coin(seed=4)
    reference = np.random.default_rng(4)
    assert [coin.sample() for _ in range(10)] == [int(reference.integers(2)) for _ in range(10)]
    assert 1 in coin and 2 not in coin
    assert coin.shape == () and coin.dtype == np.int64 and coin.is_np_flattenable is False
    restored = pickle.loads(pickle.dumps(coin))
    duplicate = copy.deepcopy(coin)
    expected = [coin.sample() for _ in range(5)]
    assert [restored.sample() for _ in range(5)] == expected
    assert [duplicate.sample() for _ in range(5)] == expected
    assert isinstance(coin, gymspaces.Space)


def test_subclass_without_overrides_keeps_abstract_behaviour():
    class Bare(gymspaces.Space):
        pass

    bare = Bare((1,), np.float64, seed=2)
    assert bare.shape == (1,)
    with pytest.raises(NotImplementedError):
        bare.sample()


def test_pickle_base_space_keeps_generator_state():
    space = GS.Space((2,), np.float32, seed=6)
    space.np_random.random()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        restored = pickle.loads(pickle.dumps(space, protocol=protocol))
        assert restored.shape == space.shape and restored.dtype == space.dtype
        assert states_equal(restored.np_random.bit_generator.state, space.np_random.bit_generator.state)
        assert restored.np_random is not space.np_random


def test_unseeded_space_pickles_unseeded():
    restored = pickle.loads(pickle.dumps(GS.Space()))
    assert restored._np_random is None


def test_base_space_attributes_match_gymnasium():
    gs_space, gym_space = GS.Space((3,), np.uint8, seed=1), GYM.Space((3,), np.uint8, seed=1)
    assert set(vars(gym_space)) <= set(vars(gs_space))
    assert_same_value(gs_space.np_random.random(3), gym_space.np_random.random(3))
