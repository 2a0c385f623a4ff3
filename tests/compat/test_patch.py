"""Patch mode: Gymnasium's own classes on gymspaces' kernels, exactly restored.

Every differential test here builds the same Gymnasium space (or env) twice
with the same seed, once unpatched and once patched, and compares what
happened call by call: values, dtypes, scalar types and exception types.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import gymnasium
import gymnasium.spaces.utils as gym_utils
import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest
from support.differential import Outcome, assert_same_outcome, assert_same_value, outcome
from support.recipes import Recipe, recipe_params
from support.spaces_corpus import ALL_RECIPES

import gymspaces
from gymspaces import _dispatch, _kernel_switches, _probes
from gymspaces import utils as gs_utils
from gymspaces import vector as gs_vector
from gymspaces.gymnasium import is_compiled, is_patched, patch, patched, plain_reason, unpatch
from gymspaces.space import KERNEL_CACHE_ATTRS

G = gymnasium.spaces
SPACE_CLASSES = [G.Box, G.Discrete, G.MultiBinary, G.MultiDiscrete, G.Text, G.Tuple, G.Dict, G.Sequence, G.Graph, G.OneOf]
GYMNASIUM_HELPERS = [
    gym_utils.flatdim,
    gym_utils.flatten,
    gym_utils.unflatten,
    gym_utils.flatten_space,
    gym_vector.batch_space,
    gym_vector.batch_differing_spaces,
    gym_vector.concatenate,
    gym_vector.iterate,
    gym_vector.create_empty_array,
    gym_vector.create_shared_memory,
    gym_vector.read_from_shared_memory,
    gym_vector.write_to_shared_memory,
]
GYMSPACES_HELPERS = [
    gs_utils.flatdim,
    gs_utils.flatten,
    gs_utils.unflatten,
    gs_vector.concatenate,
    gs_vector.iterate,
    gs_vector.create_empty_array,
    gs_vector.read_from_shared_memory,
    gs_vector.write_to_shared_memory,
]


pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched


def snapshot() -> dict[str, Any]:
    """Everything patch() may touch, by identity."""
    return {
        "classes": {cls: dict(vars(cls)) for cls in [G.Space, *SPACE_CLASSES]},
        "gymnasium": {helper: dict(helper.registry) for helper in GYMNASIUM_HELPERS},
        "gymspaces": {helper: {cls: helper.dispatch(cls) for cls in SPACE_CLASSES} for helper in GYMSPACES_HELPERS},
        "gymspaces registries": {helper: dict(helper.registry) for helper, _ in _dispatch._ALL_DISPATCHERS},
        "aliases": dict(_kernel_switches.ACTIVE),
        "dispatchers": {helper: called_dispatch(helper) for helper in GYMNASIUM_HELPERS},
    }


def called_dispatch(helper: Any) -> Any:
    """The ``dispatch`` a ``functools.singledispatch`` wrapper calls (its closure's)."""
    return helper.__closure__[helper.__code__.co_freevars.index("dispatch")].cell_contents


def assert_same_snapshot(after: dict[str, Any], before: dict[str, Any]) -> None:
    for cls, namespace in before["classes"].items():
        assert after["classes"][cls].keys() == namespace.keys(), cls
        for name, value in namespace.items():
            assert after["classes"][cls][name] is value, (cls, name)
    for helper, registry in before["gymnasium"].items():
        assert after["gymnasium"][helper].keys() == registry.keys(), helper
        assert all(after["gymnasium"][helper][cls] is rule for cls, rule in registry.items()), helper
    for helper, rules in before["gymspaces"].items():
        assert all(after["gymspaces"][helper][cls] is rule for cls, rule in rules.items()), helper
    for helper, registry in before["gymspaces registries"].items():
        assert after["gymspaces registries"][helper] == registry, helper
    assert after["aliases"] == before["aliases"]
    assert all(after["dispatchers"][helper] is found for helper, found in before["dispatchers"].items())


# --------------------------------------------------------------- patch / unpatch

IMPORT_PROBE = """
import json, sys
import gymnasium, gymnasium.spaces as G, gymnasium.spaces.utils, gymnasium.vector.utils
# gymspaces.vector's shared-memory helpers load on first use, patch() loads them:
# loaded first, so that what patch() changes in them is seen and put back.
import gymspaces, gymspaces.utils, gymspaces.vector.shared_memory
from gymspaces import _dispatch, _kernel_switches
from gymspaces._registry import REGISTRY

HELPERS = [helper for module in (gymnasium.spaces.utils, gymnasium.vector.utils)
           for helper in vars(module).values() if hasattr(helper, "register") and hasattr(helper, "dispatch")]
CLASSES = [G.Space, *(getattr(G, name) for name in G.__all__ if isinstance(getattr(G, name), type))]

def snapshot():
    # Everything of either library an import or a patch could change, by identity.
    return {
        "gymnasium classes": {cls.__name__: dict(vars(cls)) for cls in CLASSES},
        "gymnasium registries": {helper.__name__: dict(helper.registry) for helper in HELPERS},
        "gymnasium dispatch": {helper.__name__: helper.__closure__[helper.__code__.co_freevars.index("dispatch")]
                               .cell_contents for helper in HELPERS},
        "gymspaces registries": {f"{helper.__module__}.{helper.__name__}": dict(helper.registry)
                                 for helper, _ in _dispatch._ALL_DISPATCHERS},
        "gymspaces classes": {name: dict(vars(getattr(gymspaces, name))) for name in gymspaces.__all__
                              if isinstance(getattr(gymspaces, name), type)},
        "aliases": dict(_kernel_switches.ACTIVE),
        "switches": {name: getattr(REGISTRY, name) for name in dir(REGISTRY) if name.endswith("_enabled")},
        "composites take a Gymnasium child": gymspaces.space.is_space(G.Discrete(2)),
    }

def differences(before, after):
    found = []
    for part, table in before.items():
        if not isinstance(table, dict):
            if after[part] != table:
                found.append(part)
            continue
        if table.keys() != after[part].keys():
            found.append(f"{part}: {sorted(map(str, table.keys() ^ after[part].keys()))}")
            continue
        for key, value in table.items():
            new = after[part][key]
            if isinstance(value, dict):
                changed = [str(k) for k in value.keys() | new.keys() if value.get(k) is not new.get(k)]
                if changed:
                    found.append(f"{part}[{key}]: {sorted(changed)}")
            elif value is not new and value != new:
                found.append(f"{part}[{key}]")
    return found

before = snapshot()
assert "gymspaces.gymnasium" not in sys.modules
import gymspaces.gymnasium as g
after_import = snapshot()
g.patch()
during = snapshot()
g.unpatch()
after_unpatch = snapshot()
print(json.dumps({
    "import": differences(before, after_import),
    "patch": len(differences(before, during)),
    "unpatch": differences(before, after_unpatch),
}))
"""


def test_import_changes_nothing_and_unpatch_restores_both_libraries() -> None:
    """In a fresh interpreter: importing gymspaces.gymnasium leaves Gymnasium and
    gymspaces as they were (classes, helper registries, dispatch, aliases, switches),
    patch() changes them, and unpatch() puts back exactly what was there."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("GYMSPACES_")}
    result = subprocess.run([sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["import"] == [], report["import"]
    assert report["patch"] > 0  # the probe sees what patch() changes
    assert report["unpatch"] == [], report["unpatch"]



def test_unpatch_restores_gymnasium_exactly() -> None:
    before = snapshot()
    patch()
    during = snapshot()
    assert during["classes"][G.Box]["sample"] is not before["classes"][G.Box]["sample"]
    assert during["gymnasium"][gym_utils.flatten][G.Box] is not before["gymnasium"][gym_utils.flatten][G.Box]
    # Space-building helpers stay Gymnasium's: what they build is compiled anyway.
    assert during["gymnasium"][gym_vector.batch_space] == before["gymnasium"][gym_vector.batch_space]
    # gymspaces' dispatchers take gymspaces' rules for Gymnasium's classes.
    assert during["gymspaces"][gs_utils.flatten][G.Box] is gs_utils.flatten.dispatch(gymspaces.Box)
    assert during["gymspaces"][gs_utils.flatten][G.Box] is not before["gymspaces"][gs_utils.flatten][G.Box]
    unpatch()
    assert_same_snapshot(snapshot(), before)


def test_patched_dispatchers_answer_as_functools_does() -> None:
    """Patched, each Gymnasium helper finds a registered class in C; its answer
    is still ``helper.dispatch(cls)``'s for every class, registered while
    patched, a subclass, or a class only an ABC covers."""

    class Unregistered(G.Box):
        pass

    class RegisteredWhilePatched(G.Box):
        pass

    def own_flatdim(space: Any) -> int:
        return -1

    with patched():
        assert called_dispatch(gym_utils.flatdim) is not gym_utils.flatdim.dispatch
        gym_utils.flatdim.register(RegisteredWhilePatched, own_flatdim)
        assert gym_utils.flatdim(RegisteredWhilePatched(0.0, 1.0, (2,))) == -1
        assert gym_utils.flatdim(Unregistered(0.0, 1.0, (2,))) == 2
        for helper in GYMNASIUM_HELPERS:
            for cls in [*SPACE_CLASSES, Unregistered, RegisteredWhilePatched, object]:
                try:
                    expected = helper.dispatch(cls)
                except Exception as error:  # noqa: BLE001 - compare the failure too
                    with pytest.raises(type(error)):
                        called_dispatch(helper)(cls)
                else:
                    assert called_dispatch(helper)(cls) is expected, (helper, cls)
    assert all(called_dispatch(helper) is helper.dispatch for helper in GYMNASIUM_HELPERS)


def test_patch_is_idempotent_and_patched_nests() -> None:
    before = snapshot()
    patch()
    during = snapshot()
    patch()
    assert_same_snapshot(snapshot(), during)
    with patched():
        assert is_patched()
    assert is_patched()  # the block found it on and left it on
    unpatch()
    unpatch()
    assert not is_patched()
    assert_same_snapshot(snapshot(), before)
    with patched():
        assert is_patched()
    assert not is_patched()
    assert_same_snapshot(snapshot(), before)


def test_patch_and_unpatch_from_many_threads() -> None:
    before = snapshot()
    space = G.Dict({"a": G.Discrete(5), "b": G.Box(0, 1, (3,))}, seed=0)
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def work(index: int) -> None:
        try:
            start.wait()
            for _ in range(50):
                (patch if index % 2 else unpatch)()
                assert space.contains(space.sample())
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    patch()
    patch()
    assert is_compiled(space)
    unpatch()
    assert_same_snapshot(snapshot(), before)


@pytest.mark.parametrize("patched_before", [False, True])
def test_patched_blocks_in_two_threads_share_the_patch(patched_before: bool) -> None:
    """Thread A enters, B enters, A exits, B exits: B's block stays patched
    after A's exit, and the last exit leaves patching as it was before."""
    if patched_before:
        patch()
    a_inside, b_inside, a_left = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def thread_a() -> None:
        with patched():
            a_inside.set()
            b_inside.wait(5)
        a_left.set()

    def thread_b() -> None:
        a_inside.wait(5)
        with patched():
            b_inside.set()
            a_left.wait(5)
            seen["b after a left"] = is_patched()
            seen["b compiled"] = is_compiled(G.Discrete(3))

    threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"b after a left": True, "b compiled": True}
    assert is_patched() is patched_before


