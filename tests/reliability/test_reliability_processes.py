"""Reliability across copies and processes: pickle (every protocol), deepcopy, copy,
and spawned ``multiprocessing`` workers, for every kind of space.

A restored space must continue *exactly* the sample stream of the original: each
case is compared with an untouched twin built, seeded and sampled the same way.
Cases cover every kind and nested spaces, seeded with an int or built on a
shared ``numpy`` Generator passed as ``seed``, either mid-stream (some samples
already drawn) or never used (``np_random`` still unset: it must stay unset
through a round trip, as with Gymnasium, and be seeded lazily on first use).

(The per-kind modules check protocol round trips for leaf recipes, and
``test_composite_parity`` checks the default protocol for generated composites;
this module extends that to every protocol, generator seeds, lazy spaces, copy
and processes.)
"""

from __future__ import annotations

import copy
import itertools
import multiprocessing
import pickle
from typing import Any

import numpy as np
import pytest

from support.composite_helpers import generators
from support.differential import GS, GYM, Outcome, assert_same_generator_state, assert_same_value, error_kind, outcome
from support.recipes import Recipe, spec
from support.spaces_corpus import COMPOSITE_CORPUS

PROTOCOLS = list(range(pickle.HIGHEST_PROTOCOL + 1))
PRIOR = 3  # samples drawn before the round trip
AFTER = 3  # samples compared after it

LEAVES = {
    "Box-float32": spec.Box(0.0, 1.0, (2,), "float32"),
    "Box-unbounded": spec.Box(float("-inf"), float("inf"), (2,), "float32"),
    "Box-int64": spec.Box(0, 9, (2,), "int64"),
    "Box-uint8-image": spec.Box(0, 255, (8, 8, 3), "uint8"),
    "Discrete": spec.Discrete(5, start=-2),
    "MultiDiscrete": spec.MultiDiscrete([3, 4, 2]),
    "MultiBinary": spec.MultiBinary(5),
    "Text": spec.Text(5, min_length=1, charset="abcxyz"),
}
NESTED = {
    "Dict(everything)": spec.Dict(
        {
            "box": LEAVES["Box-float32"],
            "text": LEAVES["Text"],
            "seq": spec.Sequence(spec.Tuple([LEAVES["Discrete"], LEAVES["MultiBinary"]]), stack=False),
            "graph": spec.Graph(LEAVES["Discrete"], LEAVES["Box-float32"]),
            "oneof": spec.OneOf([LEAVES["MultiDiscrete"], spec.Dict({"t": LEAVES["Text"]}, sort_keys=True)]),
        },
        sort_keys=False,
    ),
}
RECIPES = {**LEAVES, **COMPOSITE_CORPUS, **NESTED}
IDS = list(RECIPES)

# How a case is seeded: an int on the root, or one Generator shared by the whole tree.
SEEDINGS = ["int", "generator"]


def make(recipe: Recipe, seeding: str, seed: int = 11, lib: Any = GS) -> Any:
    """Build ``recipe`` seeded as ``seeding`` says (same arguments -> same stream)."""
    if seeding == "generator":
        return recipe.build(lib, seeds=itertools.repeat(np.random.default_rng(seed)))
    space = recipe.build(lib)
    space.seed(seed)
    return space


def advanced(recipe: Recipe, seeding: str, draws: int = PRIOR) -> Any:
    space = make(recipe, seeding)
    for _ in range(draws):
        outcome(space.sample)
    return space


def assert_same_outcome(actual: Outcome, expected: Outcome, context: str) -> None:
    assert actual.raised == expected.raised, f"{context}: {actual.describe()} vs {expected.describe()}"
    if expected.raised:
        assert error_kind(actual.error) == error_kind(expected.error), context
    else:
        assert_same_value(actual.value, expected.value, context)


def assert_same_stream(actual: Any, expected: Any, draws: int, context: str) -> None:
    for i in range(draws):
        assert_same_outcome(outcome(actual.sample), outcome(expected.sample), f"{context} draw {i}")


def sharing(space: Any) -> list[int | None]:
    """Which generators of the tree are the same object (``None`` for unset)."""
    ids: dict[int, int] = {}
    return [None if gen is None else ids.setdefault(id(gen), len(ids)) for _, gen in generators(space)]


