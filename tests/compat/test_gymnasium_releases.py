"""gymspaces.gymnasium on every supported Gymnasium release, 0.29.1 to 1.4.0.

Each test reads the installed ``gymnasium.__version__`` (and what the release
has: ``OneOf`` or not) and asserts what must hold on that release; none is
skipped. Run them under each release (CI's release matrix)::

    pytest tests/compat/test_gymnasium_releases.py
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import textwrap
import warnings

import gymnasium
import numpy as np
import pytest

import gymspaces
import gymspaces.gymnasium as gsg
import gymspaces.space
from gymspaces.gymnasium import from_gymnasium, is_compiled, to_gymnasium
from gymspaces.gymnasium._patch import VERIFIED_GYMNASIUM

G = gymnasium.spaces
VERSION = gymnasium.__version__
VERIFIED = VERSION in VERIFIED_GYMNASIUM
ALL_NAMES = ("Box", "Discrete", "MultiBinary", "MultiDiscrete", "Text", "Tuple", "Dict", "Sequence", "Graph", "OneOf")
PRESENT = tuple(name for name in ALL_NAMES if isinstance(getattr(G, name, None), type))
RELEASE_1 = int(VERSION.split(".")[0]) >= 1

# Releases before 1.4.0 draw some kinds with other generator calls than 1.4.0
# (which gymspaces' own classes follow; patch mode follows the release). 0.29: Text's characters with ``choice``,
# Sequence's lengths and Graph's edge counts differently. Before 1.4.0: Graph
# (1.4.0 samples nodes and edges through its batched spaces). 1.0.0: Text
# (1.1.0 changed the draw). Those are compared by structure only there; the
# other kinds give the same values.
_RELEASE = tuple(int(part) for part in VERSION.split(".")[:2])
SAME_STREAM = set(PRESENT)
if _RELEASE < (1, 0):
    SAME_STREAM -= {"Text", "Sequence", "Graph"}
if _RELEASE < (1, 4):
    SAME_STREAM -= {"Graph"}
if _RELEASE < (1, 1):
    SAME_STREAM -= {"Text"}


def _space(lib, name, seed=None):
    """A space of kind ``name`` from ``lib`` (gymnasium.spaces or gymspaces)."""
    if name == "Box":
        return lib.Box(-1.0, 2.0, (3,), seed=seed)
    if name == "Discrete":
        return lib.Discrete(5, start=-2, seed=seed)
    if name == "MultiBinary":
        return lib.MultiBinary(4, seed=seed)
    if name == "MultiDiscrete":
        return lib.MultiDiscrete([3, 4], seed=seed)
    if name == "Text":
        return lib.Text(6, charset="abcd", seed=seed)
    if name == "Tuple":
        return lib.Tuple((lib.Discrete(3), lib.Box(0, 1, (2,))), seed=seed)
    if name == "Dict":
        return lib.Dict({"b": lib.Discrete(3), "a": lib.MultiBinary(2)}, seed=seed)
    if name == "Sequence":
        return lib.Sequence(lib.Discrete(4), seed=seed)
    if name == "Graph":
        return lib.Graph(node_space=lib.Box(0, 1, (2,)), edge_space=lib.Discrete(3), seed=seed)
    if name == "OneOf":
        return lib.OneOf((lib.Discrete(2), lib.Box(-1, 1, (2,))), seed=seed)
    raise AssertionError(name)


GRAPHS = (G.GraphInstance, gymspaces.GraphInstance)


def _same(a, b):
    """Equal samples (arrays, scalars, strings, tuples, dicts, graphs)."""
    if isinstance(a, GRAPHS) or isinstance(b, GRAPHS):
        return all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple) and not isinstance(a, np.ndarray):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is b
    return np.array_equal(np.asarray(a), np.asarray(b)) and np.asarray(a).dtype == np.asarray(b).dtype


def _structure(sample):
    """What a sample is made of, values aside: types, shapes, dtypes, keys."""
    if isinstance(sample, GRAPHS):
        return ("graph", sample.nodes.dtype.str, sample.nodes.shape[1:])  # a graph may be drawn without edges
    if isinstance(sample, dict):
        return {key: _structure(value) for key, value in sample.items()}
    if isinstance(sample, tuple):
        return ("tuple", len(sample))  # Sequence lengths are drawn too
    if isinstance(sample, str):
        return "str"
    array = np.asarray(sample)
    return (array.dtype.str, array.shape)


def _clean_env():
    env = dict(os.environ)
    for name in ("GYMSPACES_PATCH", "GYMSPACES_PATCH_UNVERIFIED", "GYMSPACES_TEST_PATCHED"):
        env.pop(name, None)
    return env


def _run(args, tmp_path, env=None):
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=tmp_path, env=env or _clean_env(), timeout=300
    )


# ------------------------------------------------------------------ import


def test_import_and_what_exists():
    assert sorted(gsg.__all__) == sorted(
        ["from_gymnasium", "to_gymnasium", "patch", "unpatch", "is_patched", "patched", "is_compiled",
         "plain_reason", "report", "VERIFIED_GYMNASIUM"]
    )
    # The releases patch mode is verified on, as patching.md and patch()'s docstring name it.
    assert gsg.VERIFIED_GYMNASIUM == ("0.29.1", "1.0.0", "1.1.1", "1.2.2", "1.3.0", "1.4.0")
    for name in ALL_NAMES:
        assert hasattr(gymspaces, name)  # gymspaces' own classes are all there, whatever the release
    if not RELEASE_1:
        assert "OneOf" not in PRESENT


# ------------------------------------------------------------------- patch

PATCH_PROBE = textwrap.dedent(
    """
    import json, warnings
    import gymnasium
    original = gymnasium.spaces.Box.sample
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from gymspaces.gymnasium import is_patched, patch, unpatch
        patch()
        patch()
    result = {
        "warnings": [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)],
        "patched": is_patched(),
        "original": gymnasium.spaces.Box.sample is original,
    }
    unpatch()
    result["restored"] = gymnasium.spaces.Box.sample is original
    print(json.dumps(result))
    """
)


def test_patch_on_this_release(tmp_path):
    completed = _run(["-c", PATCH_PROBE], tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    result = json.loads(completed.stdout)
    if VERIFIED:
        assert result == {"warnings": [], "patched": True, "original": False, "restored": True}
    else:  # one warning, Gymnasium untouched
        assert len(result["warnings"]) == 1 and VERSION in result["warnings"][0], result
        assert "unpatched" in result["warnings"][0]
        assert result["patched"] is False and result["original"] is True and result["restored"] is True


def _snapshot():
    """Everything patch() may change: the classes' methods and the helpers' registries."""
    import gymnasium.spaces.utils as gym_utils
    import gymnasium.vector.utils as gym_vector

    classes = {name: dict(vars(getattr(G, name))) for name in PRESENT}
    classes["Space"] = dict(vars(G.Space))
    helpers = {}
    for module in (gym_utils, gym_vector):
        for name in dir(module):
            helper = getattr(module, name)
            if hasattr(helper, "registry") and hasattr(helper, "register"):
                helpers[f"{module.__name__}.{name}"] = dict(helper.registry)
    return classes, helpers


def _identical(before, after):
    for (name, old), new in zip(before.items(), after.values()):
        assert old.keys() == new.keys(), name
        for key in old:
            assert old[key] is new[key], (name, key)


@pytest.mark.usefixtures("unpatched")
def test_unverified_patch_and_unpatch_restore_exactly():
    import gymnasium.spaces.utils as gym_utils
    import gymnasium.vector.utils as gym_vector

    classes, helpers = _snapshot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the opt-in warning (once per process)
        gsg.patch(unverified=True)
    try:
        assert gsg.is_patched()
        for name in PRESENT:
            assert getattr(G, name).__dict__["sample"] is not classes[name]["sample"], name
            space = _space(G, name, seed=1)
            for _ in range(3):
                sample = space.sample()
                assert space.contains(sample), name
            if name != "Graph":  # flattening keeps working, compiled or not
                flat = gym_utils.flatten(space, sample)
                if name not in ("Sequence",):
                    assert _same(gym_utils.unflatten(space, flat), sample) or name in ("Text",), name
        box = G.Box(0, 1, (2,), seed=0)
        items = [box.sample() for _ in range(3)]
        out = gym_vector.create_empty_array(box, 3)
        gym_vector.concatenate(box, items, out)
        assert np.array_equal(out, np.stack(items))
        assert all(np.array_equal(a, b) for a, b in zip(gym_vector.iterate(gym_vector.batch_space(box, 3), out), items))
    finally:
        gsg.unpatch()
    assert not gsg.is_patched()
    classes_after, helpers_after = _snapshot()
    _identical(classes, classes_after)
    _identical(helpers, helpers_after)


@pytest.mark.usefixtures("unpatched")
def test_release_rules_say_what_runs_plain():
    """Patched, the common spaces run compiled on every release, and those that meet
    a difference of this release from 1.4.0 run Gymnasium's code, saying why."""
    from gymspaces.gymnasium import plain_reason

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the opt-in warning, if unverified
        gsg.patch(unverified=True)
    try:
        common = [G.Discrete(5), G.Box(-1.0, 1.0, (3,)), G.Box(0, 255, (4, 4), np.uint8), G.MultiBinary(3)]
        common += [G.MultiDiscrete([3, 2]), G.Tuple((G.Discrete(2), G.Box(0.0, 1.0, (2,))))]
        if RELEASE_1:
            common.append(G.Dict({"a": G.Discrete(2), "b": G.Box(0.0, 1.0, (2,))}))
        for space in common:
            assert plain_reason(space) is None, space
        graph = G.Graph(G.Box(0.0, 1.0, (2,)), G.Discrete(3))
        clipped = G.Box(-128, 127, (3,), np.int8)
        if _RELEASE < (1, 4):
            assert VERSION in plain_reason(graph)
            assert VERSION in plain_reason(clipped)
            assert VERSION in plain_reason(G.Tuple((G.Discrete(2), clipped)))
            assert not is_compiled(graph)
        else:
            assert plain_reason(graph) is None and plain_reason(clipped) is None
    finally:
        gsg.unpatch()


