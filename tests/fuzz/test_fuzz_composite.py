"""Fuzz the composite spaces (Tuple, Dict, Sequence, Graph, OneOf) against Gymnasium 1.4.0.

Hypothesis generates trees up to three composite levels deep over the
fundamental spaces of :mod:`support.recipe_strategies` (every Box dtype, Discrete with
start/dtype, MultiBinary, nested MultiDiscrete, Text charsets), builds each in
both libraries, seeds both identically and then makes the same calls:
``sample`` with valid and corrupted mask/probability structures (and Graph's
``num_nodes``/``num_edges``), ``contains``, the flatten family, the vector
helpers and the jsonable round trip. Each library gets its own copy of a
value (its own ``GraphInstance``), corrupted in the same way. Results must be
equal, or raise the same exception type, and every generator of both trees
must end in the same state.
"""

from __future__ import annotations

import gymnasium.spaces.utils as gym_utils
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from support.composite_helpers import assert_same_tree_states, children, valid_mask
from support.differential import GS, GYM, assert_same_outcome, outcome
from support.fuzz_support import BOUNDED_OPS, SEEDS, UTILS, VECTOR, corrupt, examples, on_seeded_pairs
from support.recipe_strategies import composite_recipes
from support.recipes import spec

# Example counts per test (scaled by GYMSPACES_FUZZ_SCALE).
EXAMPLES = {
    "sample": examples(150),
    "contains": examples(120),
    "flatten": examples(120),
    "vector": examples(100),
    "jsonable": examples(100),
    "huge": examples(60),
}
MUTATIONS = 6  # corrupted arguments tried per example

trees = composite_recipes(depth=3)


def _both(call, context, *, returns_space=False):
    """``call(lib)`` for both libraries; same result (spaces: same repr) or same exception type."""
    gs_out, gym_out = outcome(lambda: call(GS)), outcome(lambda: call(GYM))
    if returns_space and not (gs_out.raised or gym_out.raised):
        assert repr(gs_out.value) == repr(gym_out.value), context
    else:
        assert_same_outcome(gs_out, gym_out, context, same_warnings=False)
    return gs_out, gym_out


def _seeded_pair(recipe, seed):
    gs_out, gym_out = _both(recipe.build, f"constructor {recipe!r}", returns_space=True)
    if gym_out.raised:
        return None
    gs_space, gym_space = gs_out.value, gym_out.value
    seeded = _both(lambda lib: (gs_space if lib is GS else gym_space).seed(seed), f"seed({seed})")
    if seeded[1].raised:
        return None
    assert_same_tree_states(gs_space, gym_space, "after seed")
    return gs_space, gym_space


def _samples(gs_space, gym_space, count):
    """``count`` compared samples of both: ``(gymspaces_sample, gymnasium_sample)`` pairs."""
    pairs = []
    for i in range(count):
        gs_out, gym_out = _both(lambda lib: (gs_space if lib is GS else gym_space).sample(), f"sample {i}")
        if gym_out.raised:
            break
        pairs.append((gs_out.value, gym_out.value))
    assert_same_tree_states(gs_space, gym_space, "after samples")
    return pairs


def _twin_corrupt(gs_value, gym_value, seed):
    """Corrupt each library's own copy of a value in the same way."""
    gs_bad, how = corrupt(gs_value, np.random.default_rng(seed))
    gym_bad, how_gym = corrupt(gym_value, np.random.default_rng(seed))
    assert how == how_gym
    return gs_bad, gym_bad, how


# --------------------------------------------------------------------------- sample


@on_seeded_pairs(EXAMPLES["sample"], trees, _seeded_pair)
def test_sample_with_valid_and_corrupted_masks(gs_space, gym_space, ops_seed):
    spaces = {GS: gs_space, GYM: gym_space}
    rng = np.random.default_rng(ops_seed)
    for i in range(MUTATIONS):
        kind = "mask" if rng.random() < 0.5 else "probability"
        structure = valid_mask(gym_space, rng, kind)
        how = "valid"
        if rng.random() < 0.6:
            structure, how = corrupt(structure, rng, BOUNDED_OPS)
        kwargs = {kind: structure}
        if type(gym_space).__name__ == "Graph" and rng.random() < 0.5:
            kwargs["num_nodes"] = int(rng.integers(-1, 6))
            if rng.random() < 0.5:
                kwargs["num_edges"] = int(rng.integers(-1, 8))
        context = f"sample(**{kwargs!r}) [{how}] #{i}"
        _both(lambda lib: spaces[lib].sample(**kwargs), context)
        assert_same_tree_states(gs_space, gym_space, context)
    _samples(gs_space, gym_space, 2)


# --------------------------------------------------------------------------- contains


