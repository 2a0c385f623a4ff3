"""Tests of gymspaces.vector: batch_space, batch_differing_spaces, iterate, concatenate,
create_empty_array -- including the generators of batched spaces."""

from __future__ import annotations

import copy
from collections import OrderedDict

import gymnasium.error
import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest

import gymspaces
import gymspaces.vector as gs_vector
from support.differential import GS, GYM, assert_same_generator_state, assert_same_outcome, assert_same_value, outcome
from support.composite_helpers import assert_same_tree_states
from gymspaces import Box, Dict, Discrete, Graph, OneOf, Sequence, Space, Text, Tuple
from gymspaces.error import CustomSpaceError, Error
from gymspaces.vector import space_utils

VECTOR = {GS: gs_vector, GYM: gym_vector}
FUNCTIONS = ["batch_space", "batch_differing_spaces", "iterate", "concatenate", "create_empty_array"]

SPACES = {
    "Box": lambda L: L.Box(-1, 1, (2, 3)),
    "Box-int-inf": lambda L: L.Box(-np.inf, np.inf, (2,), np.int64),
    "Box-uint8": lambda L: L.Box(0, 255, (3,), np.uint8),
    "Discrete": lambda L: L.Discrete(5, start=-2),
    "Discrete-int8": lambda L: L.Discrete(3, dtype=np.int8),
    "MultiDiscrete": lambda L: L.MultiDiscrete([[2, 3], [4, 5]], start=[[0, 1], [2, 3]]),
    "MultiBinary": lambda L: L.MultiBinary([2, 2]),
    "Text": lambda L: L.Text(4, charset="xyz"),
    "Tuple": lambda L: L.Tuple((L.Discrete(3), L.Box(0, 1, (2,)))),
    "Dict": lambda L: L.Dict(b=L.MultiBinary(2), a=L.Discrete(4)),
    "Sequence": lambda L: L.Sequence(L.Discrete(3)),
    "Sequence-stack": lambda L: L.Sequence(L.Box(0, 1, (2,)), stack=True),
    "Graph": lambda L: L.Graph(L.Box(0, 1, (2,)), L.Discrete(3)),
    "OneOf": lambda L: L.OneOf((L.Discrete(2), L.Box(0, 1))),
}
spaces = pytest.mark.parametrize("build", list(SPACES.values()), ids=list(SPACES))


def test_exports():
    assert set(FUNCTIONS) <= set(gs_vector.__all__)  # shared memory joins later
    for name in FUNCTIONS:
        assert getattr(gs_vector, name) is getattr(space_utils, name)
    assert gymspaces.vector is gs_vector


# --------------------------------------------------------------------------- batch_space


@spaces
@pytest.mark.parametrize("n", [1, 3])
def test_batch_space_matches_gymnasium(build, n):
    for seed in range(8):
        gs_space, gym_space = build(GS), build(GYM)
        gs_space.seed(seed), gym_space.seed(seed)
        gs_batch, gym_batch = gs_vector.batch_space(gs_space, n), gym_vector.batch_space(gym_space, n)
        assert repr(gs_batch) == repr(gym_batch)
        assert type(gs_batch).__name__ == type(gym_batch).__name__
        assert_same_tree_states(gs_batch, gym_batch)
        for _ in range(3):
            assert_same_value(gs_batch.sample(), gym_batch.sample())
        assert_same_tree_states(gs_space, gym_space)


def test_batched_generator_is_a_copy_in_the_same_state():
    space = Box(0, 1, (2,), seed=0)
    space.np_random.integers(2**32)  # leave a buffered half-word
    batched = gs_vector.batch_space(space, 4)
    assert batched.np_random is not space.np_random
    assert batched.np_random.bit_generator.state == space.np_random.bit_generator.state
    batched.sample()
    assert space.np_random.bit_generator.state != batched.np_random.bit_generator.state


def test_custom_path_reseeds_copies_from_a_copy_of_the_original():
    space = Text(3, seed=5)
    batched = gs_vector.batch_space(space, 3)
    assert type(batched) is Tuple and all(copy_ == space for copy_ in batched)
    seeds = np.random.default_rng(5).integers(0, 10**8, 3)
    for copy_, seed in zip(batched, seeds):
        assert_same_generator_state(copy_.np_random, np.random.default_rng(int(seed)))
    assert_same_generator_state(batched.np_random, np.random.default_rng(5))
    assert_same_generator_state(space.np_random, np.random.default_rng(5))  # untouched