def test_patched_block_reopened_after_unpatch_inside_another() -> None:
    with patched():
        unpatch()  # an explicit unpatch() inside a block is obeyed ...
        assert not is_patched()
        with patched():  # ... and a block opened after it patches again
            assert is_patched()
        assert is_patched()  # the outer block is still open
    assert not is_patched()


def _runs_gymspaces_code(function: Any) -> bool:
    function = getattr(function, "__wrapped__", function)
    return (getattr(function, "__module__", None) or "").startswith("gymspaces")


def _takes_builtin_rules(cls: type) -> bool:
    """Whether every gymspaces dispatcher of values gives ``cls`` its gymspaces namesake's rule."""
    namesake = getattr(gymspaces, cls.__name__)
    return all(
        dispatcher.dispatch(cls) is dispatcher.dispatch(namesake)
        for dispatcher in _dispatch.value_dispatchers()
        if namesake in dispatcher.registry
    )


def test_every_step_of_patch_and_unpatch_is_a_consistent_state() -> None:
    """After each line patch() and unpatch() run, a call starting in another
    thread finds what it needs: gymspaces' sample/contains and gymspaces'
    rules in Gymnasium's dispatchers only while gymspaces' dispatchers give
    Gymnasium's classes gymspaces' rules, which their recursion into
    sub-spaces uses; and nothing but ``sample`` and
    ``contains`` is ever added to Gymnasium's classes."""
    from gymspaces.gymnasium import _patch

    own_names = {cls: set(vars(cls)) for cls in (*SPACE_CLASSES, gymnasium.spaces.Space)}
    problems: list[str] = []
    checks = [0]

    def check(where: str) -> None:
        checks[0] += 1
        for cls, names in own_names.items():
            added = set(vars(cls)) - names - {"sample", "contains"}
            if added:
                problems.append(f"{where}: {cls.__name__} gained {sorted(added)}")
        for cls in SPACE_CLASSES:
            if any(_runs_gymspaces_code(getattr(cls, name)) for name in ("sample", "contains")):
                if not _takes_builtin_rules(cls):
                    problems.append(f"{where}: {cls.__name__} runs gymspaces code without gymspaces' rules")
        for helper in GYMNASIUM_HELPERS:
            for cls in SPACE_CLASSES:
                if _runs_gymspaces_code(helper.registry.get(cls)) and not _takes_builtin_rules(cls):
                    problems.append(f"{where}: {helper.__name__} sends {cls.__name__} to gymspaces without its rules")

    def in_patch_module(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != _patch.__file__:
            return None
        return after_each_line

    def after_each_line(frame: Any, event: str, arg: Any) -> Any:
        if event in ("line", "return"):
            check(f"{frame.f_code.co_name}:{frame.f_lineno}")
        return after_each_line

    patch()  # imports done, so the traced runs only change Gymnasium
    unpatch()
    previous = sys.gettrace()
    sys.settrace(in_patch_module)
    try:
        patch(report=True)
        unpatch()
        patch()
        unpatch()
    finally:
        sys.settrace(previous)
    assert checks[0] > 50
    assert not problems, sorted({problem.split(": ")[0] for problem in problems}) + problems[:3]


def test_spaces_in_use_while_another_thread_patches_and_unpatches() -> None:
    """Threads sample, check and flatten while another flips patching for a
    second: every call, whichever side of a flip it starts or ends on,
    returns a valid result (Gymnasium's or gymspaces', never an error)."""
    import time
    import warnings

    graph = G.Graph(G.Box(0, 1, (2,)), G.Discrete(3), seed=0)
    nested = G.MultiDiscrete([[3, 4]], seed=1)  # masks walk the nested leaves
    nested_mask = ((np.ones(3, np.int8), np.ones(4, np.int8)),)
    box, discrete = G.Box(0, 1, (2,), seed=2), G.Discrete(5, seed=3)
    composite = G.Dict(
        {"a": G.Box(0, 1, (2,)), "b": G.MultiDiscrete([2, 2]), "c": G.Tuple((G.Discrete(3),))}, seed=4
    )
    batched = gym_vector.batch_space(composite, 2)
    failures: list[str] = []
    calls = [0]
    stop = threading.Event()

    def use_spaces() -> None:
        while not stop.is_set():
            try:
                assert graph.contains(graph.sample())
                assert nested.contains(nested.sample(mask=nested_mask))
                assert box.contains([0.5, 0.5]) and not box.contains(np.array([2.0, 0.0]))  # general paths
                assert discrete.contains(3) and not discrete.contains(1.5)
                value = composite.sample()
                assert composite.contains(gym_utils.unflatten(composite, gym_utils.flatten(composite, value)))
                out = gym_vector.concatenate(composite, [value, value], gym_vector.create_empty_array(composite, 2))
                assert len(list(gym_vector.iterate(batched, out))) == 2
                calls[0] += 1
            except BaseException as error:  # noqa: BLE001 - reported below
                failures.append(f"{type(error).__name__}: {error}")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as CPython allows
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Box.contains on a list warns, from every thread
            users = [threading.Thread(target=use_spaces) for _ in range(2)]
            for user in users:
                user.start()
            flips = 0
            # Enough of both, however loaded the machine (the bound only ends a run that hangs).
            deadline = time.perf_counter() + 120.0
            while (flips <= 20 or calls[0] <= 20) and time.perf_counter() < deadline and not failures:
                patch()
                unpatch()
                flips += 1
            stop.set()
            for user in users:
                user.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures, failures[:3]
    assert flips > 20 and calls[0] > 20


def test_an_unverified_gymnasium_stays_unpatched_with_one_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    from gymspaces.gymnasium import _patch

    monkeypatch.setattr(gymnasium, "__version__", "9.9.9")
    monkeypatch.setattr(_patch, "_warned_version", False)
    monkeypatch.delenv("GYMSPACES_PATCH_UNVERIFIED", raising=False)
    original = G.Box.sample
    with pytest.warns(RuntimeWarning, match="9.9.9 is not a release .* stays unpatched"):
        patch()
    assert not is_patched() and G.Box.sample is original
    with gymnasium_warnings() as caught:
        patch()
        with patched():
            assert not is_compiled(G.Discrete(3))
    assert not caught and not is_patched()


@pytest.mark.parametrize("how", ["argument", "variable"])
def test_an_unverified_gymnasium_is_patched_on_request(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    from gymspaces.gymnasium import _patch

    monkeypatch.setattr(gymnasium, "__version__", "9.9.9")
    monkeypatch.setattr(_patch, "_warned_version", False)
    monkeypatch.setenv("GYMSPACES_PATCH_UNVERIFIED", "1" if how == "variable" else "0")
    with pytest.warns(RuntimeWarning, match="patching Gymnasium 9.9.9, which gymspaces is not verified against"):
        patch(unverified=True) if how == "argument" else patch()
    assert is_patched()
    unpatch()


class gymnasium_warnings:
    def __enter__(self) -> list[Any]:
        import warnings

        self._context = warnings.catch_warnings(record=True)
        caught = self._context.__enter__()
        warnings.simplefilter("always")
        return caught

    def __exit__(self, *exc: Any) -> None:
        self._context.__exit__(*exc)


# ------------------------------------------------------------- classes and types


def every_kind(seed: int | None = None) -> list[Any]:
    return [
        G.Box(0, 1, (2,), seed=seed),
        G.Discrete(5, start=-2, seed=seed),
        G.MultiBinary(4, seed=seed),
        G.MultiDiscrete([2, 3], seed=seed),
        G.Text(6, seed=seed),
        G.Tuple((G.Discrete(2), G.Box(-1, 1)), seed=seed),
        G.Dict({"a": G.Discrete(3), "b": G.Box(0, 1, (2,))}, seed=seed),
        G.Sequence(G.Discrete(2), seed=seed),
        G.Graph(G.Box(0, 1, (2,)), G.Discrete(3), seed=seed),
        G.OneOf((G.Discrete(2), G.Box(0, 1)), seed=seed),
    ]


def test_is_compiled_follows_patching_and_types_stay_gymnasiums() -> None:
    made_before = every_kind()
    assert not any(is_compiled(space) for space in made_before)
    assert is_compiled(gymspaces.Box(0, 1)) and is_compiled(gymspaces.Tuple((gymspaces.Discrete(2),)))
    with patched():
        for space in [*made_before, *every_kind()]:
            assert is_compiled(space), space
            assert type(space).__module__.startswith("gymnasium.spaces")
            assert isinstance(space, G.Space)
        assert type(made_before[0]) is G.Box
    assert not any(is_compiled(space) for space in made_before)


class OwnSample(G.Discrete):
    """A user subclass that overrides sample: it keeps its own code."""

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        return self.start


class Plain(G.Box):
    """A user subclass that overrides nothing: it runs compiled while patched."""


class Coin(G.Space):
    def sample(self, mask: Any = None, probability: Any = None) -> str:
        return ("heads", "tails")[int(self.np_random.integers(2))]

    def contains(self, x: Any) -> bool:
        return x in ("heads", "tails")


def test_user_subclasses_and_custom_spaces() -> None:
    with patched():
        own = OwnSample(4, start=2, seed=0)
        assert own.sample() == 2 and not is_compiled(own)
        plain = Plain(0, 1, (3,), seed=0)
        assert is_compiled(plain)
        reference = outcome(lambda: [plain.sample() for _ in range(3)])
        mixed = G.Dict({"coin": Coin(seed=1), "x": G.Discrete(3)}, seed=2)
        assert not is_compiled(mixed) and is_compiled(mixed["x"])
        sample = mixed.sample()
        assert sample["coin"] in ("heads", "tails") and mixed.contains(sample)
    plain = Plain(0, 1, (3,), seed=0)
    assert_same_outcome(reference, outcome(lambda: [plain.sample() for _ in range(3)]))


def test_pickles_made_while_patched_load_without_gymspaces() -> None:
    spaces = every_kind(seed=4)
    with patched():
        for space in spaces:
            space.sample()
        # The kernels ran and cached their handle beside the space, not in it.
        assert "_rng_handle" in _probes.kernel_cache_of(spaces[0])
        assert not any(set(vars(space)) & set(KERNEL_CACHE_ATTRS) for space in spaces)
        data = pickle.dumps(spaces)
        copies = copy.deepcopy(spaces)
    assert all("_rng_handle" not in vars(space) for space in copies)
    after_unpatch = pickle.dumps(spaces)
    script = (
        "import pickle, sys\n"
        "sys.modules['gymspaces'] = None  # gymspaces cannot be imported\n"
        "for data in (sys.stdin.buffer.read().split(b'--SPLIT--')):\n"
        "    spaces = pickle.loads(data)\n"
        "    print([type(s).__name__ for s in spaces], spaces[1].sample() in spaces[1])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        input=data + b"--SPLIT--" + after_unpatch,
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().count("'Box', 'Discrete'") == 2


# ------------------------------------------------------------ same numbers


def run_twice(scenario: Callable[[], list[Outcome]]) -> tuple[list[Outcome], list[Outcome]]:
    """The scenario's outcomes unpatched, then patched."""
    plain = scenario()
    with patched():
        compiled = scenario()
    return compiled, plain


def assert_same_run(scenario: Callable[[], list[Outcome]]) -> None:
    compiled, plain = run_twice(scenario)
    assert len(compiled) == len(plain)
    for index, (actual, expected) in enumerate(zip(compiled, plain)):
        assert_same_outcome(actual, expected, f"step {index}")


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_fundamental_streams_equal_unpatched(recipe: Recipe) -> None:
    def scenario() -> list[Outcome]:
        space = recipe.build(G, seed=11)
        samples = [outcome(space.sample) for _ in range(4)]
        drawn = [result.value for result in samples if not result.raised]
        checks = [outcome(lambda x=x: space.contains(x)) for x in drawn]
        checks += [outcome(lambda: space.contains(np.zeros(1, dtype=np.float64)))]
        if is_patched():
            # A range that overflows its dtype (a Discrete's start + n, a float
            # Box's high - low) warns or raises as np.errstate says: Gymnasium's
            # own code runs it. Every other space runs compiled.
            reason = plain_reason(space)
            assert reason is None or "overflows the dtype" in reason, reason
            if "overflowing" in recipe.id:
                assert reason is not None
        return [*samples, *checks]

    assert_same_run(scenario)


def masked_calls(space: Any) -> list[Callable[[], Any]]:
    calls: list[Callable[[], Any]] = []
    if isinstance(space, G.Discrete):
        mask = np.zeros(int(space.n), dtype=np.int8)
        mask[1::2] = 1
        probability = np.linspace(1, 2, int(space.n))
        probability /= probability.sum()
        calls += [lambda: space.sample(mask=mask), lambda: space.sample(probability=probability)]
        calls += [lambda: space.sample(mask=mask.astype(np.float32))]  # wrong dtype: same error
    if isinstance(space, G.MultiBinary):
        calls += [lambda: space.sample(mask=np.full(space.shape, 2, dtype=np.int8))]
    if isinstance(space, G.MultiDiscrete):
        calls += [lambda: space.sample(mask=tuple(np.ones(int(n), dtype=np.int8) for n in space.nvec))]
    if isinstance(space, G.Text):
        calls += [lambda: space.sample(mask=(3, None))]
    if isinstance(space, G.Dict):
        calls += [lambda: space.sample(mask={"a": np.array([0, 0, 1], dtype=np.int8), "b": None})]
    if isinstance(space, G.Sequence):
        calls += [lambda: space.sample(mask=(2, None)), lambda: space.sample(mask=(np.array([1, 3]), None))]
    if isinstance(space, G.Graph):
        calls += [lambda: space.sample(num_nodes=3, num_edges=2)]
    return calls


@pytest.mark.parametrize("kind", range(10), ids=[cls.__name__ for cls in SPACE_CLASSES])
def test_every_kind_with_masks_and_helpers_equals_unpatched(kind: int) -> None:
    def scenario() -> list[Outcome]:
        space = every_kind(seed=5)[kind]
        results = [outcome(space.sample) for _ in range(3)]
        results += [outcome(call) for call in masked_calls(space)]
        sample = results[0].value
        results.append(outcome(lambda: space.contains(sample)))
        results.append(outcome(lambda: type(sample).__name__))
        results.append(outcome(lambda: gym_utils.flatten(space, sample)))
        if space.is_np_flattenable:
            flat = gym_utils.flatten(space, sample)
            results.append(outcome(lambda: gym_utils.unflatten(space, flat)))
            results.append(outcome(lambda: gym_utils.flatdim(space)))
            results.append(outcome(lambda: repr(gym_utils.flatten_space(space))))  # unseeded: compare the space
        batched = gym_vector.batch_space(space, 3)
        items = [space.sample() for _ in range(3)]
        results.append(outcome(lambda: type(batched).__name__))
        results.append(outcome(lambda: batched.sample()))
        out = gym_vector.create_empty_array(space, 3)
        results.append(outcome(lambda: gym_vector.concatenate(space, items, out)))
        results.append(outcome(lambda: list(gym_vector.iterate(batched, gym_vector.concatenate(space, items, out)))))
        if is_patched():
            assert is_compiled(space) and is_compiled(batched)
        return results

    assert_same_run(scenario)


def test_shared_memory_round_trip_equals_unpatched() -> None:
    def scenario() -> list[Outcome]:
        space = G.Dict({"a": G.Discrete(3), "b": G.Box(0, 1, (2,)), "c": G.Tuple((G.MultiBinary(2),))}, seed=1)
        memory = gym_vector.create_shared_memory(space, n=3)
        for index in range(3):
            gym_vector.write_to_shared_memory(space, index, space.sample(), memory)
        return [outcome(lambda: gym_vector.read_from_shared_memory(space, memory, n=3))]

    assert_same_run(scenario)


# ---------------------------------------------------- envs, wrappers, vector envs


class ImageEnv(gymnasium.Env):
    """A small env with an image observation whose step samples its spaces."""

    metadata = {"render_modes": ["rgb_array"]}
    render_mode = "rgb_array"

    def __init__(self) -> None:
        self.observation_space = G.Box(0, 255, (6, 6, 3), np.uint8)
        self.action_space = G.Discrete(3)

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.observation_space.seed(seed)
        return self.observation_space.sample(), {}

    def step(self, action: Any) -> Any:
        assert self.action_space.contains(action)
        return self.observation_space.sample(), 1.0, False, False, {}

    def render(self) -> Any:
        return self.observation_space.sample()


class DictEnv(gymnasium.Env):
    """An env with a Dict observation whose step samples its observation space."""

    def __init__(self) -> None:
        self.observation_space = G.Dict(
            {"position": G.Box(-1, 1, (3,)), "mode": G.Discrete(4), "flags": G.MultiBinary(2)}
        )
        self.action_space = G.Box(-2, 2, (2,))

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.observation_space.seed(seed)
        return self.observation_space.sample(), {}

    def step(self, action: Any) -> Any:
        assert self.action_space.contains(np.asarray(action, dtype=np.float32))
        return self.observation_space.sample(), 0.0, False, False, {}


W = gymnasium.wrappers
WRAPPED_ENVS: dict[str, Callable[[], gymnasium.Env]] = {
    "RescaleAction": lambda: W.RescaleAction(gymnasium.make("Pendulum-v1"), -1.0, 1.0),
    "ClipAction": lambda: W.ClipAction(gymnasium.make("Pendulum-v1")),
    "NormalizeObservation": lambda: W.NormalizeObservation(gymnasium.make("Pendulum-v1")),
    "RescaleObservation": lambda: W.RescaleObservation(gymnasium.make("Pendulum-v1"), -1.0, 1.0),
    "TimeAwareObservation": lambda: W.TimeAwareObservation(gymnasium.make("CartPole-v1")),
    "TimeAwareObservation-dict": lambda: W.TimeAwareObservation(gymnasium.make("CartPole-v1"), flatten=False),
    "DtypeObservation": lambda: W.DtypeObservation(gymnasium.make("CartPole-v1"), np.float64),
    "ReshapeObservation": lambda: W.ReshapeObservation(gymnasium.make("CartPole-v1"), (2, 2)),
    "DiscretizeObservation": lambda: W.DiscretizeObservation(gymnasium.make("Pendulum-v1"), bins=4),
    "DiscretizeAction": lambda: W.DiscretizeAction(gymnasium.make("Pendulum-v1"), bins=5),
    "FlattenObservation": lambda: W.FlattenObservation(DictEnv()),
    "FlattenObservation-NormalizeObservation": lambda: W.NormalizeObservation(W.FlattenObservation(DictEnv())),
    "FlattenObservation-FrameStackObservation": lambda: W.FrameStackObservation(W.FlattenObservation(DictEnv()), 3),
    "TimeLimit-RecordEpisodeStatistics": lambda: W.RecordEpisodeStatistics(W.TimeLimit(DictEnv(), 4)),
    "TransformObservation": lambda: W.TransformObservation(
        DictEnv(), lambda observation: observation["position"] * 2.0, G.Box(-2, 2, (3,))
    ),
    "StickyAction": lambda: W.StickyAction(gymnasium.make("Pendulum-v1"), 0.5),
    "FilterObservation": lambda: W.FilterObservation(DictEnv(), ["mode", "position"]),
    "GrayscaleObservation": lambda: W.GrayscaleObservation(ImageEnv()),
    "ResizeObservation": lambda: W.ResizeObservation(ImageEnv(), (4, 4)),  # needs OpenCV (test extra)
    "AddRenderObservation": lambda: W.AddRenderObservation(ImageEnv()),
    "FrameStackObservation": lambda: W.FrameStackObservation(gymnasium.make("CartPole-v1"), 3),
    "DelayObservation": lambda: W.DelayObservation(gymnasium.make("CartPole-v1"), 2),
}


def env_scenario(make: Callable[[], Any], steps: int = 12) -> Callable[[], list[Outcome]]:
    def scenario() -> list[Outcome]:
        env = make()
        results = [outcome(lambda: env.reset(seed=3)[0])]
        env.action_space.seed(4)
        for _ in range(steps):
            action = env.action_space.sample()
            results.append(outcome(lambda action=action: env.step(action)[0]))
        results.append(outcome(lambda: repr(env.observation_space)))
        if is_patched():
            assert is_compiled(env.observation_space) and is_compiled(env.action_space)
            assert is_compiled(env.unwrapped.observation_space)
        env.close()
        return results

    return scenario


@pytest.mark.parametrize("name", list(WRAPPED_ENVS))
def test_wrappers_build_compiled_spaces_with_identical_outputs(name: str) -> None:
    assert_same_run(env_scenario(WRAPPED_ENVS[name]))


V = gymnasium.wrappers.vector
VECTOR_ENVS: dict[str, Callable[[], Any]] = {
    "SyncVectorEnv-CartPole": lambda: gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 4),
    "SyncVectorEnv-Dict": lambda: gymnasium.vector.SyncVectorEnv([DictEnv] * 3),
    "AsyncVectorEnv-Dict": lambda: gymnasium.vector.AsyncVectorEnv([DictEnv] * 2, context="fork"),
    "vector.FlattenObservation": lambda: V.FlattenObservation(gymnasium.vector.SyncVectorEnv([DictEnv] * 2)),
    "vector.RescaleAction": lambda: V.RescaleAction(
        gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("Pendulum-v1")] * 2), -1.0, 1.0
    ),
    "vector.ClipAction": lambda: V.ClipAction(gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("Pendulum-v1")] * 2)),
    "vector.DtypeObservation": lambda: V.DtypeObservation(
        gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 2), np.float64
    ),
    "vector.NormalizeObservation": lambda: V.NormalizeObservation(
        gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 2)
    ),
    "vector.RescaleObservation": lambda: V.RescaleObservation(
        gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("Pendulum-v1")] * 2), -1.0, 1.0
    ),
    "vector.ReshapeObservation": lambda: V.ReshapeObservation(
        gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 2), (2, 2)
    ),
    "vector.FilterObservation": lambda: V.FilterObservation(gymnasium.vector.SyncVectorEnv([DictEnv] * 2), ["mode"]),
    "vector.RecordEpisodeStatistics": lambda: V.RecordEpisodeStatistics(gymnasium.vector.SyncVectorEnv([DictEnv] * 2)),
    "vector.DictInfoToList": lambda: V.DictInfoToList(gymnasium.vector.SyncVectorEnv([DictEnv] * 2)),
    "vector.GrayscaleObservation": lambda: V.GrayscaleObservation(gymnasium.vector.SyncVectorEnv([ImageEnv] * 2)),
    "vector.ResizeObservation": lambda: V.ResizeObservation(gymnasium.vector.SyncVectorEnv([ImageEnv] * 2), (3, 3)),
}


