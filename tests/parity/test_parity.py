"""Differential sample-stream parity with Gymnasium 1.4.0 across every fundamental space.

Every test builds the same space in both libraries, seeds both identically,
draws from both in the same order and requires exact equality of every sample
(Python type, dtype, shape, bytes) and of the final bit-generator state,
including PCG64's buffered 32-bit half-word (``has_uint32``/``uinteger``).

The tests here run over every recipe of the fixed corpus
(``support/spaces_corpus.py``) or over several kinds at once: seeds,
warnings, other bit generators, generators replaced, restored, shared or
drawn from directly. A single space's own streams (masks, probabilities,
Hypothesis families) are tested in its file, ``tests/spaces/test_<space>.py``.
"""

from __future__ import annotations

import copy
import random
import threading

import numpy as np
import pytest

from support.differential import (
    GS,
    GYM,
    LIBS,
    assert_same_generator_state,
    assert_same_outcome,
    assert_same_state,
    assert_same_stream,
    assert_same_value,
    outcome,
    seeded_pair,
)
from support.recipes import recipe_params
from support.spaces_corpus import ALL_RECIPES, RECIPES_BY_KIND

SEEDS = range(50)
DRAWS = 4


# --------------------------------------------------------------------------- plain streams


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_plain_sample_stream(recipe):
    for seed in SEEDS:
        gs_space, gym_space = seeded_pair(recipe.build, seed)
        for i in range(DRAWS):
            assert_same_outcome(
                outcome(gs_space.sample),
                outcome(gym_space.sample),
                f"{recipe.id} seed={seed} draw={i}",
                same_warnings=False,
            )
        assert_same_state(gs_space, gym_space, f"{recipe.id} seed={seed}")


@pytest.mark.parametrize("kind", sorted(RECIPES_BY_KIND))
def test_plain_sample_stream_more_seeds(kind):
    """A wider seed sweep (seeds 50..249, two draws) over every recipe of one space kind."""
    for recipe in RECIPES_BY_KIND[kind]:
        seeds = range(50, 80) if "(84,84,3)" in recipe.id else range(50, 250)
        for seed in seeds:
            gs_space, gym_space = seeded_pair(recipe.build, seed)
            for i in range(2):
                assert_same_outcome(outcome(gs_space.sample), outcome(gym_space.sample),
                                    f"{recipe.id} seed={seed} draw={i}", same_warnings=False)
            assert_same_state(gs_space, gym_space, f"{recipe.id} seed={seed}")


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_sample_warnings(recipe):
    """The warnings a sample emits (e.g. numpy's overflow RuntimeWarnings) are the same."""
    for seed in range(3):
        gs_space, gym_space = seeded_pair(recipe.build, seed)
        for i in range(2):
            actual, expected = outcome(gs_space.sample), outcome(gym_space.sample)
            assert actual.warnings == expected.warnings, (
                f"{recipe.id} seed={seed} draw={i}: gymspaces warned {actual.warnings}, "
                f"gymnasium warned {expected.warnings}"
            )


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_constructor_seed_and_reseeding(recipe):
    """``seed=int`` in the constructor, reseeding mid-stream, and replay after reseeding."""
    for seed in range(3):
        gs_space, gym_space = recipe.build(GS, seed=seed), recipe.build(GYM, seed=seed)
        assert_same_stream(gs_space, gym_space, 2, f"{recipe.id} ctor seed={seed}")
        new_seed = 7919 * seed + 2**33
        assert gs_space.seed(new_seed) == gym_space.seed(new_seed) == new_seed
        first = []
        for i in range(2):
            actual, expected = outcome(gs_space.sample), outcome(gym_space.sample)
            assert_same_outcome(actual, expected, f"{recipe.id} reseeded draw {i}",
                                same_warnings=False)
            first.append(actual)
        assert_same_state(gs_space, gym_space, f"{recipe.id} reseeded")
        # Reseeding with the same value replays the same stream.
        gs_space.seed(new_seed)
        for i, earlier in enumerate(first):
            assert_same_outcome(outcome(gs_space.sample), earlier, f"{recipe.id} replay {i}",
                                same_warnings=False)
        assert_same_state(gs_space, gym_space, f"{recipe.id} replay")