def assert_restored(restored: Any, original: Any, recipe: Recipe, seeding: str, context: str) -> None:
    """``restored`` is an independent equal copy continuing ``original``'s stream."""
    assert type(restored) is type(original)
    assert restored == original
    assert repr(restored) == repr(original)
    assert sharing(restored) == sharing(original), f"{context}: generator sharing changed"
    original_gens = {id(gen) for _, gen in generators(original) if gen is not None}
    assert not any(id(gen) in original_gens for _, gen in generators(restored) if gen is not None), (
        f"{context}: a generator is shared with the original"
    )
    for (path, a), (_, b) in zip(generators(restored), generators(original)):
        assert (a is None) == (b is None)
        if a is not None:
            assert_same_generator_state(a, b, f"{context} {path}")
    twin = advanced(recipe, seeding)
    assert_same_stream(restored, twin, AFTER, f"{context} restored")
    # The original is untouched by its copy's draws.
    assert_same_stream(original, advanced(recipe, seeding), AFTER, f"{context} original")


@pytest.mark.parametrize("seeding", SEEDINGS)
@pytest.mark.parametrize("name", IDS)
def test_pickle_every_protocol_continues_the_stream(name, seeding):
    recipe = RECIPES[name]
    for protocol in PROTOCOLS:
        original = advanced(recipe, seeding)
        restored = pickle.loads(pickle.dumps(original, protocol=protocol))
        assert_restored(restored, original, recipe, seeding, f"{name} protocol {protocol}")


@pytest.mark.parametrize("seeding", SEEDINGS)
@pytest.mark.parametrize("name", IDS)
def test_deepcopy_continues_the_stream(name, seeding):
    recipe = RECIPES[name]
    original = advanced(recipe, seeding)
    assert_restored(copy.deepcopy(original), original, recipe, seeding, f"{name} deepcopy")


def _attribute_identity(space: Any, clone: Any) -> dict[str, bool]:
    return {name: vars(clone).get(name) is value for name, value in vars(space).items()
            if not name.startswith("_rng_handle") and name != "_kernel_cache"}


@pytest.mark.parametrize("name", IDS)
def test_shallow_copy_shares_like_gymnasium(name):
    """``copy.copy`` keeps every attribute object, generators included, as Gymnasium's
    does: the copy and the original then draw from one stream."""
    recipe = RECIPES[name]
    gs_space, gym_space = make(recipe, "int"), make(recipe, "int", lib=GYM)
    outcome(gs_space.sample), outcome(gym_space.sample)
    gs_copy, gym_copy = copy.copy(gs_space), copy.copy(gym_space)
    gym_identity = _attribute_identity(gym_space, gym_copy)
    gs_identity = _attribute_identity(gs_space, gs_copy)
    assert {k: gs_identity.get(k) for k in gym_identity} == gym_identity
    assert all(gs_identity.values())
    assert gs_copy._np_random is gs_space._np_random
    assert gs_copy == gs_space
    twin = advanced(recipe, "int", 1)
    for i in range(AFTER):
        assert_same_outcome(outcome(gs_copy.sample), outcome(twin.sample), f"{name} copy {i}")
        assert_same_outcome(outcome(gs_space.sample), outcome(twin.sample), f"{name} original {i}")


@pytest.mark.parametrize("name", IDS)
def test_unused_space_round_trips_lazily_like_gymnasium(name):
    """A space never sampled keeps ``np_random`` unset through pickle and deepcopy
    exactly where Gymnasium's does, and seeds itself on first use."""
    recipe = RECIPES[name]
    gs_space, gym_space = recipe.build(GS), recipe.build(GYM)
    gym_restored = pickle.loads(pickle.dumps(gym_space))
    gym_pattern = sharing(gym_restored)
    assert sharing(gs_space) == sharing(gym_space)
    for protocol in PROTOCOLS:
        restored = pickle.loads(pickle.dumps(gs_space, protocol=protocol))
        assert sharing(restored) == gym_pattern, f"{name} protocol {protocol}"
    clone = copy.deepcopy(gs_space)
    assert sharing(clone) == sharing(copy.deepcopy(gym_space))
    result = outcome(restored.sample)
    if not result.raised:
        assert restored.contains(result.value)
    # The first sample seeds (from OS entropy) the generators Gymnasium's seeds.
    outcome(gym_restored.sample)
    assert sharing(restored) == sharing(gym_restored), f"{name}: lazily seeded generators differ"
    # Seeding the restored space then gives the stream of a fresh space seeded alike.
    restored.seed(5)
    assert_same_stream(restored, make(recipe, "int", seed=5), 2, f"{name} seeded after restore")