@pytest.mark.parametrize("name", list(VECTOR_ENVS))
def test_vector_envs_and_vector_wrappers_with_identical_outputs(name: str) -> None:
    assert_same_run(env_scenario(VECTOR_ENVS[name], steps=8))


def test_gymnasium_make_envs_run_compiled() -> None:
    with patched():
        env = gymnasium.make("CartPole-v1")
        assert type(env.action_space) is G.Discrete and is_compiled(env.action_space)
        assert is_compiled(env.observation_space)
        env.reset(seed=0)
        action_space = env.unwrapped.action_space
        assert "_rng_handle" not in _probes.kernel_cache_of(action_space)  # CartPole only checks contains
        env.action_space.sample()
        assert "_rng_handle" in _probes.kernel_cache_of(action_space) and "_rng_handle" not in vars(action_space)
        env.close()


def test_graph_samples_are_gymnasium_graph_instances() -> None:
    with patched():
        space = G.Graph(G.Box(0, 1, (2,)), G.Discrete(3), seed=0)
        graph = space.sample(num_nodes=3, num_edges=2)
        assert type(graph) is G.GraphInstance
        assert space.contains(graph)
        assert not space.contains(gymspaces.GraphInstance(*graph))  # as Gymnasium: not its class
        flat = gym_utils.flatten(space, graph)
        assert type(flat) is G.GraphInstance
        assert_same_value(flat.edges, np.eye(3, dtype=np.int64)[graph.edges])



