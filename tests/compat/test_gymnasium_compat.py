"""gymspaces.gymnasium.spaces: classes that are Gymnasium spaces and sample with gymspaces.

Real Gymnasium clients (check_env, FlattenObservation, Sync/AsyncVectorEnv
with shared memory, the flatten and vector helpers) run on compatible spaces
and must give exactly what they give on Gymnasium's own spaces.
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import warnings
from functools import partial

import gymnasium
import gymnasium.spaces as gym_spaces
import gymnasium.spaces.utils as gym_utils
import gymnasium.vector.utils as gym_vector_utils
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv
from gymnasium.wrappers import FlattenObservation
from support.differential import assert_same_value
from support.gymnasium_envs import DemoEnv
from support.spaces_corpus import CoinSpace

import gymspaces
from gymspaces.gymnasium import spaces as compat

LEAVES = ("Box", "Discrete", "MultiBinary", "MultiDiscrete", "Text")
COMPOSITES = ("Tuple", "Dict", "Sequence", "Graph", "OneOf")


def _spaces(lib):
    """One instance of every space kind (and composite variants), built with ``lib``."""
    return {
        "Box": lib.Box(-1, 1, (3,)),
        "BoxInt": lib.Box(0, 255, (2, 2), np.uint8),
        "Discrete": lib.Discrete(5, start=-2),
        "MultiBinary": lib.MultiBinary([2, 3]),
        "MultiDiscrete": lib.MultiDiscrete([2, 3, 4]),
        "Text": lib.Text(6, min_length=1),
        "Tuple": lib.Tuple([lib.Box(-1, 1, (2,)), lib.Discrete(3)]),
        "Dict": lib.Dict(
            {"b": lib.Box(0, 1, (2,)), "a": lib.MultiBinary(3), "t": lib.Tuple([lib.Discrete(2)])}
        ),
        "Sequence": lib.Sequence(lib.Discrete(4)),
        "SequenceStacked": lib.Sequence(lib.Box(-1, 1, (2,)), stack=True),
        "Graph": lib.Graph(lib.Box(-1, 1, (2,)), lib.Discrete(3)),
        "GraphNoEdges": lib.Graph(lib.Box(-1, 1, (2,)), None),
        "OneOf": lib.OneOf([lib.Discrete(2), lib.Box(-1, 1, (2,))]),
    }


KINDS = list(_spaces(gymspaces))


def _same(a, b):
    """Equal values of equal types: ``assert_same_value`` (dtype, shape and bytes; a
    GraphInstance of either library), which also records Gymnasium's side ``b``."""
    assert_same_value(a, b)


def _compat_tree(space):
    """Every space of a compatible tree is a compatible class."""
    assert type(space).__module__ == "gymspaces.gymnasium.spaces", type(space)
    for attribute in ("spaces",):
        children = getattr(space, attribute, None)
        if isinstance(children, dict):
            children = children.values()
        for child in children or ():
            _compat_tree(child)
    for attribute in ("feature_space", "stacked_feature_space", "node_space", "edge_space",
                      "batch_node_space", "batch_edge_space"):
        child = getattr(space, attribute, None)
        if child is not None:
            _compat_tree(child)


# --------------------------------------------------------------------------- classes


@pytest.mark.parametrize("kind", KINDS)
def test_instances_of_both_libraries_with_gymnasium_repr(kind):
    space, gym_space = _spaces(compat)[kind], _spaces(gym_spaces)[kind]
    assert isinstance(space, type(gym_space)) and isinstance(space, gym_spaces.Space)
    assert isinstance(space, getattr(gymspaces, type(gym_space).__name__))
    assert isinstance(space, compat.Space) and isinstance(space, gymspaces.Space)
    assert repr(space) == repr(gym_space) and str(space) == str(gym_space)
    _compat_tree(space)