# ------------------------------------------------- patched against plain


@pytest.mark.usefixtures("unpatched")
def test_patched_cartpole_runs_compiled_with_plain_results():
    def run():
        env = gymnasium.make("CartPole-v1")
        try:
            observations = [env.reset(seed=0)[0]]
            env.action_space.seed(0)
            for _ in range(20):
                action = env.action_space.sample()
                assert env.action_space.contains(action)
                observation, _, terminated, truncated, _ = env.step(action)
                observations.append(observation)
                if terminated or truncated:
                    observations.append(env.reset()[0])
            compiled = (is_compiled(env.observation_space), is_compiled(env.action_space))
            return observations, compiled
        finally:
            env.close()

    plain, plain_compiled = run()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the opt-in warning, if unverified
        gsg.patch(unverified=True)
    try:
        patched, patched_compiled = run()
    finally:
        gsg.unpatch()
    assert plain_compiled == (False, False) and patched_compiled == (True, True)
    assert len(patched) == len(plain)
    assert all(_same(a, b) for a, b in zip(patched, plain))


def _rng_state(space):
    return space.np_random.bit_generator.state


@pytest.mark.usefixtures("unpatched")
@pytest.mark.parametrize("name", PRESENT)
def test_patched_class_gives_the_release_results(name):
    """Patched, each class of this release samples, checks and seeds as the release
    does plain, and its instances hold the same attributes."""
    def run():
        space = _space(G, name, seed=0)
        samples = [space.sample() for _ in range(5)]
        checks = [space.contains(sample) for sample in samples]
        return space, samples, checks

    plain_space, plain_samples, plain_checks = run()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        gsg.patch(unverified=True)
    try:
        space, samples, checks = run()
        # Judged by the release's rules: compiled unless the release differs from 1.4.0 here.
        compiled = is_compiled(space)
    finally:
        gsg.unpatch()
    assert checks == plain_checks and all(checks), name
    assert all(_same(a, b) and type(a) is type(b) for a, b in zip(samples, plain_samples)), name
    assert set(vars(space)) == set(vars(plain_space)), name
    assert _rng_state(space) == _rng_state(plain_space)
    assert compiled or _RELEASE < (1, 4)