@on_seeded_pairs(EXAMPLES["contains"], trees, _seeded_pair)
def test_contains_of_samples_and_corrupted_values(gs_space, gym_space, ops_seed):
    spaces = {GS: gs_space, GYM: gym_space}
    for value in (None, 0, "x", (), [], {}, np.zeros(2)):
        _both(lambda lib: spaces[lib].contains(value), f"contains({value!r})")
    for j, (gs_x, gym_x) in enumerate(_samples(gs_space, gym_space, 2)):
        values = {GS: gs_x, GYM: gym_x}
        _both(lambda lib: spaces[lib].contains(values[lib]), "contains(sample)")
        _both(lambda lib: values[lib] in spaces[lib], "sample in space")
        for i in range(MUTATIONS):
            gs_bad, gym_bad, how = _twin_corrupt(gs_x, gym_x, ops_seed + 100 * j + i)
            bad = {GS: gs_bad, GYM: gym_bad}
            _both(lambda lib: spaces[lib].contains(bad[lib]), f"contains({gym_bad!r}) [{how}]")
    assert_same_tree_states(gs_space, gym_space, "contains draws nothing")


# --------------------------------------------------------------------------- utils


def _largest_leaf_flatdim(space):
    kids = children(space)
    if not kids and type(space).__name__ not in ("Tuple", "Dict", "OneOf"):
        return gym_utils.flatdim(space)
    return max((_largest_leaf_flatdim(kid) for kid in kids), default=0)