def test_batching_an_unseeded_tuple_reseeds_its_children():
    """Quirks Q1/Q2 (docs/quirks.md): after seed(list) the Tuple's own generator is unset; batching sets it
    through seed(None), which reseeds the children *after* their batched copies were made."""
    space = Tuple((Discrete(100), Discrete(100)))
    space.seed([1, 2])
    batched = gs_vector.batch_space(space, 2)
    assert_same_generator_state(batched[0].np_random, np.random.default_rng(1))
    assert space.spaces[0].np_random.bit_generator.state != np.random.default_rng(1).bit_generator.state


def test_batch_space_of_dicts_keeps_sort_keys():
    space = Dict(OrderedDict(b=Discrete(2), a=Discrete(3)), sort_keys=False)
    assert list(gs_vector.batch_space(space, 2)) == ["b", "a"]


def test_batch_space_propagates_sort_keys_and_resorts_ordered_dicts():
    unsorted = Dict({"b": Discrete(2), "a": Discrete(3)}, sort_keys=False, seed=0)
    batched = gs_vector.batch_space(unsorted, 2)
    assert batched.sort_keys is False and list(batched) == ["b", "a"]
    ordered = Dict(OrderedDict([("b", Discrete(2)), ("a", Discrete(3))]), seed=0)
    batched = gs_vector.batch_space(ordered, 2)
    assert list(ordered) == ["b", "a"]
    assert batched.sort_keys is True and list(batched) == ["a", "b"]  # quirk Q21c (docs/quirks.md)
    gym_ordered = GYM.Dict(OrderedDict([("b", GYM.Discrete(2)), ("a", GYM.Discrete(3))]), seed=0)
    assert list(gym_vector.batch_space(gym_ordered, 2)) == ["a", "b"]


@pytest.mark.parametrize("n", [0, -1, 2.5, "2"])
@pytest.mark.parametrize("name", ["Box", "Discrete", "MultiBinary", "Text", "Tuple", "Dict"])
def test_unusual_batch_sizes_match_gymnasium(name, n):
    results = []
    for lib in (GS, GYM):
        space = SPACES[name](lib)
        space.seed(0)
        results.append(outcome(lambda: VECTOR[lib].batch_space(space, n)))
    if results[1].raised:
        assert_same_outcome(*results, same_warnings=False)
    else:
        assert repr(results[0].value) == repr(results[1].value)


# --------------------------------------------------------------------------- non-spaces / custom spaces


@pytest.mark.parametrize("name", FUNCTIONS)
def test_non_space_arguments_raise_type_error(name):
    args = {"batch_space": (3,), "batch_differing_spaces": ([3],), "iterate": (3, [1]),
            "concatenate": (3, [1], None), "create_empty_array": (3,)}[name]
    results = [outcome(lambda lib=lib: getattr(VECTOR[lib], name)(*args)) for lib in (GS, GYM)]
    assert isinstance(results[0].error, TypeError)
    assert_same_outcome(*results, same_warnings=False)
    if name != "batch_differing_spaces":
        assert str(results[0].error) == str(results[1].error)
        assert f"The space provided to `{name}` is not a gymnasium Space instance" in str(results[0].error)


class Custom(Space):
    def sample(self, mask=None, probability=None):
        return int(self.np_random.integers(10))

    def contains(self, x):
        return isinstance(x, int)


def test_custom_spaces_fall_back_and_can_be_registered():
    space = Custom(seed=1)
    batched = gs_vector.batch_space(space, 2)
    assert type(batched) is Tuple and len(batched) == 2
    assert gs_vector.create_empty_array(space, 2) is None
    assert gs_vector.concatenate(space, [1, 2], None) == (1, 2)
    with pytest.raises(CustomSpaceError, match="doesn't have an registered `iterate` function"):
        gs_vector.iterate(space, [1, 2])

    class Registered(Custom):
        pass

    @gs_vector.iterate.register(Registered)
    def _(space, items):
        return iter(items[::-1])

    @gs_vector.batch_space.register(Registered)
    def _(space, n=1):
        return Box(0, 9, (n,), dtype=np.int64)

    assert list(gs_vector.iterate(Registered(), [1, 2])) == [2, 1]
    assert gs_vector.batch_space(Registered(), 3) == Box(0, 9, (3,), dtype=np.int64)
    # A registered child type makes Tuple iteration zip the children.
    assert list(gs_vector.iterate(Tuple((Registered(),)), ([1, 2],))) == [(2,), (1,)]