def test_gymnasiums_methods_with_patch_modes_entries():
    """A compatible class is its gymspaces namesake (isinstance) whose methods are
    the installed Gymnasium's own, but ``sample`` and ``contains``: patch mode's
    entries, which run gymspaces' kernels where the outcome is provably Gymnasium's."""
    for name in LEAVES + COMPOSITES:
        cls, theirs = getattr(compat, name), getattr(gym_spaces, name)
        mro = cls.__mro__
        assert mro[1] is getattr(gymspaces, name)
        assert issubclass(cls, theirs) and issubclass(cls, gymspaces.Space)
        for method in ("seed", "to_jsonable", "__repr__"):
            assert getattr(cls, method) is getattr(theirs, method), (name, method)
        assert cls.np_random is gym_spaces.Space.np_random
        for method in ("sample", "contains"):
            entry = vars(cls)[method]
            if name == "Graph" and method == "contains":  # takes gymspaces' GraphInstance too
                continue
            assert entry.__module__ == "gymspaces.gymnasium._entries", (name, method)
            assert entry.__doc__ == getattr(theirs, method).__doc__


@pytest.mark.parametrize(
    "call",
    [
        lambda: compat.Box(0.0, 1.0, (3,)).sample(mask=np.ones(3, np.int8)),
        lambda: compat.Dict(a=compat.Box(0.0, 1.0, (3,))).sample(mask={"a": np.ones(3, np.int8)}),
        lambda: compat.Discrete(3, seed=-1),
        lambda: compat.Graph(compat.Box(0.0, 1.0, (2,)), compat.Discrete(3), seed=0).sample(
            mask=(np.ones(2, np.int8), None)
        ),
    ],
    ids=["box-mask", "dict-child-mask", "negative-seed", "graph-node-mask"],
)
def test_errors_are_gymnasiums_classes(call):
    """A compatible space is a Gymnasium space: ``except gymnasium.error.Error`` catches its errors."""
    with pytest.raises(gymnasium.error.Error) as raised:
        call()
    assert type(raised.value) is gymnasium.error.Error


@pytest.mark.parametrize("kind", KINDS)
def test_same_stream_as_gymnasium(kind):
    space, gym_space = _spaces(compat)[kind], _spaces(gym_spaces)[kind]
    assert space.seed(7) == gym_space.seed(7)
    for _ in range(5):
        ours, theirs = space.sample(), gym_space.sample()
        _same(ours, theirs)
        assert space.contains(theirs) and gym_space.contains(ours)
        assert theirs in space and ours in gym_space


@pytest.mark.parametrize("kind", KINDS)
def test_equality_across_libraries(kind):
    space = _spaces(compat)[kind]
    for other in (_spaces(gym_spaces)[kind], _spaces(gymspaces)[kind], _spaces(compat)[kind]):
        assert space == other and other == space
        assert not (space != other) and not (other != space)
    different = _spaces(gym_spaces)["Discrete" if kind != "Discrete" else "Box"]
    assert space != different and different != space
    assert space != object()


def test_box_equality_compares_bounds():
    assert compat.Box(0, 1, (2,)) == gym_spaces.Box(0, 1, (2,))
    assert gym_spaces.Box(0, 1, (2,)) == compat.Box(0, 1, (2,))
    assert compat.Box(0, 1, (2,)) != gym_spaces.Box(0, 2, (2,))
    assert gymspaces.Box(0, 1, (2,)) != compat.Box(0, 1, (3,))
    with pytest.raises(TypeError):
        hash(compat.Box(0, 1))


@pytest.mark.parametrize("kind", KINDS)
def test_pickle_and_deepcopy_continue_the_stream(kind):
    space = _spaces(compat)[kind]
    space.seed(3)
    space.sample()
    for clone in (pickle.loads(pickle.dumps(space)), copy.deepcopy(space)):
        assert type(clone) is type(space) and clone == space
        _compat_tree(clone)
        reference = copy.deepcopy(space)
        for _ in range(3):
            _same(clone.sample(), reference.sample())


