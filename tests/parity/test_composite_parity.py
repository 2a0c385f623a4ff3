"""Differential parity of the composite spaces with Gymnasium 1.4.0 over generated nested spaces.

Hypothesis builds random trees (Dict of Tuple of Sequence of Box, Graphs with
Discrete/Box/Dict node features, OneOf of composites, ...) in both libraries.
Every test seeds both identically and requires exactly equal ``seed()``
results, samples (type, dtype, bytes, GraphInstance fields, dict key order),
exception types, and final states of every generator in the tree. The
composites' public members and signatures are compared in test_api_surface.py.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import textwrap

import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gymspaces.vector as gs_vector
from support.composite_helpers import (
    assert_same_tree_states,
    generators,
    same_sharing,
    seed_shape,
    seed_structure,
    valid_mask,
)
from support.differential import GS, GYM, assert_same_outcome, assert_same_value, outcome
from support.recipe_strategies import composite_space_recipes, space_recipes
from support.recipes import build_pair
from support.spaces_corpus import COMPOSITE_CORPUS

seeds = st.integers(0, 2**32 - 1)
EXAMPLES = 300


def _stream(gs_space, gym_space, draws, context, **kwargs):
    for i in range(draws):
        assert_same_outcome(
            outcome(lambda: gs_space.sample(**kwargs)),
            outcome(lambda: gym_space.sample(**kwargs)),
            f"{context} draw {i}",
            same_warnings=False,
        )


def _masked_streams(gs_space, gym_space, seed, kind, context):
    """Seed both with ``seed``, then three compared draws, each with a new valid ``kind``
    (mask or probability) structure drawn from a generator seeded with ``seed``."""
    gs_space.seed(seed), gym_space.seed(seed)
    rng = np.random.default_rng(seed)
    for i in range(3):
        structure = valid_mask(gym_space, rng, kind)
        _stream(gs_space, gym_space, 1, f"{context} {kind}={structure!r} #{i}", **{kind: structure})


@settings(max_examples=EXAMPLES)
@given(recipe=space_recipes, seed=seeds)
def test_int_seed_sample_stream(recipe, seed):
    gs_space, gym_space = build_pair(recipe)
    assert_same_value(gs_space.seed(seed), gym_space.seed(seed), "seed()")
    assert_same_tree_states(gs_space, gym_space, "after seed")
    _stream(gs_space, gym_space, 4, repr(recipe))
    assert_same_tree_states(gs_space, gym_space, "after samples")


@settings(max_examples=EXAMPLES)
@given(recipe=space_recipes, seed=seeds, kind=st.sampled_from(["mask", "probability"]))
def test_masked_sample_stream(recipe, seed, kind):
    gs_space, gym_space = build_pair(recipe)
    _masked_streams(gs_space, gym_space, seed, kind, str(recipe))
    assert_same_tree_states(gs_space, gym_space, kind)


@settings(max_examples=EXAMPLES)
@given(recipe=composite_space_recipes, seed=seeds)
def test_nested_seed_structures(recipe, seed):
    gs_space, gym_space = build_pair(recipe)
    structure = seed_structure(gym_space, np.random.default_rng(seed))
    assert_same_outcome(
        outcome(lambda: gs_space.seed(structure)), outcome(lambda: gym_space.seed(structure)),
        f"seed({structure!r})",
        same_warnings=False,
    )
    assert_same_tree_states(gs_space, gym_space, "after nested seed")
    _stream(gs_space, gym_space, 3, repr(recipe))
    assert_same_tree_states(gs_space, gym_space, "after samples")


@settings(max_examples=EXAMPLES)
@given(recipe=space_recipes, seed=seeds, shared=st.booleans())
def test_generator_seeds(recipe, seed, shared):
    """``seed=Generator`` at every level, one generator per space or one shared by all."""

    def generators():
        if shared:
            return itertools.repeat(np.random.default_rng(seed))
        return (np.random.default_rng([seed, i]) for i in itertools.count())

    gs_space, gym_space = recipe.build(GS, seeds=generators()), recipe.build(GYM, seeds=generators())
    assert same_sharing(gs_space, gym_space)
    _stream(gs_space, gym_space, 3, repr(recipe))
    assert_same_tree_states(gs_space, gym_space, "generator seeds")
    assert same_sharing(gs_space, gym_space)


@settings(max_examples=60)
@given(recipe=space_recipes)
def test_seed_none_returns_same_structure(recipe):
    gs_space, gym_space = build_pair(recipe)
    gs_seeds, gym_seeds = gs_space.seed(None), gym_space.seed(None)
    assert seed_shape(gs_seeds) == seed_shape(gym_seeds)
    # The same generators are (un)set: Tuple/Dict keep their own unset (quirk Q2, docs/quirks.md).
    assert _unset(gs_space) == _unset(gym_space)


def _unset(space):
    """Which generators of the tree are still unset."""
    return [gen is None for _, gen in generators(space)]


@settings(max_examples=EXAMPLES)
@given(recipe=space_recipes, seed=seeds)
def test_repr_contains_and_jsonable(recipe, seed):
    gs_space, gym_space = build_pair(recipe)
    assert repr(gs_space) == repr(gym_space)
    gs_space.seed(seed), gym_space.seed(seed)
    samples = [(gs_space.sample(), gym_space.sample()) for _ in range(2)]
    for gs_sample, gym_sample in samples:
        assert_same_value(gs_sample, gym_sample, "sample")
        verdict = outcome(lambda: gs_space.contains(gs_sample))
        expected = outcome(lambda: gym_space.contains(gym_sample))
        # Both libraries raise for e.g. a stacked Sequence of an empty Dict.
        assert_same_outcome(verdict, expected, "contains", same_warnings=False)
        assert verdict.raised or verdict.value, f"a sample of {recipe} is not contained in it"
    gs_json = outcome(lambda: gs_space.to_jsonable([s for s, _ in samples]))
    gym_json = outcome(lambda: gym_space.to_jsonable([s for _, s in samples]))
    assert_same_outcome(gs_json, gym_json, "to_jsonable", same_warnings=False)  # e.g. OneOf(Tuple()) raises
    if gym_json.raised:
        return
    assert_same_outcome(
        outcome(lambda: gs_space.from_jsonable(gs_json.value)),
        outcome(lambda: gym_space.from_jsonable(gym_json.value)),
        "from_jsonable",
        same_warnings=False,
    )


@settings(max_examples=200)
@given(recipe=space_recipes)
def test_equality_and_unhashability(recipe):
    first, second = recipe.build(GS), recipe.build(GS)
    assert first == second
    assert not (first != second)
    with pytest.raises(TypeError):
        hash(first)


@settings(max_examples=200)
@given(recipe=space_recipes, seed=seeds)
def test_pickle_and_deepcopy_keep_the_stream(recipe, seed):
    gs_space, gym_space = build_pair(recipe)
    gs_space.seed(seed), gym_space.seed(seed)
    assert_same_value(gs_space.sample(), gym_space.sample())
    for clone in (copy.deepcopy(gs_space), pickle.loads(pickle.dumps(gs_space))):
        assert clone == gs_space
        assert_same_tree_states(clone, gym_space, "clone")
        _stream(clone, copy.deepcopy(gym_space), 2, f"clone of {recipe}")
    # The original is unaffected by its clones' draws.
    _stream(gs_space, gym_space, 2, f"original {recipe}")
    assert_same_tree_states(gs_space, gym_space, "original")


@settings(max_examples=EXAMPLES)
@given(recipe=space_recipes, seed=seeds, n=st.integers(1, 3))
def test_batch_space_sample_stream(recipe, seed, n):
    gs_space, gym_space = build_pair(recipe)
    gs_space.seed(seed), gym_space.seed(seed)
    gs_batch, gym_batch = gs_vector.batch_space(gs_space, n), gym_vector.batch_space(gym_space, n)
    assert repr(gs_batch) == repr(gym_batch)
    assert_same_tree_states(gs_batch, gym_batch, "batched")
    _stream(gs_batch, gym_batch, 2, f"batch_space({recipe}, {n})")
    assert_same_tree_states(gs_batch, gym_batch, "batched after samples")
    # The original's generators were only copied, never advanced.
    assert_same_tree_states(gs_space, gym_space, "original after batching")
    _stream(gs_space, gym_space, 1, f"original {recipe}")


@settings(max_examples=200)
@given(recipe=space_recipes, seed=seeds, n=st.integers(0, 3))
def test_create_empty_array_concatenate_iterate(recipe, seed, n):
    gs_space, gym_space = build_pair(recipe)
    gs_space.seed(seed), gym_space.seed(seed)
    items = [(gs_space.sample(), gym_space.sample()) for _ in range(n)]
    gs_out = outcome(lambda: gs_vector.create_empty_array(gs_space, n))
    gym_out = outcome(lambda: gym_vector.create_empty_array(gym_space, n))
    assert_same_outcome(gs_out, gym_out, "create_empty_array", same_warnings=False)
    gs_cat = outcome(lambda: gs_vector.concatenate(gs_space, [a for a, _ in items], gs_out.value))
    gym_cat = outcome(lambda: gym_vector.concatenate(gym_space, [b for _, b in items], gym_out.value))
    assert_same_outcome(gs_cat, gym_cat, "concatenate", same_warnings=False)
    if gs_cat.raised:
        return
    gs_batch, gym_batch = gs_vector.batch_space(gs_space, n), gym_vector.batch_space(gym_space, n)
    assert_same_outcome(
        outcome(lambda: list(gs_vector.iterate(gs_batch, gs_cat.value))),
        outcome(lambda: list(gym_vector.iterate(gym_batch, gym_cat.value))),
        "iterate",
        same_warnings=False,
    )


@settings(max_examples=200)
@given(recipe=space_recipes, seed=seeds)
def test_first_touch_of_unseeded_spaces(recipe, seed):
    """Lazy seeding: which generators a first sample or np_random access sets (quirk Q1, docs/quirks.md)."""
    gs_space, gym_space = build_pair(recipe)
    gs_out, gym_out = outcome(gs_space.sample), outcome(gym_space.sample)
    assert gs_out.raised == gym_out.raised
    assert _unset(gs_space) == _unset(gym_space)
    gs_space.np_random, gym_space.np_random  # noqa: B018 - the access itself is tested
    assert _unset(gs_space) == _unset(gym_space)


# --------------------------------------------------------------------------- fixed corpus, many seeds

CORPUS_SEEDS = range(25)
corpus = pytest.mark.parametrize(
    "recipe", list(COMPOSITE_CORPUS.values()), ids=list(COMPOSITE_CORPUS)
)


@corpus
def test_corpus_int_seed_streams(recipe):
    for seed in CORPUS_SEEDS:
        gs_space, gym_space = build_pair(recipe)
        assert_same_value(gs_space.seed(seed), gym_space.seed(seed), f"seed({seed})")
        _stream(gs_space, gym_space, 5, f"seed {seed}")
        assert_same_tree_states(gs_space, gym_space, f"seed {seed}")


@corpus
@pytest.mark.parametrize("kind", ["mask", "probability"])
def test_corpus_masked_streams(recipe, kind):
    for seed in range(10):
        gs_space, gym_space = build_pair(recipe)
        _masked_streams(gs_space, gym_space, seed, kind, f"seed {seed}")
        assert_same_tree_states(gs_space, gym_space, f"seed {seed}")


@corpus
def test_corpus_batch_space_streams(recipe):
    for seed in range(10):
        gs_space, gym_space = build_pair(recipe)
        gs_space.seed(seed), gym_space.seed(seed)
        gs_batch, gym_batch = gs_vector.batch_space(gs_space, 3), gym_vector.batch_space(gym_space, 3)
        _stream(gs_batch, gym_batch, 2, f"batched, seed {seed}")
        _stream(gs_space, gym_space, 2, f"original, seed {seed}")
        assert_same_tree_states(gs_space, gym_space, f"seed {seed}")


# --------------------------------------------------------------------------- python -O (quirk Q26, docs/quirks.md)

OPTIMIZED_CASES = [
    "L.Tuple((L.Discrete(3), L.Discrete(2))), {'mask': (None,)}",
    "L.Tuple((L.Discrete(3), L.Discrete(2))), {'mask': [None, None]}",
    "L.Dict(a=L.Discrete(3), b=L.Discrete(2)), {'mask': {'a': None, 'c': None}}",
    "L.Dict(a=L.Discrete(3)), {'probability': [None]}",
    "L.Sequence(L.Discrete(3)), {'mask': (-2, None)}",
    "L.Sequence(L.Discrete(3)), {'mask': (np.array([[2, 3]]), None)}",
    "L.Sequence(L.Discrete(3)), {'mask': (np.array([2.0, 3.0]), None)}",
    "L.Graph(L.Discrete(3), L.Discrete(2)), {'num_nodes': 0}",
    "L.Graph(L.Box(0, 1, (2,)), L.Discrete(2)), {'num_nodes': -1}",
    "L.Graph(L.Discrete(3), L.Discrete(2)), {'num_edges': -3}",
    "L.OneOf((L.Discrete(3), L.Discrete(2))), {'mask': (None,)}",
    "L.OneOf((L.Discrete(3), L.Discrete(2))), {'probability': [None, None]}",
]

# The part of the script that is this module's (conftest.py runs it on every case).
OPTIMIZED_SCRIPT = textwrap.dedent(
    """
    from support.composite_helpers import generators

    def run(space, kwargs):
        try:
            return ["ok", repr(space.sample(**kwargs))]
        except Exception as exc:
            return ["error", type(exc).__name__]

    def states(space):
        return [None if g is None else g.bit_generator.state for _, g in generators(space)]
    """
)


@pytest.mark.parametrize("source", OPTIMIZED_CASES)
def test_optimized_mode_skips_assertions_like_gymnasium(optimized_report, source):
    entry = optimized_report[source]
    assert entry["gymspaces"] == entry["gymnasium"], entry
    assert entry["same_state"], entry