def test_shared_generator_across_separate_spaces_stays_shared():
    """Several top-level spaces on one Generator, pickled together: one new generator."""
    generator = np.random.default_rng(4)
    spaces = [RECIPES[name].build(GS, seeds=itertools.repeat(generator)) for name in ("Discrete", "Text")]
    spaces.append(GS.Graph(GS.Box(0, 1, (2,), seed=generator), None, seed=generator))
    for protocol in PROTOCOLS:
        restored = pickle.loads(pickle.dumps(spaces, protocol=protocol))
        gens = {id(gen) for space in restored for _, gen in generators(space)}
        assert len(gens) == 1 and id(generator) not in gens


# --------------------------------------------------------------------------- processes

WORKER_DRAWS = 4


def _sample_in_worker(payloads: list[bytes]) -> list[list[tuple[bool, Any]]]:
    """Runs in a spawned process: unpickle each space, sample it ``WORKER_DRAWS`` times."""
    results = []
    for payload in payloads:
        space = pickle.loads(payload)
        draws = []
        for _ in range(WORKER_DRAWS):
            try:
                draws.append((False, space.sample()))
            except Exception as exc:  # noqa: BLE001 - the parent compares exception types
                draws.append((True, type(exc).__name__))
        results.append(draws)
    return results


def test_spawned_workers_continue_the_stream():
    """A pickled space sent to a spawned process samples there exactly what the
    parent's own copy samples next (every kind, mid-stream, both seedings, all protocols)."""
    cases = [(name, seeding) for name in IDS for seeding in SEEDINGS]
    payloads, parents = [], []
    for index, (name, seeding) in enumerate(cases):
        space = advanced(RECIPES[name], seeding)
        payloads.append(pickle.dumps(space, protocol=PROTOCOLS[index % len(PROTOCOLS)]))
        parents.append(space)
    context = multiprocessing.get_context("spawn")
    half = len(payloads) // 2
    with context.Pool(2) as pool:
        results = pool.map(_sample_in_worker, [payloads[:half], payloads[half:]])
    assert_workers_continue(cases, parents, results[0] + results[1], "worker")


def assert_workers_continue(cases: list[Any], parents: list[Any], results: list[Any], who: str) -> None:
    """Each worker's draws (``_sample_in_worker``) are what the parent's copy draws next."""
    for (name, seeding), parent, draws in zip(cases, parents, results):
        for i, (raised, value) in enumerate(draws):
            expected = outcome(parent.sample)
            context_ = f"{name} ({seeding}) {who} draw {i}"
            assert raised == expected.raised, f"{context_}: {value!r} vs {expected.describe()}"
            if raised:
                assert value == type(expected.error).__name__, context_
            else:
                assert_same_value(value, expected.value, context_)


def _sample_patched_in_worker(payloads: list[bytes]) -> tuple[bool, list[str | None], list[list[tuple[bool, Any]]]]:
    """Runs in a worker started with ``GYMSPACES_PATCH=1``: whether unpickling the
    Gymnasium spaces (which imports Gymnasium) patched it, why each space does not
    run compiled (``None``: it does), and the draws of :func:`_sample_in_worker`."""
    from gymspaces.gymnasium import is_patched, plain_reason

    spaces = [pickle.loads(payload) for payload in payloads]
    return is_patched(), [plain_reason(space) for space in spaces], _sample_in_worker(payloads)


def test_spawned_workers_started_with_the_variable_patch_and_continue_the_stream(monkeypatch):
    """A spawned worker started with ``GYMSPACES_PATCH=1`` patches Gymnasium when it
    imports it (the start-up hook): the Gymnasium spaces it receives run compiled
    there, and sample exactly what the parent's copies sample next. (Forkserver
    and forked workers: tests/compat/test_patch_cli.py, from a program started so.)"""
    from gymspaces.gymnasium import patched, plain_reason

    cases = [(name, seeding) for name in IDS for seeding in SEEDINGS]
    payloads, parents = [], []
    for index, (name, seeding) in enumerate(cases):
        space = make(RECIPES[name], seeding, lib=GYM)
        for _ in range(PRIOR):
            outcome(space.sample)
        payloads.append(pickle.dumps(space, protocol=PROTOCOLS[index % len(PROTOCOLS)]))
        parents.append(space)
    with patched():
        expected_reasons = [plain_reason(space) for space in parents]
    assert expected_reasons.count(None) > len(cases) - 4  # nearly all run compiled (not an empty Tuple)
    monkeypatch.setenv("GYMSPACES_PATCH", "1")
    monkeypatch.delenv("GYMSPACES_REPORT", raising=False)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        worker_patched, reasons, results = pool.apply(_sample_patched_in_worker, (payloads,))
    assert worker_patched
    assert reasons == expected_reasons
    assert_workers_continue(cases, parents, results, "patched worker")