def test_unpickled_in_a_fresh_process():
    spaces = _spaces(compat)
    for index, space in enumerate(spaces.values()):
        space.seed(index)
    expected = [repr(copy.deepcopy(space).sample()) for space in spaces.values()]
    script = (
        "import pickle, sys\n"
        "spaces = pickle.loads(sys.stdin.buffer.read())\n"
        "assert all(type(s).__module__ == 'gymspaces.gymnasium.spaces' for s in spaces)\n"
        "import gymnasium.spaces as g\n"
        "assert all(isinstance(s, g.Space) for s in spaces)\n"
        "print('\\n'.join(repr(s.sample()).replace('\\n', ' ') for s in spaces))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=pickle.dumps(list(spaces.values())),
        capture_output=True,
        check=True,
    )
    assert done.stdout.decode().splitlines() == [line.replace("\n", " ") for line in expected]


def test_graph_instances():
    space = compat.Graph(compat.Box(-1, 1, (2,)), compat.Discrete(3), seed=1)
    graph = space.sample(num_nodes=4)
    assert isinstance(graph, gym_spaces.GraphInstance) and isinstance(graph, gymspaces.GraphInstance)
    assert repr(graph).startswith("GraphInstance(nodes=")
    plain = gym_spaces.GraphInstance(*graph)
    assert plain in space and gymspaces.GraphInstance(*graph) in space
    clone = pickle.loads(pickle.dumps(graph))
    assert type(clone) is compat.GraphInstance
    _same(clone, graph)
    # Gymnasium's own Graph accepts our samples.
    assert graph in gym_spaces.Graph(gym_spaces.Box(-1, 1, (2,)), gym_spaces.Discrete(3))


# ----------------------------------------------------------------- composite children


def test_compatible_children_are_kept():
    box, discrete = compat.Box(0, 1), compat.Discrete(2)
    assert compat.Tuple([box, discrete])[0] is box
    assert compat.Dict(a=box)["a"] is box
    assert compat.OneOf([box, discrete])[1] is discrete
    assert compat.Sequence(box).feature_space is box
    assert compat.Graph(box, discrete).edge_space is discrete


@pytest.mark.parametrize("lib", [gymspaces, gym_spaces], ids=["gymspaces", "gymnasium"])
def test_plain_children_become_compatible_views(lib):
    """A plain child is replaced by a compatible view sharing its generator:
    the composite draws exactly what it would draw from the plain child."""
    child = lib.Box(-1, 1, (2,), seed=5)
    for composite in (
        compat.Tuple([child]),
        compat.Dict(x=child),
        compat.OneOf([child]),
        compat.Sequence(child),
        compat.Graph(child, None),
    ):
        _compat_tree(composite)
    tuple_space = compat.Tuple([child, lib.Discrete(3, seed=6)], seed=None)
    view = tuple_space[0]
    assert view is not child and view == child and type(view) is compat.Box
    assert view.np_random is child.np_random and view.low is child.low
    reference = gym_spaces.Tuple([gym_spaces.Box(-1, 1, (2,), seed=5), gym_spaces.Discrete(3, seed=6)])
    # The plain child and the composite share one stream, as with Gymnasium.
    child.sample()
    reference[0].sample()
    _same(tuple_space.sample(), reference.sample())
    dict_space = compat.Dict()
    dict_space["y"] = lib.Discrete(4)
    assert type(dict_space["y"]) is compat.Discrete


def test_custom_gymnasium_children_are_kept():
    class Coin(CoinSpace, gym_spaces.Space):
        pass

    coin = Coin(seed=1)
    space = compat.Dict(c=coin, b=compat.Discrete(2), seed=2)
    assert space["c"] is coin
    assert space.sample()["c"] in (0, 1) and {"b": np.int64(0), "c": 1} in space
    assert compat.Tuple([coin])[0] is coin
    assert all(x in (0, 1) for x in compat.Sequence(coin, seed=0).sample())
    # Stacked as Gymnasium stacks it (its batch_space rule for a custom space).
    stacked, reference = compat.Sequence(coin, stack=True, seed=3), gym_spaces.Sequence(Coin(seed=1), stack=True, seed=3)
    assert type(stacked.stacked_feature_space) is type(reference.stacked_feature_space)
    assert stacked.sample() == reference.sample()
    with pytest.raises(TypeError, match="does not inherit"):
        compat.Tuple([3])
    with pytest.raises(TypeError, match="not an instance of Space"):
        compat.Dict(a=3)


