"""Fuzz the fundamental spaces (Box, Discrete, MultiBinary, MultiDiscrete, Text) against Gymnasium 1.4.0.

Hypothesis generates constructor arguments (mostly valid, some broken) and a
seed; every test builds the space in both libraries from the same recipe and
then makes the same calls on both -- ``sample`` with valid and corrupted
masks/probabilities, ``contains``, the ``utils`` flatten family, the
``vector`` batch helpers and the jsonable round trip -- requiring the same
value (type, dtype, bytes) or the same exception type, and the same
generator state after every call. Corruptions (wrong dtype/shape/values,
strided, read-only, big-endian, Fortran-ordered, lists, scalars, ...) come
from :mod:`support.fuzz_support`; the constructor arguments from
:mod:`support.recipe_strategies`.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from support.differential import GS, GYM, assert_same_outcome, assert_same_state, outcome
from support.composite_helpers import leaf_mask
from support.fuzz_support import (
    ARRAY_OPS, SEEDS, UTILS, VECTOR, corrupt, corrupt_leaf_value, examples, on_seeded_pairs,
)
from support.recipe_strategies import leaf_recipes
from support.recipes import spec

# Example counts per test (scaled by GYMSPACES_FUZZ_SCALE).
EXAMPLES = {
    "constructors": examples(400),
    "sample": examples(250),
    "contains": examples(250),
    "flatten": examples(200),
    "vector": examples(150),
    "jsonable": examples(150),
    "huge": examples(40),
}
MUTATIONS = 12  # corrupted arguments tried per example



def _construct(recipe):
    """Build ``recipe`` in both libraries; both must succeed, or raise the same exception type."""
    gs_out, gym_out = outcome(lambda: recipe.build(GS)), outcome(lambda: recipe.build(GYM))
    if gs_out.raised or gym_out.raised:
        assert_same_outcome(gs_out, gym_out, f"constructor {recipe!r}", same_warnings=False)
    return gs_out, gym_out


def _pair(recipe):
    """Both libraries' spaces, or ``None`` after checking that both constructors raised alike."""
    gs_out, gym_out = _construct(recipe)
    if gym_out.raised:
        return None
    return gs_out.value, gym_out.value


def _seeded_pair(recipe, seed):
    pair = _pair(recipe)
    if pair is None:
        return None
    gs_space, gym_space = pair
    assert gs_space.seed(seed) == gym_space.seed(seed)
    return gs_space, gym_space


def _samples(gs_space, gym_space, count):
    """``count`` samples of both (compared); empty if sampling raises (quirks Q8/Q9, docs/quirks.md)."""
    pairs = []
    for i in range(count):
        gs_out, gym_out = outcome(gs_space.sample), outcome(gym_space.sample)
        assert_same_outcome(gs_out, gym_out, f"sample {i} of {gym_space!r}", same_warnings=False)
        if gym_out.raised:
            return []
        pairs.append((gs_out.value, gym_out.value))
    assert_same_state(gs_space, gym_space, f"after samples of {gym_space!r}")
    return pairs


def _call_both(call, gs_args, gym_args, context, *, same_warnings=False, returns_space=False):
    """``call(lib, *args)`` for both libraries; outcomes must agree (spaces by type name and repr)."""
    gs_out = outcome(lambda: call(GS, *gs_args))
    gym_out = outcome(lambda: call(GYM, *gym_args))
    if returns_space and not (gs_out.raised or gym_out.raised):
        assert type(gs_out.value).__name__ == type(gym_out.value).__name__, context
        assert repr(gs_out.value) == repr(gym_out.value), context
        assert gs_out.warnings == gym_out.warnings or not same_warnings, context
    else:
        assert_same_outcome(gs_out, gym_out, context, same_warnings=same_warnings)
    return gs_out, gym_out


# --------------------------------------------------------------------------- constructors