@pytest.mark.usefixtures("unpatched")
def test_patched_classes_follow_the_release_where_it_differs_from_1_4():
    """Inputs on which releases answer otherwise: patched, the installed release
    answers as it does plain (the same value, or the same exception)."""
    def outcome(make):
        try:
            result = make()
        except Exception as error:
            return ("raise", type(error).__name__, str(error))
        return ("value", repr(result), type(result).__name__)

    checks = [
        # 1.4.0 de-duplicates and sorts a charset; before, duplicates make choice() fail.
        lambda: G.Text(6, charset="aabc", seed=0).sample(),
        lambda: G.Text(5, seed=0).sample(),  # 1.1.0 changed the draw
        lambda: G.Box(-128, 127, (50,), np.int8, seed=0).sample().min(),  # clipping before 1.4.0
        lambda: G.Discrete(5).contains(10**20),  # an OverflowError before 1.4.0
        lambda: G.MultiDiscrete([3, 5, 2]).contains(np.zeros(3)),  # True up to 1.1
        lambda: G.utils.flatten(G.Tuple((G.Discrete(2), G.Discrete(3))), (1,)),
        lambda: G.Discrete(3, seed=0).sample(probability=np.array([0.0, 1.0, 0.0])),  # no probability on 0.29/1.0
        lambda: type(G.Dict({"a": G.Discrete(2)}, seed=0).sample()).__name__,  # OrderedDict on 0.29
        lambda: gymnasium.vector.utils.batch_space(G.Discrete(3, start=1), 2),
    ]
    plain = [outcome(check) for check in checks]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        gsg.patch(unverified=True)
    try:
        patched = [outcome(check) for check in checks]
    finally:
        gsg.unpatch()
    for index, (mine, reference) in enumerate(zip(patched, plain)):
        assert mine == reference, (VERSION, index)