BIT_GENERATORS = [np.random.MT19937, np.random.Philox, np.random.SFC64, np.random.PCG64DXSM]


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_non_pcg64_generators(recipe):
    """A Generator over another bit generator passed as ``seed=`` is drawn exactly like numpy."""
    for bit_generator in BIT_GENERATORS:
        for seed in range(2):
            gs_gen = np.random.Generator(bit_generator(seed))
            gym_gen = np.random.Generator(bit_generator(seed))
            gs_space, gym_space = recipe.build(GS, seed=gs_gen), recipe.build(GYM, seed=gym_gen)
            assert gs_space.np_random is gs_gen
            assert_same_stream(gs_space, gym_space, 3, f"{recipe.id} {bit_generator.__name__} {seed}")


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_generator_replacement_and_state_restore(recipe):
    """Assigning ``_np_random`` and setting the bit generator's state in place are honoured."""
    gs_space, gym_space = seeded_pair(recipe.build, 11)
    assert_same_stream(gs_space, gym_space, 1, f"{recipe.id} before")
    gs_space._np_random = np.random.default_rng(99)
    gym_space._np_random = np.random.default_rng(99)
    assert_same_stream(gs_space, gym_space, 2, f"{recipe.id} after assignment")
    saved = gym_space.np_random.bit_generator.state
    gym_expected = [outcome(gym_space.sample) for _ in range(2)]
    gs_space.np_random.bit_generator.state = saved
    for i, expected in enumerate(gym_expected):
        assert_same_outcome(outcome(gs_space.sample), expected, f"{recipe.id} restored {i}",
                            same_warnings=False)
    assert_same_state(gs_space, gym_space, f"{recipe.id} restored")


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_lazily_seeded_space_follows_its_generator(recipe):
    """An unseeded space seeds itself on first use; its kernel then draws from that generator."""
    gs_space, gym_space = recipe.build(GS), recipe.build(GYM)
    assert gs_space._np_random is None
    outcome(gs_space.sample)  # lazily creates the generator
    assert isinstance(gs_space._np_random, np.random.Generator)
    gym_space.np_random.bit_generator.state = gs_space.np_random.bit_generator.state
    assert_same_stream(gs_space, gym_space, 3, f"{recipe.id} lazy")












# --------------------------------------------------------------------------- shared generator


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES[::3]))
def test_shallow_copy_shares_the_generator(recipe):
    gs_space, gym_space = seeded_pair(recipe.build, 21)
    gs_copy, gym_copy = copy.copy(gs_space), copy.copy(gym_space)
    assert gs_copy.np_random is gs_space.np_random
    for i in range(3):
        assert_same_outcome(outcome(gs_copy.sample), outcome(gym_copy.sample), f"copy {i}",
                            same_warnings=False)
        assert_same_outcome(outcome(gs_space.sample), outcome(gym_space.sample), f"original {i}",
                            same_warnings=False)
    assert_same_state(gs_space, gym_space)


def test_subclass_calling_compiled_sample_through_super():
    def build(lib):
        class Wrapped(lib.Discrete):
            def sample(self, mask=None, probability=None):
                return super().sample(mask, probability)

        class WrappedBox(lib.Box):
            def sample(self, mask=None, probability=None):
                return super().sample(mask=mask, probability=probability)

        return Wrapped(6, start=2, seed=3), WrappedBox(-1, 1, (3,), seed=3)

    for gs_space, gym_space in zip(build(GS), build(GYM)):
        assert_same_stream(gs_space, gym_space, 5, type(gs_space).__name__)
    gs_discrete, gym_discrete = build(GS)[0], build(GYM)[0]
    mask = np.array([0, 1, 1, 0, 1, 1], np.int8)
    assert_same_stream(gs_discrete, gym_discrete, 5, "masked subclass", mask=mask)


def test_threads_sharing_a_generator_draw_whole_samples():
    """Samples drawn concurrently (large fills release the GIL) are whole, contiguous chunks of
    the generator's stream, and no draw is lost or repeated."""
    threads, per_thread, shape = 4, 25, (80, 80)
    generator = np.random.default_rng(2024)
    space = GS.Box(-1.0, 1.0, shape, np.float64, seed=generator)
    results = [[] for _ in range(threads)]
    barrier = threading.Barrier(threads)

    def work(slot):
        barrier.wait()
        for _ in range(per_thread):
            results[slot].append(space.sample())

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers), "deadlock"
    reference = GYM.Box(-1.0, 1.0, shape, np.float64, seed=np.random.default_rng(2024))
    expected = sorted(reference.sample().tobytes() for _ in range(threads * per_thread))
    drawn = sorted(sample.tobytes() for chunk in results for sample in chunk)
    assert_same_value(drawn, expected, "the samples drawn by all threads")
    assert_same_generator_state(generator, reference.np_random)


def _shared_spaces(lib, generator):
    return [
        lib.Discrete(10, seed=generator),
        lib.Discrete(3, dtype=np.int16, seed=generator),
        lib.Discrete(7, start=-2, dtype=np.int8, seed=generator),
        lib.Discrete(2**40 + 5, seed=generator),
        lib.Box(-1, 1, (3,), seed=generator),
        lib.Box(0, 255, (5,), np.uint8, seed=generator),
        lib.Box(np.array([-np.inf, 0.0]), np.array([np.inf, np.inf]), dtype=np.float64, seed=generator),
        lib.MultiBinary(5, seed=generator),
        lib.MultiBinary((2, 3), seed=generator),
        lib.MultiDiscrete([3, 5], seed=generator),
        lib.Text(6, charset="abc", seed=generator),
        lib.Discrete(5, dtype=np.uint32, seed=generator),
    ]