def test_plain_composites_accept_compatible_children():
    children = [compat.Box(-1, 1, (2,), seed=1), compat.Discrete(3, seed=2)]
    gym_tuple, gs_tuple = gym_spaces.Tuple(children), gymspaces.Tuple(children)
    assert gym_tuple[0] is children[0] and gs_tuple[0] is children[0]
    reference = [gym_spaces.Box(-1, 1, (2,), seed=1), gym_spaces.Discrete(3, seed=2)]
    _same(gym_tuple.sample(), (reference[0].sample(), reference[1].sample()))


def test_constructor_errors_match_gymnasium():
    with pytest.raises(ValueError, match="Empty `OneOf`"):
        compat.OneOf([])
    with pytest.raises(TypeError, match="is not an iterable"):
        compat.OneOf(3)
    with pytest.raises(ValueError, match="already exists"):
        compat.Dict({"a": compat.Discrete(2)}, a=compat.Discrete(3))
    with pytest.raises(TypeError, match="feature space"):
        compat.Sequence(3)


def test_seeding_composites_matches_gymnasium():
    ours, theirs = _spaces(compat), _spaces(gym_spaces)
    for kind in ("Tuple", "Dict", "Sequence", "Graph", "OneOf"):
        assert repr(ours[kind].seed(11)) == repr(theirs[kind].seed(11))
        _same(ours[kind].sample(), theirs[kind].sample())


# -------------------------------------------------------------- Gymnasium's helpers


def test_gymnasium_flatten_helpers_on_compatible_spaces():
    ours, theirs = _spaces(compat), _spaces(gym_spaces)
    for kind in KINDS:
        space, gym_space = ours[kind], theirs[kind]
        gym_space.seed(2)
        x = gym_space.sample()
        flat = gym_utils.flatten(gym_space, x)
        for flatten in (gym_utils.flatten, compat.flatten, compat.utils.flatten):
            _same(flatten(space, x), flat)
        if gym_space.is_np_flattenable:
            assert gym_utils.flatdim(space) == compat.flatdim(space) == gym_utils.flatdim(gym_space)
            assert compat.flatten_space(space) == gym_utils.flatten_space(gym_space)
            assert gym_utils.flatten_space(space) == gym_utils.flatten_space(gym_space)
            _compat_tree(compat.flatten_space(space))
        back = gym_utils.unflatten(gym_space, flat)
        _same(gym_utils.unflatten(space, flat), back)
        _same(compat.unflatten(space, flat), back)
        assert compat.unflatten(space, flat) in space


def test_flatten_space_is_unseeded_like_gymnasium():
    space = compat.Dict(a=compat.Box(-1, 1, (2, 2), seed=3), b=compat.Discrete(3, seed=4))
    flat = compat.flatten_space(space)
    assert flat._np_random is None and gym_utils.flatten_space(space)._np_random is None
    assert flat == gym_utils.flatten_space(space)
    flat.seed(5)
    gym_flat = gym_utils.flatten_space(space)
    gym_flat.seed(5)
    _same(flat.sample(), gym_flat.sample())


def test_gymnasium_vector_helpers_on_compatible_spaces():
    ours, theirs = _spaces(compat), _spaces(gym_spaces)
    for kind in KINDS:
        space, gym_space = ours[kind], theirs[kind]
        space.seed(4)
        gym_space.seed(4)
        batched, gym_batched = (
            gym_vector_utils.batch_space(space, 3),
            gym_vector_utils.batch_space(gym_space, 3),
        )
        assert batched == gym_batched
        _same(batched.sample(), gym_batched.sample())
        items = [space.sample() for _ in range(3)]
        out = gym_vector_utils.create_empty_array(space, 3)
        gym_out = gym_vector_utils.create_empty_array(gym_space, 3)
        _same(out, gym_out)
        joined = gym_vector_utils.concatenate(space, items, out)
        _same(joined, gym_vector_utils.concatenate(gym_space, items, gym_out))
        for one, two in zip(gym_vector_utils.iterate(batched, joined), items):
            _same(one, two)
    differing = gym_vector_utils.batch_differing_spaces([compat.Discrete(3), compat.Discrete(5)])
    assert differing == gym_spaces.MultiDiscrete([3, 5])