def test_custom_space_error_is_not_an_error_subclass():
    assert issubclass(CustomSpaceError, Exception) and not issubclass(CustomSpaceError, Error)
    assert CustomSpaceError.__name__ == gymnasium.error.CustomSpaceError.__name__


# --------------------------------------------------------------------------- batch_differing_spaces


DIFFERING = {
    "Box": lambda L: [L.Box(0, 1, (2,)), L.Box(-1, 2, (2,))],
    "Discrete": lambda L: [L.Discrete(3), L.Discrete(5, start=2, dtype=np.int32), L.Discrete(2, dtype=np.int16)],
    "MultiDiscrete": lambda L: [L.MultiDiscrete([2, 3]), L.MultiDiscrete([4, 5], start=[1, 1])],
    "MultiBinary": lambda L: [L.MultiBinary(3), L.MultiBinary(3)],
    "Tuple": lambda L: [L.Tuple((L.Discrete(2), L.Box(0, 1))), L.Tuple((L.Discrete(4), L.Box(0, 2)))],
    "Dict": lambda L: [L.Dict(a=L.Discrete(2), b=L.MultiBinary(2)), L.Dict(b=L.MultiBinary(2), a=L.Discrete(7))],
    "Text": lambda L: [L.Text(3), L.Text(5)],
    "Sequence": lambda L: [L.Sequence(L.Discrete(2)), L.Sequence(L.Discrete(3))],
    "Graph": lambda L: [L.Graph(L.Discrete(2), None), L.Graph(L.Discrete(3), None)],
    "OneOf": lambda L: [L.OneOf((L.Discrete(2),)), L.OneOf((L.Discrete(3),))],
}


@pytest.mark.parametrize("build", list(DIFFERING.values()), ids=list(DIFFERING))
def test_batch_differing_spaces_matches_gymnasium(build):
    for seed in range(5):
        gs_list, gym_list = build(GS), build(GYM)
        for i, (a, b) in enumerate(zip(gs_list, gym_list)):
            a.seed(seed + i), b.seed(seed + i)
        gs_batch = gs_vector.batch_differing_spaces(gs_list)
        gym_batch = gym_vector.batch_differing_spaces(gym_list)
        assert repr(gs_batch) == repr(gym_batch)
        assert_same_tree_states(gs_batch, gym_batch)
        for _ in range(3):
            assert_same_value(gs_batch.sample(), gym_batch.sample())


def test_batch_differing_copies_are_not_reseeded():
    texts = [Text(3, seed=1), Text(4, seed=2)]
    batched = gs_vector.batch_differing_spaces(texts)
    assert_same_generator_state(batched[1].np_random, np.random.default_rng(2))
    assert_same_generator_state(batched.np_random, np.random.default_rng(1))


class MyBox(Box):
    pass


@pytest.mark.parametrize(
    "build, error",
    [
        (lambda L: [], ValueError),
        (lambda L: [L.Discrete(2), L.Box(0, 1)], TypeError),
        (lambda L: [L.Box(0, 1, (2,)), L.Box(0, 1, (3,))], ValueError),
        (lambda L: [L.Box(0, 1, (2,)), L.Box(0, 1, (2,), np.float64)], ValueError),
        (lambda L: [L.MultiDiscrete([2]), L.MultiDiscrete([2, 3])], ValueError),
        (lambda L: [L.MultiDiscrete([2]), L.MultiDiscrete([2], dtype=np.int32)], ValueError),
        (lambda L: [L.MultiBinary(2), L.MultiBinary(3)], ValueError),
        (lambda L: [L.Dict(a=L.Discrete(2)), L.Dict(b=L.Discrete(2))], ValueError),
        (lambda L: [L.Tuple((L.Discrete(2),)), L.Tuple((L.Discrete(2), L.Discrete(2)))], ValueError),
        (lambda L: [L.Tuple((L.Discrete(2),)), L.Tuple((L.Box(0, 1),))], TypeError),
    ],
)
def test_batch_differing_errors_match_gymnasium(build, error):
    results = [outcome(lambda lib=lib: VECTOR[lib].batch_differing_spaces(build(lib))) for lib in (GS, GYM)]
    assert isinstance(results[0].error, error)
    assert_same_outcome(*results, same_warnings=False)


def test_batch_differing_requires_an_exactly_registered_type():
    with pytest.raises(TypeError, match="Requires the Space type to have a registered"):
        gs_vector.batch_differing_spaces([MyBox(0, 1), MyBox(0, 2)])


# --------------------------------------------------------------------------- iterate