# ------------------------------------------------------------- conversions


@pytest.mark.parametrize("name", PRESENT)
def test_conversions_round_trip(name):
    original = _space(G, name, seed=3)
    reference = copy.deepcopy(original)
    ours = from_gymnasium(original)
    assert type(ours) is getattr(gymspaces, name)
    back = to_gymnasium(ours)
    assert type(back) is type(original)
    assert back == original
    # Attributes as the release's own constructor leaves them.
    assert set(vars(back)) == set(vars(_space(G, name))), name
    repr(back)
    for _ in range(3):
        expected = reference.sample()
        for converted in (ours, back):
            got = converted.sample()
            if name in SAME_STREAM or converted is not ours:  # gymspaces' own follows 1.4.0
                assert _same(got, expected), (name, got, expected)
            elif name != "Sequence":
                assert _structure(got) == _structure(expected), (name, got, expected)
            assert type(reference).contains(reference, got if not isinstance(got, gymspaces.GraphInstance) else
                                            G.GraphInstance(*got)), name


def test_from_gymspaces_to_this_release():
    ours = gymspaces.Dict({"pos": gymspaces.Box(-1.0, 1.0, (2,)), "graph": gymspaces.Graph(gymspaces.Discrete(2), None)})
    theirs = to_gymnasium(ours)
    assert type(theirs) is G.Dict and type(theirs["pos"]) is G.Box and type(theirs["graph"]) is G.Graph
    assert set(vars(theirs["pos"])) == set(vars(G.Box(-1.0, 1.0, (2,))))
    assert set(vars(theirs)) == set(vars(G.Dict({"a": G.Discrete(2)})))
    assert "Box(-1.0, 1.0, (2,), float32)" in repr(theirs)
    assert theirs.contains(theirs.sample())
    if "OneOf" not in PRESENT:
        with pytest.raises(TypeError, match="OneOf"):
            to_gymnasium(gymspaces.OneOf((gymspaces.Discrete(2),)), strict=True)
    assert type(from_gymnasium(gymspaces.OneOf((gymspaces.Discrete(2),)))) is gymspaces.OneOf


# ------------------------------------------------ command and start-up hook

SCRIPT = textwrap.dedent(
    """
    import sys
    import gymnasium
    env = gymnasium.make("CartPole-v1")
    observation, _ = env.reset(seed=0)
    env.action_space.seed(0)
    space = gymnasium.spaces.Dict({"a": gymnasium.spaces.Discrete(3), "b": gymnasium.spaces.Box(0, 1, (2,))}, seed=0)
    assert space.contains(space.sample())
    for _ in range(10):
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert env.observation_space.contains(observation)
    from gymspaces.gymnasium import is_patched
    print("done", gymnasium.__version__, is_patched(), sys.argv[1:])
    """
)


def test_command_runs_a_script(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    completed = _run(["-m", "gymspaces.gymnasium", str(script), "x"], tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stdout.split() == ["done", VERSION, str(VERIFIED), "['x']"]
    # Unverified: the one warning says so, and the program runs on Gymnasium's own code.
    assert ("not a release gymspaces is verified against" in completed.stderr) == (not VERIFIED)


def test_command_unverified_opt_in(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    env = _clean_env()
    env["GYMSPACES_PATCH_UNVERIFIED"] = "1"
    completed = _run(["-m", "gymspaces.gymnasium", str(script)], tmp_path, env)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stdout.split() == ["done", VERSION, "True", "[]"]


@pytest.mark.parametrize("unverified", ["", "1"])
def test_startup_hook(tmp_path, unverified):
    # What gymspaces-patch.pth runs at start-up (it may not be installed in this
    # environment, e.g. with gymspaces on PYTHONPATH): the hook module itself.
    env = _clean_env()
    env["GYMSPACES_PATCH"] = "1"
    if unverified:
        env["GYMSPACES_PATCH_UNVERIFIED"] = unverified
    program = (
        "import gymspaces._autopatch, gymnasium\n"
        "from gymspaces.gymnasium import is_patched\n"
        "space = gymnasium.spaces.Box(0, 1, (2,), seed=0)\n"
        "assert space.contains(space.sample())\n"
        "print(is_patched())\n"
    )
    completed = _run(["-c", program], tmp_path, env)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stdout.strip() == str(VERIFIED or bool(unverified))
    assert "cannot patch" not in completed.stderr
