"""Gymnasium's helpers run gymspaces' compiled paths on compatible spaces.

Importing ``gymspaces.gymnasium`` registers the compatible classes with
Gymnasium's ``flatten`` family and vector helpers, patch mode's rules (so
``FlattenObservation`` and vector envs get gymspaces' kernels), lets the kernels treat each
compatible class as its gymspaces base, and hands Gymnasium spaces that
gymspaces does not know (custom children of a compatible composite) to
Gymnasium's helpers, where their registrations live. Results must stay
exactly Gymnasium's.
"""

from __future__ import annotations

import gymnasium
import gymnasium.spaces as gym_spaces
import gymnasium.spaces.utils as gym_utils
import gymnasium.vector.utils as gym_vector_utils
import numpy as np
import pytest
from test_gymnasium_compat import _same, _spaces

import gymspaces
from gymspaces import _kernel_wiring
from gymspaces.gymnasium import spaces as compat
from gymspaces.gymnasium.spaces import utils as compat_utils

NAMES = ("Box", "Discrete", "MultiBinary", "MultiDiscrete", "Text", "Tuple", "Dict", "Sequence", "Graph", "OneOf")


def _compat_classes_only(space):
    """Every space in the tree is a compatible class (none is a plain Gymnasium one)."""
    assert type(space).__module__ == "gymspaces.gymnasium.spaces", type(space)
    children = getattr(space, "spaces", ())
    for child in children.values() if isinstance(children, dict) else children:
        _compat_classes_only(child)
    for name in ("feature_space", "node_space", "edge_space"):
        if getattr(space, name, None) is not None:
            _compat_classes_only(getattr(space, name))


@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_dispatches_compatible_classes_to_gymspaces(name):
    ours, theirs = getattr(compat, name), getattr(gym_spaces, name)
    # Patch mode's helper rules (gymspaces' helper where the outcome is proven,
    # Gymnasium's own rule otherwise), answered in C by the dispatcher.
    for gymnasium_helper, gymspaces_helper in [
        (gym_utils.flatten, gymspaces.utils.flatten),
        (gym_utils.unflatten, gymspaces.utils.unflatten),
        (gym_vector_utils.concatenate, gymspaces.vector.concatenate),
        (gym_vector_utils.iterate, gymspaces.vector.iterate),
        (gym_vector_utils.create_shared_memory, gymspaces.vector.create_shared_memory),
    ]:
        if theirs in gymnasium_helper.registry:  # (else Gymnasium's default rule: iterate of a Text)
            assert gymnasium_helper.dispatch(ours).__wrapped__ is gymspaces_helper
        else:
            assert gymnasium_helper.dispatch(ours) is gymnasium_helper.dispatch(theirs)
    # The helpers that build spaces run Gymnasium's own rule; the spaces come back compatible.
    assert gym_utils.flatten_space.dispatch(ours).__wrapped__ is gym_utils.flatten_space.dispatch(theirs)
    assert _kernel_wiring.ACTIVE[ours] is getattr(gymspaces, name)  # the kernels take it as its base


@pytest.mark.parametrize("kind", ["Box", "BoxInt", "MultiDiscrete", "Text", "Tuple", "Dict", "OneOf", "Graph"])
def test_batch_space_gives_compatible_spaces_drawing_gymnasiums_numbers(kind):
    ours, theirs = _spaces(compat)[kind], _spaces(gym_spaces)[kind]
    ours.seed(8)
    theirs.seed(8)
    batched = gym_vector_utils.batch_space(ours, 4)
    gym_batched = gym_vector_utils.batch_space(theirs, 4)
    _compat_classes_only(batched)
    assert batched == gym_batched and repr(batched) == repr(gym_batched)
    for _ in range(3):
        _same(batched.sample(), gym_batched.sample())


def test_registering_a_rule_for_a_compatible_class_takes_it_off_the_kernels():
    flatten = gymspaces.utils.flatten
    space, x = compat.Dict(a=compat.Discrete(3)), {"a": np.int64(1)}
    expected = flatten(gymspaces.Dict(a=gymspaces.Discrete(3)), x)
    rule = flatten.dispatch(gymspaces.Dict)
    assert flatten.dispatch(compat.Dict) is rule and compat.Dict in _kernel_wiring.ACTIVE
    calls = []

    def counting(space, x):
        calls.append(x)
        return rule(space, x)

    flatten.register(compat.Dict, counting)
    try:
        assert compat.Dict not in _kernel_wiring.ACTIVE
        _same(flatten(space, x), expected)
        assert calls == [x]  # the registered rule ran, not the kernel
    finally:
        flatten.register(compat.Dict, rule)
    assert compat.Dict in _kernel_wiring.ACTIVE
    _same(flatten(space, x), expected)
    assert len(calls) == 1


class Coin(gym_spaces.Space):
    """A custom Gymnasium space whose flatten rules are registered with Gymnasium only."""

    def __init__(self, seed=None):
        super().__init__((), np.int64, seed)

    def sample(self, mask=None, probability=None):
        return np.int64(self.np_random.integers(2))

    def contains(self, x):
        return x in (0, 1)

    @property
    def is_np_flattenable(self):
        return True


@gym_utils.flatdim.register(Coin)
def _coin_flatdim(space):
    return 2