@settings(max_examples=EXAMPLES["constructors"])
@given(recipe=leaf_recipes())
def test_constructor_attributes_and_repr(recipe):
    gs_out, gym_out = _construct(recipe)
    # Warnings: same categories (Box's precision/bounds warnings).
    assert [w[0] for w in gs_out.warnings] == [w[0] for w in gym_out.warnings], recipe
    if gym_out.raised:
        return
    gs_space, gym_space = gs_out.value, gym_out.value
    assert repr(gs_space) == repr(gym_space)
    assert str(gs_space) == str(gym_space)
    assert gs_space.shape == gym_space.shape
    assert gs_space.dtype == gym_space.dtype
    assert gs_space.is_np_flattenable == gym_space.is_np_flattenable
    for attr in ("low", "high", "nvec", "start", "n", "min_length", "max_length", "character_set"):
        if hasattr(gym_space, attr):
            _call_both(lambda lib, s: getattr(s, attr), (gs_space,), (gym_space,), attr)
    # Equality agrees with Gymnasium's for a second build of the same recipe.
    again = outcome(lambda: (gs_space == recipe.build(GS), gym_space == recipe.build(GYM)))
    assert again.value[0] == again.value[1]


# --------------------------------------------------------------------------- sample


@on_seeded_pairs(EXAMPLES["sample"], leaf_recipes(), _seeded_pair)
def test_sample_with_valid_and_corrupted_masks(gs_space, gym_space, ops_seed):
    rng = np.random.default_rng(ops_seed)
    for i in range(MUTATIONS):
        kind = "mask" if rng.random() < 0.5 else "probability"
        structure = leaf_mask(gym_space, rng, kind)
        mode = int(rng.integers(4))
        how = "valid"
        if structure is None and type(gym_space).__name__ == "Box" and mode:
            structure = np.ones(gym_space.shape, np.int8)  # Box: any mask is rejected
        elif structure is not None and mode:
            structure, how = corrupt(structure, rng)
        if mode == 3 and rng.random() < 0.3:
            kwargs = {"mask": structure, "probability": structure}
        else:
            kwargs = {kind: structure}
        context = f"{gym_space!r}.sample({kwargs!r}) [{how}] #{i}"
        _call_both(lambda lib, s: s.sample(**kwargs), (gs_space,), (gym_space,), context)
        assert_same_state(gs_space, gym_space, context)
    _samples(gs_space, gym_space, 2)


# --------------------------------------------------------------------------- contains


@on_seeded_pairs(EXAMPLES["contains"], leaf_recipes(valid_only=True), _seeded_pair)
def test_contains_of_samples_and_corrupted_values(gs_space, gym_space, ops_seed):
    samples = _samples(gs_space, gym_space, 2)
    rng = np.random.default_rng(ops_seed)
    values = [gym for _, gym in samples] + [None, 0, 1.5, "a", [], (), {}, np.zeros(0)]
    for value in values:
        _call_both(lambda lib, s, x: s.contains(x), (gs_space, value), (gym_space, value),
                              f"{gym_space!r}.contains({value!r})")
        _call_both(lambda lib, s, x: x in s, (gs_space, value), (gym_space, value), f"{value!r} in space")
    for _, gym in samples:
        for _ in range(MUTATIONS):
            op = ARRAY_OPS[int(rng.integers(len(ARRAY_OPS)))]
            bad = corrupt_leaf_value(gym, op, rng)
            context = f"{gym_space!r}.contains({bad!r}) [{op}]"
            _call_both(lambda lib, s, x: s.contains(x), (gs_space, bad), (gym_space, bad), context)
    assert_same_state(gs_space, gym_space, "contains draws nothing")


# --------------------------------------------------------------------------- utils