def test_the_table_has_one_row_per_operation_of_every_class() -> None:
    from gymspaces.gymnasium import _calls, _operations, _release

    operations = _operations.METHODS + _operations.HELPERS
    assert set(_operations.OPERATIONS) == {(name, op) for name in _release.ALL_SPACE_NAMES for op in operations}
    assert len(_operations._TABLE) * len(_operations.OPERATION_NAMES) == len(_operations.OPERATIONS)  # each once
    assert _operations.OPERATION_NAMES == operations
    assert {name for row in _operations.OPERATIONS.values() for name in row.checks} == set(_calls.CHECK_NAMES)
    for (name, operation), row in _operations.OPERATIONS.items():
        assert (row.owner, row.name) == (name, operation)
        assert row.label == (f"{name}.{operation}" if operation in _operations.METHODS else operation)
        assert row.checked == (operation in _calls.CHECKED and row.left is None)
    rows = _operations.OPERATIONS.values()
    # Only Box runs every mask or probability as Gymnasium's; only Sequence and Graph judge their whole tree
    # to sample; every row is patched first, and judges its space or its tree (a left one: nothing).
    assert [row.owner for row in rows if "NO_MASK" in row.checks] == ["Box"]
    assert [row.owner for row in rows if row.name == "sample" and "TREE" in row.checks] == ["Sequence", "Graph"]
    for row in rows:
        assert (row.checks[:1] == ("PATCHED",) and ("SPACE" in row.checks or "TREE" in row.checks)
                if row.left is None else row.checks == ())
    # What is left to Gymnasium says why (the bench's left_* cases measure it); patch() installs nothing for it.
    left = [row for row in rows if row.left is not None]
    assert left and all(row.left for row in left)
    with patched():
        for row in left:
            if row.name in _operations.METHODS:
                assert getattr(G, row.owner).__dict__[row.name].__module__.startswith("gymnasium.")


def test_plain_reason_names_an_operation_left_to_gymnasium() -> None:
    with patched():
        assert plain_reason(G.Text(8)) is None  # the space runs compiled ...
        reason = plain_reason(G.Text(8), "contains")  # ... but not its contains, as fast plain
        assert reason is not None and reason.startswith("left-to-gymnasium: Text.contains is left to Gymnasium's own code: ")
        assert plain_reason(G.Text(8), "sample") is None
        assert plain_reason(G.Box(0, 1), "iterate").startswith("left-to-gymnasium: iterate is left to Gymnasium's own code: ")