@gym_utils.flatten.register(Coin)
def _coin_flatten(space, x):
    return np.eye(2, dtype=np.int64)[x]


@gym_utils.unflatten.register(Coin)
def _coin_unflatten(space, x):
    return np.int64(np.argmax(x))


def test_custom_gymnasium_children_keep_their_gymnasium_rules():
    ours = compat.Dict(coin=Coin(seed=1), pos=compat.Box(-1, 1, (2,), seed=2))
    theirs = gym_spaces.Dict(coin=Coin(seed=1), pos=gym_spaces.Box(-1, 1, (2,), seed=2))
    assert ours["coin"].__class__ is Coin  # kept as it is
    x = theirs.sample()
    flat = gym_utils.flatten(theirs, x)
    for flatten in (gym_utils.flatten, gymspaces.utils.flatten, compat.flatten):
        _same(flatten(ours, x), flat)
    assert gym_utils.flatdim(ours) == gymspaces.utils.flatdim(ours) == gym_utils.flatdim(theirs) == 4
    _same(gym_utils.unflatten(ours, flat), gym_utils.unflatten(theirs, flat))


def test_unknown_spaces_fail_as_in_gymnasium_without_looping():
    class Bare(compat.Text):  # a subclass: Gymnasium sends it to gymspaces, which has no iterate rule
        pass

    with pytest.raises(gymnasium.error.CustomSpaceError):
        list(gym_vector_utils.iterate(Bare(3), ["abc"]))

    class Unregistered(gym_spaces.Space):
        pass

    with pytest.raises(NotImplementedError):
        gym_utils.flatten(compat.Tuple([Unregistered()]), (0,))
    with pytest.raises(NotImplementedError):
        gymspaces.utils.flatten(Unregistered(), 0)


def test_gymspaces_helpers_accept_plain_gymnasium_spaces():
    space = gym_spaces.Dict(a=gym_spaces.Discrete(3), b=gym_spaces.Box(0, 1, (2,)), seed=3)
    x = space.sample()
    _same(gymspaces.utils.flatten(space, x), gym_utils.flatten(space, x))
    assert gymspaces.utils.flatdim(space) == gym_utils.flatdim(space)
    assert gymspaces.vector.batch_space(space, 2) == gym_vector_utils.batch_space(space, 2)


def test_plain_gymspaces_keep_their_own_rules():
    """Nothing registered for the compatible classes leaks onto plain gymspaces spaces."""
    space = gymspaces.Dict(a=gymspaces.Discrete(3), b=gymspaces.Box(0, 1, (2,)), seed=3)
    batched = gymspaces.vector.batch_space(space, 2)
    assert type(batched) is gymspaces.Dict and type(batched["a"]) is gymspaces.MultiDiscrete
    for cls in (gymspaces.Dict, gymspaces.Box, gymspaces.Discrete):
        assert gymspaces.utils.flatten.dispatch(cls).__module__ == "gymspaces._flattening"  # the built-in rules


def _with_graphs(lib):
    """Spaces whose flat or unflattened values may hold graph samples, and trees that cannot."""
    spaces = _spaces(lib)
    spaces["DictOfGraph"] = lib.Dict(g=lib.Graph(lib.Box(-1, 1, (2,)), lib.Discrete(3)), b=lib.Box(0, 1, (2,)))
    spaces["TupleOfGraph"] = lib.Tuple((lib.Discrete(3), lib.Graph(lib.Box(-1, 1, (2,)), None)))
    spaces["Dict4"] = lib.Dict(
        position=lib.Box(-1, 1, (3,)), velocity=lib.Box(-1, 1, (3,)), mode=lib.Discrete(5),
        buttons=lib.MultiDiscrete([3, 4]),
    )
    spaces["Float32Dict"] = lib.Dict(a=lib.Box(-1, 1, (3,)), b=lib.Box(0, 1, (2, 2)))
    return spaces


@pytest.mark.parametrize("kind", list(_with_graphs(gymspaces)))
def test_compiled_compatible_flatten_matches_compat_utils(kind):
    ours, theirs = _with_graphs(compat)[kind], _with_graphs(gym_spaces)[kind]
    ours.seed(5)
    theirs.seed(5)
    for _ in range(3):
        x, gym_x = ours.sample(), theirs.sample()
        flat = gym_utils.flatten(ours, x)
        gym_flat = gym_utils.flatten(theirs, gym_x)
        _same(flat, gym_flat)
        _same(flat, compat_utils.flatten(ours, x))
        back = gym_utils.unflatten(ours, flat)
        _same(back, gym_utils.unflatten(theirs, gym_flat))
        _same(back, compat_utils.unflatten(ours, flat))
        # Graph samples come back as Gymnasium's GraphInstance (the compatible one).
        for value in (flat, back):
            graphs = list(_graph_samples(value))
            assert ("Graph" in kind) == bool(graphs), (kind, value)
            assert all(isinstance(graph, gymnasium.spaces.GraphInstance) for graph in graphs), value


def _graph_samples(value):
    """The graph samples (GraphInstance of either library) in a flat or unflattened value."""
    if type(value).__name__ == "GraphInstance":
        return [value]
    parts = value.values() if isinstance(value, dict) else value if isinstance(value, tuple) else ()
    return [graph for part in parts for graph in _graph_samples(part)]