def test_gymnasium_shared_memory_on_compatible_spaces():
    space = DemoEnv("compat").observation_space
    space.seed(1)
    memory = gym_vector_utils.create_shared_memory(space, n=2)
    samples = [space.sample(), space.sample()]
    for index, sample in enumerate(samples):
        gym_vector_utils.write_to_shared_memory(space, index, sample, memory)
    read = gym_vector_utils.read_from_shared_memory(space, memory, n=2)
    for index, sample in enumerate(samples):
        _same(read["position"][index], sample["position"])
        _same(read["pair"][1][index], sample["pair"][1])
    joined = gym_vector_utils.concatenate(
        space, samples, gym_vector_utils.create_empty_array(space, 2)
    )
    _same(read, joined)


# ------------------------------------------------------------------------ real envs


def _rollout(env, steps=8, seed=3):
    """reset(seed) then ``steps`` steps with actions sampled from a seeded action space."""
    results = [env.reset(seed=seed)]
    env.action_space.seed(seed + 1)
    for _ in range(steps):
        results.append(env.step(env.action_space.sample()))
    return results


@pytest.mark.parametrize("action", ["discrete", "box"])
def test_check_env_passes_with_the_same_warnings(action):
    messages = {}
    for library in ("compat", "gymnasium"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(DemoEnv(library, action))
        messages[library] = [str(w.message) for w in caught]
    assert messages["compat"] == messages["gymnasium"]


@pytest.mark.parametrize("action", ["discrete", "box"])
def test_env_rollout_matches_gymnasium(action):
    ours, theirs = DemoEnv("compat", action), DemoEnv("gymnasium", action)
    assert isinstance(ours.observation_space, gym_spaces.Dict)
    _same(_rollout(ours, 12), _rollout(theirs, 12))


def test_flatten_observation_wrapper():
    ours, theirs = FlattenObservation(DemoEnv("compat")), FlattenObservation(DemoEnv("gymnasium"))
    assert ours.observation_space == theirs.observation_space
    _same(_rollout(ours), _rollout(theirs))


def test_sync_vector_env():
    ours = SyncVectorEnv([partial(DemoEnv, "compat")] * 2)
    theirs = SyncVectorEnv([partial(DemoEnv, "gymnasium")] * 2)
    assert ours.single_observation_space == theirs.single_observation_space
    _same(_rollout(ours, 10), _rollout(theirs, 10))
    ours.close()
    theirs.close()


def test_sync_vector_env_with_differing_spaces():
    ours = SyncVectorEnv([partial(DemoEnv, "compat")] * 2, observation_mode="different")
    theirs = SyncVectorEnv([partial(DemoEnv, "gymnasium")] * 2, observation_mode="different")
    assert ours.observation_space == theirs.observation_space
    _same(_rollout(ours, 4), _rollout(theirs, 4))


def test_async_vector_env_with_shared_memory_spawn():
    reference = SyncVectorEnv([partial(DemoEnv, "gymnasium", "box")] * 2)
    expected = _rollout(reference, 5)
    reference.close()
    env = AsyncVectorEnv(
        [partial(DemoEnv, "compat", "box")] * 2, shared_memory=True, context="spawn"
    )
    try:
        assert type(env.single_observation_space) is compat.Dict
        _same(_rollout(env, 5), expected)
    finally:
        env.close()


def test_gymnasium_make_with_compatible_spaces():
    gymnasium.register("GymspacesDemo-v0", entry_point=DemoEnv, kwargs={"library": "compat"})
    try:
        env = gymnasium.make("GymspacesDemo-v0")
        reference = gymnasium.make("GymspacesDemo-v0", library="gymnasium")
        _same(_rollout(env), _rollout(reference))
    finally:
        gymnasium.registry.pop("GymspacesDemo-v0", None)