def test_iterate_errors():
    with pytest.raises(TypeError, match="Unable to iterate over a space of type `Discrete`."):
        gs_vector.iterate(Discrete(3), [1, 2])
    with pytest.raises(TypeError, match="Unable to iterate over the following elements: 3"):
        gs_vector.iterate(Box(0, 1, (2,)), 3)
    for space in (Text(3), Graph(Discrete(2), None), Sequence(Discrete(2)), OneOf((Discrete(2),))):
        with pytest.raises(CustomSpaceError):
            gs_vector.iterate(space, [])
    with pytest.raises(CustomSpaceError, match="Could not iterate through"):
        gs_vector.iterate(Tuple((Text(3),)), 5)


def test_iterate_over_batches():
    batch = gs_vector.batch_space(Tuple((Discrete(3), Box(0, 1, (2,)))), 3)
    batch.seed(0)
    items = list(gs_vector.iterate(batch, batch.sample()))
    assert len(items) == 3 and all(type(item) is tuple and len(item) == 2 for item in items)
    texts = gs_vector.batch_space(Text(3), 2)
    assert list(gs_vector.iterate(texts, ("ab", "c"))) == ["ab", "c"]


def test_dict_iteration_defers_errors():
    iterator = gs_vector.iterate(Dict(a=Box(0, 1, (2,))), {})  # missing key: nothing raised yet
    with pytest.raises(KeyError):
        next(iterator)


@pytest.mark.parametrize(
    "build, items",
    [
        (lambda L: L.Tuple((L.Box(0, 1, (2,)), L.Box(0, 1, (2,)))), (np.zeros((2, 2)), np.zeros((3, 2)))),
        (lambda L: L.Dict(a=L.Box(0, 1, (2,)), b=L.Box(0, 1, (2,))), {"a": np.zeros((2, 2)), "b": np.zeros((3, 2))}),
        (lambda L: L.Dict(), {}),
        (lambda L: L.Tuple(()), ()),
    ],
)
def test_iterate_length_mismatches_match_gymnasium(build, items):
    results = [outcome(lambda lib=lib: list(VECTOR[lib].iterate(build(lib), items))) for lib in (GS, GYM)]
    assert_same_outcome(*results, same_warnings=False)


# --------------------------------------------------------------------------- concatenate / create_empty_array


@spaces
@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("fn", [np.zeros, np.ones])
def test_create_empty_array_and_concatenate_match_gymnasium(build, n, fn):
    gs_space, gym_space = build(GS), build(GYM)
    gs_space.seed(1), gym_space.seed(1)
    gs_out, gym_out = gs_vector.create_empty_array(gs_space, n, fn), gym_vector.create_empty_array(gym_space, n, fn)
    assert_same_value(gs_out, gym_out)
    items = [(gs_space.sample(), gym_space.sample()) for _ in range(n)]
    gs_cat = gs_vector.concatenate(gs_space, [a for a, _ in items], gs_out)
    gym_cat = gym_vector.concatenate(gym_space, [b for _, b in items], gym_out)
    assert_same_value(gs_cat, gym_cat)
    if isinstance(gs_out, np.ndarray):
        assert gs_cat is gs_out  # filled in place


def test_concatenate_of_nothing_raises():
    with pytest.raises(ValueError, match="need at least one array"):
        gs_vector.concatenate(Box(0, 1), [], np.zeros((0, 1), np.float32))


def test_create_empty_array_of_text_without_characters():
    empty = Text(3, charset="")
    assert gs_vector.create_empty_array(empty, 0) == ()
    with pytest.raises(IndexError):
        gs_vector.create_empty_array(empty, 1)


def test_deepcopy_of_batched_spaces():
    batched = gs_vector.batch_space(Dict(a=Discrete(3), b=Box(0, 1)), 2)
    batched.seed(3)
    clone = copy.deepcopy(batched)
    assert_same_value(clone.sample(), batched.sample())


def test_empty_tuple_batches_have_gymnasiums_identity():
    """Gymnasium builds Tuple batches from generators: on CPython 3.10 an empty one
    is then a new object, not the ``()`` singleton, and ``concatenate(...) is out`` shows it."""
    seen = {}
    for lib, vector in ((GS, gs_vector), (GYM, gym_vector)):
        space = lib.Tuple(())
        out = vector.create_empty_array(space, n=2)
        result = vector.concatenate(space, [(), ()], out)
        seen[lib] = (result == (), result is out, out is tuple())
    assert seen[GS] == seen[GYM]