@on_seeded_pairs(EXAMPLES["flatten"], leaf_recipes(valid_only=True), _seeded_pair)
def test_flatten_family(gs_space, gym_space, ops_seed):
    rng = np.random.default_rng(ops_seed)
    dim = _call_both(lambda lib, s: UTILS[lib].flatdim(s), (gs_space,), (gym_space,), "flatdim")[1]
    if dim.raised or dim.value > 4096:
        return  # e.g. Discrete(2**40): one-hot vectors too big to build here
    _call_both(lambda lib, s: UTILS[lib].flatten_space(s), (gs_space,), (gym_space,), "flatten_space",
               returns_space=True)
    for gs_x, gym_x in _samples(gs_space, gym_space, 2):
        flat = _call_both(lambda lib, s, x: UTILS[lib].flatten(s, x), (gs_space, gs_x), (gym_space, gym_x),
                          f"flatten({gym_space!r}, {gym_x!r})")[1]
        if flat.raised:
            continue
        _call_both(lambda lib, s, x: UTILS[lib].unflatten(s, x), (gs_space, flat.value.copy()),
                   (gym_space, flat.value.copy()), f"unflatten({gym_space!r}, {flat.value!r})")
        for _ in range(MUTATIONS // 2):
            op = ARRAY_OPS[int(rng.integers(len(ARRAY_OPS)))]
            bad_x = corrupt_leaf_value(gym_x, op, rng)
            _call_both(lambda lib, s, x: UTILS[lib].flatten(s, x), (gs_space, bad_x), (gym_space, bad_x),
                       f"flatten({gym_space!r}, {bad_x!r}) [{op}]")
            op = ARRAY_OPS[int(rng.integers(len(ARRAY_OPS)))]
            bad_flat = corrupt_leaf_value(flat.value, op, rng)
            _call_both(lambda lib, s, x: UTILS[lib].unflatten(s, x), (gs_space, bad_flat),
                       (gym_space, bad_flat), f"unflatten({gym_space!r}, {bad_flat!r}) [{op}]")
    assert_same_state(gs_space, gym_space, "flatten draws nothing")


# --------------------------------------------------------------------------- vector


@on_seeded_pairs(EXAMPLES["vector"], leaf_recipes(valid_only=True), _seeded_pair, n=st.integers(0, 3))
def test_vector_helpers(gs_space, gym_space, ops_seed, n):
    rng = np.random.default_rng(ops_seed)
    batch = _call_both(lambda lib, s: VECTOR[lib].batch_space(s, n), (gs_space,), (gym_space,),
                       f"batch_space({gym_space!r}, {n})", returns_space=True)
    if not batch[1].raised:
        gs_batch, gym_batch = batch[0].value, batch[1].value
        assert repr(gs_batch) == repr(gym_batch)
        assert_same_state(gs_batch, gym_batch, "batched")
        _samples(gs_batch, gym_batch, 2)
    items = _samples(gs_space, gym_space, n)
    if len(items) != n:
        return
    empty = _call_both(lambda lib, s: VECTOR[lib].create_empty_array(s, n), (gs_space,), (gym_space,),
                       "create_empty_array")
    gs_items, gym_items = [a for a, _ in items], [b for _, b in items]
    cat = _call_both(lambda lib, s, xs, out: VECTOR[lib].concatenate(s, xs, out),
                     (gs_space, gs_items, empty[0].value), (gym_space, gym_items, empty[1].value),
                     "concatenate")
    if not cat[1].raised and not batch[1].raised:
        _call_both(lambda lib, s, xs: list(VECTOR[lib].iterate(s, xs)),
                   (gs_batch, cat[0].value), (gym_batch, cat[1].value), "iterate")
        for _ in range(3):
            bad, how = corrupt(cat[1].value, rng)
            _call_both(lambda lib, s, xs: list(VECTOR[lib].iterate(s, xs)), (gs_batch, bad), (gym_batch, bad),
                       f"iterate({gym_batch!r}, {bad!r}) [{how}]")
    if n and not empty[1].raised:
        # One corrupted item: concatenate either writes the same or raises the same.
        op = ARRAY_OPS[int(rng.integers(len(ARRAY_OPS)))]
        bad_items = list(gym_items)
        bad_items[int(rng.integers(n))] = corrupt_leaf_value(gym_items[0], op, rng)
        outs = [VECTOR[lib].create_empty_array(space, n) for lib, space in ((GS, gs_space), (GYM, gym_space))]
        _call_both(lambda lib, s, xs, out: VECTOR[lib].concatenate(s, xs, out),
                   (gs_space, bad_items, outs[0]), (gym_space, bad_items, outs[1]),
                   f"concatenate({gym_space!r}, {bad_items!r}) [{op}]")


# --------------------------------------------------------------------------- jsonable


@on_seeded_pairs(EXAMPLES["jsonable"], leaf_recipes(valid_only=True), _seeded_pair)
def test_jsonable_round_trip(gs_space, gym_space, ops_seed):
    rng = np.random.default_rng(ops_seed)
    items = _samples(gs_space, gym_space, 3)
    gs_items, gym_items = [a for a, _ in items], [b for _, b in items]
    js = _call_both(lambda lib, s, xs: s.to_jsonable(xs), (gs_space, gs_items), (gym_space, gym_items),
                    "to_jsonable")[1]
    if js.raised:
        return
    _call_both(lambda lib, s, xs: s.from_jsonable(xs), (gs_space, js.value), (gym_space, js.value),
               "from_jsonable")
    for _ in range(4):
        bad = js.value
        if bad:
            index = int(rng.integers(len(bad)))
            op = ARRAY_OPS[int(rng.integers(len(ARRAY_OPS)))]
            bad = list(bad)
            bad[index] = corrupt_leaf_value(bad[index] if not isinstance(bad[index], list)
                                            else np.array(bad[index]), op, rng)
        _call_both(lambda lib, s, xs: s.from_jsonable(xs), (gs_space, bad), (gym_space, bad),
                   f"from_jsonable({bad!r})")


# --------------------------------------------------------------------------- huge sizes


HUGE = [
    spec.Text(2**70),
    spec.Text(2**70, min_length=2**69),
    spec.Text(2**63 - 1, min_length=2**63 - 1),
    spec.Text(2**63, min_length=2**63 - 1),
    spec.Text(10**12),
    spec.Text(10**12, min_length=10**12),
    spec.Text(10**12, min_length=0, charset="ab"),
    spec.MultiBinary(10**12),
    spec.MultiBinary((10**6, 10**6)),
    spec.Discrete(10**12),
    spec.Discrete(2**63 - 1),
    spec.MultiDiscrete([10**12, 2**62]),
    spec.Box(0, 1, (10**6, 10**6)),
    spec.Box(0, 1, (2**62,)),
]
HUGE_LENGTHS = [10**12, 2**62, 2**63 - 1, 2**63, 2**64, np.int64(2**62)]


@settings(max_examples=EXAMPLES["huge"])
@given(recipe=st.sampled_from(HUGE), length=st.sampled_from(HUGE_LENGTHS), ops_seed=SEEDS)
def test_huge_sizes_raise_without_allocating(recipe, length, ops_seed):
    """Huge spaces build (or fail) like Gymnasium; masked samples that must fail do so up front."""
    pair = _seeded_pair(recipe, 0)
    if pair is None:
        return
    gs_space, gym_space = pair
    assert repr(gs_space) == repr(gym_space)
    _call_both(lambda lib, s: s.contains(np.zeros(3, np.int8)), (gs_space,), (gym_space,), "contains")
    _call_both(lambda lib, s: s.contains("ab"), (gs_space,), (gym_space,), "contains str")
    _call_both(lambda lib, s: UTILS[lib].flatdim(s), (gs_space,), (gym_space,), "flatdim")
    if type(gym_space).__name__ == "Text":
        rng = np.random.default_rng(ops_seed)
        chars = len(gym_space.character_set)
        cases = [
            {"mask": (length, np.zeros(chars + 1, np.int8))},  # wrong shape: raises before drawing
            {"mask": (length, np.full(chars, 2, np.int8))},  # bad values
            {"probability": (length, np.full(chars, 0.5))},  # sum != 1
            {"mask": (length, np.zeros(chars, np.int8))},  # all zero: "" or ValueError
            {"mask": (-length, None)},
            {"mask": (float(length), None)},
        ]
        if gym_space.max_length >= 2**63 or gym_space.min_length == gym_space.max_length:
            # The drawn length raises (int64 bound) or is huge: an all-zero mask stops it.
            cases.append({"mask": (None, np.zeros(chars, np.int8))})
            cases.append({"mask": (None, None)} if gym_space.max_length >= 2**63 else {"mask": (-1, None)})
        for kwargs in cases:
            if rng.random() < 0.5:
                continue
            _call_both(lambda lib, s: s.sample(**kwargs), (gs_space,), (gym_space,), f"sample({kwargs})")
            assert_same_state(gs_space, gym_space, repr(kwargs))