def _interleaved_ops(seed: int, n_spaces: int, length: int = 60):
    plan = random.Random(seed)
    ops = []
    for _ in range(length):
        roll = plan.random()
        if roll < 0.55:
            ops.append(("sample", plan.randrange(n_spaces)))
        elif roll < 0.62:
            ops.append(("mask", plan.randrange(1 << 10)))
        elif roll < 0.68:
            ops.append(("text-probability", plan.randrange(1 << 10)))
        else:
            ops.append((plan.choice(["random", "integers7", "integers7-int32", "integers-int16",
                                     "space-np_random", "normal", "uint32"]), plan.randrange(n_spaces)))
    return ops


def _apply(op, spaces, generator):
    kind, arg = op
    if kind == "sample":
        return spaces[arg].sample()
    if kind == "mask":
        mask = np.array([(arg >> i) & 1 for i in range(10)], dtype=np.int8)
        return spaces[0].sample(mask=mask)
    if kind == "text-probability":
        p = np.array([1 + (arg & 3), 1 + ((arg >> 2) & 3), 1 + ((arg >> 4) & 3)], dtype=np.float64)
        return spaces[10].sample(probability=(None, p / p.sum()))
    if kind == "random":
        return generator.random()
    if kind == "integers7":
        return generator.integers(7)
    if kind == "integers7-int32":
        return generator.integers(7, dtype=np.int32)
    if kind == "integers-int16":
        return generator.integers(1000, size=3, dtype=np.int16)
    if kind == "space-np_random":
        return spaces[arg].np_random.integers(2**31)
    if kind == "normal":
        return generator.normal()
    if kind == "uint32":
        return generator.bit_generator.random_raw()
    raise AssertionError(kind)


def test_pcg64_half_word_buffer_is_consumed_like_numpy():
    """A 32-bit draw leaves the high half buffered; the next 32-bit user draw takes it."""
    for lib in LIBS:
        space = lib.Discrete(10, seed=0)
        space.sample()
        state = space.np_random.bit_generator.state
        assert state["has_uint32"] == 1
        space.np_random.integers(7)  # consumes the buffered half-word
        assert space.np_random.bit_generator.state["has_uint32"] == 0
        assert space.np_random.bit_generator.state["state"] == state["state"]
        space.sample()
        assert space.np_random.bit_generator.state["has_uint32"] == 1
        space.np_random.random()  # 64-bit draws leave the buffer alone
        assert space.np_random.bit_generator.state["has_uint32"] == 1
    reference = np.random.default_rng(0)
    expected = [int(reference.integers(10)), int(reference.integers(7)), int(reference.integers(10))]
    space = GS.Discrete(10, seed=0)
    assert [int(space.sample()), int(space.np_random.integers(7)), int(space.sample())] == expected


@pytest.mark.parametrize("seed", range(40))
def test_shared_generator_interleaved(seed):
    gs_gen, gym_gen = np.random.default_rng(seed), np.random.default_rng(seed)
    gs_spaces, gym_spaces = _shared_spaces(GS, gs_gen), _shared_spaces(GYM, gym_gen)
    assert all(space.np_random is gs_gen for space in gs_spaces)
    for step, op in enumerate(_interleaved_ops(seed, len(gs_spaces))):
        assert_same_outcome(
            outcome(lambda: _apply(op, gs_spaces, gs_gen)),
            outcome(lambda: _apply(op, gym_spaces, gym_gen)),
            f"seed={seed} step={step} op={op}",
        )
        assert_same_generator_state(gs_gen, gym_gen, f"seed={seed} step={step} op={op}")


DIRECT_CALLS = [
    lambda generator: generator.integers(7),
    lambda generator: generator.random(),
    lambda generator: generator.integers(5, dtype=np.uint32),
]


@pytest.mark.parametrize("recipe", recipe_params(ALL_RECIPES))
def test_direct_generator_calls_between_samples(recipe):
    """``space.np_random.random()`` / ``.integers(7)`` between samples (PCG64 half-word buffer)."""
    for seed in range(5):
        gs_space, gym_space = seeded_pair(recipe.build, seed)
        for step in range(4):
            call = DIRECT_CALLS[(seed + step) % len(DIRECT_CALLS)]
            assert_same_value(call(gs_space.np_random), call(gym_space.np_random),
                              f"{recipe.id} direct call {step}")
            assert_same_outcome(outcome(gs_space.sample), outcome(gym_space.sample),
                                f"{recipe.id} seed={seed} step={step}", same_warnings=False)
            assert_same_state(gs_space, gym_space, f"{recipe.id} seed={seed} step={step}")