@on_seeded_pairs(EXAMPLES["flatten"], trees, _seeded_pair)
def test_flatten_family(gs_space, gym_space, ops_seed):
    spaces = {GS: gs_space, GYM: gym_space}
    _both(lambda lib: UTILS[lib].flatdim(spaces[lib]), "flatdim")
    if _largest_leaf_flatdim(gym_space) > 4096:
        return  # e.g. Discrete(2**40) inside: one-hot vectors too big to build here
    _both(lambda lib: UTILS[lib].flatten_space(spaces[lib]), "flatten_space", returns_space=True)
    for j, (gs_x, gym_x) in enumerate(_samples(gs_space, gym_space, 2)):
        values = {GS: gs_x, GYM: gym_x}
        flat = _both(lambda lib: UTILS[lib].flatten(spaces[lib], values[lib]), f"flatten({gym_x!r})")
        if flat[1].raised:
            continue
        flats = {GS: flat[0].value, GYM: flat[1].value}
        _both(lambda lib: UTILS[lib].unflatten(spaces[lib], flats[lib]), f"unflatten({flats[GYM]!r})")
        for i in range(MUTATIONS // 2):
            gs_bad, gym_bad, how = _twin_corrupt(gs_x, gym_x, ops_seed + 100 * j + i)
            bad = {GS: gs_bad, GYM: gym_bad}
            _both(lambda lib: UTILS[lib].flatten(spaces[lib], bad[lib]), f"flatten({gym_bad!r}) [{how}]")
            gs_bad, gym_bad, how = _twin_corrupt(flats[GS], flats[GYM], ops_seed + 100 * j + i)
            bad = {GS: gs_bad, GYM: gym_bad}
            _both(lambda lib: UTILS[lib].unflatten(spaces[lib], bad[lib]), f"unflatten({gym_bad!r}) [{how}]")
    assert_same_tree_states(gs_space, gym_space, "flatten draws nothing")


# --------------------------------------------------------------------------- vector


@on_seeded_pairs(EXAMPLES["vector"], trees, _seeded_pair, n=st.integers(0, 3))
def test_vector_helpers(gs_space, gym_space, ops_seed, n):
    spaces = {GS: gs_space, GYM: gym_space}
    batch = _both(lambda lib: VECTOR[lib].batch_space(spaces[lib], n), f"batch_space(n={n})", returns_space=True)
    batches = {GS: batch[0].value, GYM: batch[1].value}
    if not batch[1].raised:
        assert_same_tree_states(batches[GS], batches[GYM], "batched")
        _samples(batches[GS], batches[GYM], 2)
        assert_same_tree_states(gs_space, gym_space, "original after batching")
    pairs = _samples(gs_space, gym_space, n)
    if len(pairs) != n:
        return
    items = {GS: [a for a, _ in pairs], GYM: [b for _, b in pairs]}
    empty = _both(lambda lib: VECTOR[lib].create_empty_array(spaces[lib], n), "create_empty_array")
    if empty[1].raised:
        return
    outs = {GS: empty[0].value, GYM: empty[1].value}
    cat = _both(lambda lib: VECTOR[lib].concatenate(spaces[lib], items[lib], outs[lib]), "concatenate")
    if not cat[1].raised and not batch[1].raised:
        cats = {GS: cat[0].value, GYM: cat[1].value}
        _both(lambda lib: list(VECTOR[lib].iterate(batches[lib], cats[lib])), "iterate")
        for i in range(MUTATIONS // 2):
            gs_bad, gym_bad, how = _twin_corrupt(cats[GS], cats[GYM], ops_seed + i)
            bad = {GS: gs_bad, GYM: gym_bad}
            _both(lambda lib: list(VECTOR[lib].iterate(batches[lib], bad[lib])), f"iterate({gym_bad!r}) [{how}]")
    if n:
        gs_bad, gym_bad, how = _twin_corrupt(items[GS][-1], items[GYM][-1], ops_seed)
        bad_items = {GS: items[GS][:-1] + [gs_bad], GYM: items[GYM][:-1] + [gym_bad]}
        fresh = {lib: outcome(lambda: VECTOR[lib].create_empty_array(spaces[lib], n)).value for lib in (GS, GYM)}
        _both(lambda lib: VECTOR[lib].concatenate(spaces[lib], bad_items[lib], fresh[lib]),
              f"concatenate(... {gym_bad!r}) [{how}]")
    assert_same_tree_states(gs_space, gym_space, "after vector helpers")


# --------------------------------------------------------------------------- jsonable


@on_seeded_pairs(EXAMPLES["jsonable"], trees, _seeded_pair)
def test_jsonable_round_trip(gs_space, gym_space, ops_seed):
    spaces = {GS: gs_space, GYM: gym_space}
    pairs = _samples(gs_space, gym_space, 3)
    items = {GS: [a for a, _ in pairs], GYM: [b for _, b in pairs]}
    js = _both(lambda lib: spaces[lib].to_jsonable(items[lib]), "to_jsonable")
    if js[1].raised:
        return
    jsons = {GS: js[0].value, GYM: js[1].value}
    _both(lambda lib: spaces[lib].from_jsonable(jsons[lib]), "from_jsonable")
    for i in range(MUTATIONS // 2):
        container = {lib: tuple(jsons[lib]) if isinstance(jsons[lib], list) else jsons[lib] for lib in (GS, GYM)}
        gs_bad, gym_bad, how = _twin_corrupt(container[GS], container[GYM], ops_seed + i)
        bad = {lib: list(v) if isinstance(v, tuple) else v for lib, v in ((GS, gs_bad), (GYM, gym_bad))}
        _both(lambda lib: spaces[lib].from_jsonable(bad[lib]), f"from_jsonable({bad[GYM]!r}) [{how}]")


# --------------------------------------------------------------------------- huge sequence lengths

FEATURES = [
    spec.Discrete(3),
    spec.Box(0, 1, (2,), "float32"),
    spec.MultiBinary(3),
    spec.MultiDiscrete([2, 3]),
    spec.Text(3, charset="ab"),
    spec.Tuple([spec.Discrete(2)]),
    spec.Dict({"a": spec.Discrete(2)}, sort_keys=True),
    spec.Sequence(spec.Discrete(2), stack=False),
    spec.OneOf([spec.Discrete(2), spec.MultiBinary(2)]),
    spec.Graph(spec.Discrete(2), None),
]
HUGE_LENGTHS = [10**12, 2**62, 2**63 - 1, np.int64(2**62), np.uint64(2**64 - 1)]


@settings(max_examples=EXAMPLES["huge"])
@given(
    feature=st.sampled_from(FEATURES),
    stack=st.booleans(),
    length=st.sampled_from(HUGE_LENGTHS),
    as_array=st.booleans(),
    kind=st.sampled_from(["mask", "probability"]),
    seed=SEEDS,
)
def test_sequence_huge_length_with_bad_feature_mask_raises(feature, stack, length, as_array, kind, seed):
    """A huge requested length must not be allocated: the first feature sample raises."""
    pair = _seeded_pair(spec.Sequence(feature, stack=stack), seed)
    if pair is None:
        return
    gs_space, gym_space = pair
    spaces = {GS: gs_space, GYM: gym_space}
    length_mask = np.array([length, 1]) if as_array else length
    kwargs = {kind: (length_mask, object())}
    _both(lambda lib: spaces[lib].sample(**kwargs), f"sample({kwargs})")
    assert_same_tree_states(gs_space, gym_space, "after huge masked sample")
    for bad_length in (-int(length), float(length), np.array([[1]]), np.array([-1]), np.array([1.5]), "1"):
        kwargs = {kind: (bad_length, None)}
        _both(lambda lib: spaces[lib].sample(**kwargs), f"sample({kwargs})")
        assert_same_tree_states(gs_space, gym_space, f"after {kwargs}")
