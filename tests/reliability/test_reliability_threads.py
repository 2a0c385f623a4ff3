"""Reliability under threads: many threads sampling concurrently, from one shared
space or from separate ones.

Kernels draw from the bit generator behind ``space.np_random`` under its lock
(large fills release the GIL while holding it), so concurrent use must:

* never crash or deadlock, and give only valid samples;
* consume the bit generator exactly as a single-threaded run of the same calls:
  when every thread makes the *same* call on one shared space, the order in
  which the calls run does not change which raw draws they request, so the
  final ``bit_generator.state`` of every generator of the space tree equals
  that of an identically seeded twin called the same number of times in one
  thread;
* draw every single-numpy-call sample (a Box fill, a Discrete draw) as one
  contiguous chunk of the stream, as numpy's own methods do: the multiset of
  the threads' samples then equals the twin's.

``sys.setswitchinterval`` is lowered to provoke interleaving. (Two earlier
tests in ``test_parity`` cover a shared Box generator; these cover every kind.)
"""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gymspaces as GS
from support.composite_helpers import assert_same_tree_states
from support.differential import assert_same_generator_state, assert_same_value

THREADS = 8
CALLS = 40  # per thread
JOIN_TIMEOUT = 60


@pytest.fixture(autouse=True)
def tiny_switch_interval():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def run_threads(work: Callable[[int], Any], threads: int = THREADS) -> list[Any]:
    """Run ``work(index)`` in ``threads`` threads started together; re-raise the first error."""
    barrier = threading.Barrier(threads)
    results: list[Any] = [None] * threads
    errors: list[BaseException] = []

    def target(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as exc:  # noqa: BLE001 - reported in the main thread
            errors.append(exc)

    workers = [threading.Thread(target=target, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=JOIN_TIMEOUT)
    assert not any(worker.is_alive() for worker in workers), "deadlock: a thread did not finish"
    if errors:
        raise errors[0]
    return results


def key(sample: Any) -> Any:
    """A hashable, exact form of a leaf sample (for multiset comparisons)."""
    if isinstance(sample, (np.ndarray, np.generic)):
        return (sample.dtype.str, np.shape(sample), np.asarray(sample).tobytes())
    return sample


# Shared spaces and the one call every thread makes on them. ``atomic``: a call is
# one locked numpy-equivalent draw, so the samples' multiset is order-independent.
SHARED = {
    "Box-uint8-(84,84,3)": (lambda seed: GS.Box(0, 255, (84, 84, 3), np.uint8, seed=seed), {}, True),
    "Box-float32-(3,)": (lambda seed: GS.Box(-1, 1, (3,), np.float32, seed=seed), {}, True),
    "Discrete": (lambda seed: GS.Discrete(7, start=-3, seed=seed), {}, True),
    "Discrete-mask": (
        lambda seed: GS.Discrete(10, start=2, seed=seed),
        {"mask": np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0], np.int8)},
        True,
    ),
    "Discrete-probability": (
        lambda seed: GS.Discrete(4, seed=seed), {"probability": np.array([0.1, 0.2, 0.3, 0.4])}, True
    ),
    "MultiDiscrete": (lambda seed: GS.MultiDiscrete([3, 5, 7, 2], seed=seed), {}, True),
    "MultiDiscrete-mask": (
        lambda seed: GS.MultiDiscrete([3, 4], seed=seed),
        {"mask": (np.array([1, 0, 1], np.int8), np.array([0, 1, 1, 1], np.int8))},
        False,
    ),
    "MultiDiscrete-large": (lambda seed: GS.MultiDiscrete(np.full(5000, 6), seed=seed), {}, True),
    "MultiBinary-large": (lambda seed: GS.MultiBinary(5000, seed=seed), {}, True),
    "Dict": (
        lambda seed: GS.Dict(
            {
                "img": GS.Box(0, 255, (64, 64, 3), np.uint8),
                "action": GS.Discrete(4),
                "md": GS.MultiDiscrete([2, 3]),
                "flags": GS.MultiBinary(4),
                "vec": GS.Box(-np.inf, np.inf, (3,), np.float64),
            },
            seed=seed,
        ),
        {},
        False,
    ),
    "Graph-fixed-size": (
        lambda seed: GS.Graph(GS.Box(0, 1, (2,), np.float32), GS.Discrete(3), seed=seed),
        {"num_nodes": 6, "num_edges": 8},
        False,
    ),
    "Graph-many-edges": (
        lambda seed: GS.Graph(GS.Discrete(5), GS.Box(-1, 1, (1,)), seed=seed),
        {"num_nodes": 100, "num_edges": 3000},  # 6000 links: the fill releases the GIL
        False,
    ),
}


@pytest.mark.parametrize("name", list(SHARED))
def test_one_shared_space_many_threads(name):
    build, kwargs, atomic = SHARED[name]
    space = build(123)

    def work(_index: int) -> list[Any]:
        return [space.sample(**kwargs) for _ in range(CALLS)]

    drawn = [sample for chunk in run_threads(work) for sample in chunk]
    for sample in drawn:
        assert sample in space
    twin = build(123)
    expected = [twin.sample(**kwargs) for _ in range(THREADS * CALLS)]
    assert_same_tree_states(space, twin, name)
    if atomic:
        assert Counter(map(key, drawn)) == Counter(map(key, expected))


def test_shared_graph_with_random_sizes_stays_valid():
    """Default Graph sizes: the number of edges is a draw of its own, so only validity holds."""
    space = GS.Graph(GS.Box(0, 1, (2,), np.float32), GS.Discrete(3), seed=5)
    results = run_threads(lambda _i: [space.sample() for _ in range(CALLS // 2)])
    for chunk in results:
        for sample in chunk:
            assert sample in space


def _separate(seed: int) -> list[GS.Space]:
    return [
        GS.Box(0, 255, (84, 84, 3), np.uint8, seed=seed),
        GS.Box(np.array([-np.inf, 0.0, -1.0]), np.array([np.inf, np.inf, 1.0]), dtype=np.float64, seed=seed),
        GS.Discrete(9, seed=seed),
        GS.MultiBinary(7, seed=seed),
        GS.MultiDiscrete([[2, 3], [4, 5]], seed=seed),
        GS.Text(8, charset="abcdef", seed=seed),
        GS.Tuple([GS.Discrete(3), GS.Text(3)], seed=seed),
        GS.Sequence(GS.Box(0, 1, (2,)), seed=seed),
        GS.Sequence(GS.Discrete(4), stack=True, seed=seed),
        GS.Graph(GS.Box(0, 1, (2,)), GS.Discrete(3), seed=seed),
        GS.OneOf([GS.Discrete(3), GS.MultiBinary(2)], seed=seed),
        GS.Dict({"a": GS.Sequence(GS.Discrete(2)), "b": GS.OneOf([GS.Box(0, 1, (1,))])}, seed=seed),
    ]


def test_separate_spaces_in_threads_give_the_single_threaded_streams():
    """Each thread samples its own spaces (every kind): exactly the single-threaded samples."""
    spaces = {index: _separate(1000 + index) for index in range(THREADS)}

    def work(index: int) -> list[list[Any]]:
        return [[space.sample() for _ in range(CALLS // 4)] for space in spaces[index]]

    results = run_threads(work)
    for index in range(THREADS):
        for space, twin, samples in zip(spaces[index], _separate(1000 + index), results[index]):
            for i, sample in enumerate(samples):
                assert sample in space
                assert_same_value(sample, twin.sample(), f"thread {index} {space} draw {i}")
            assert_same_tree_states(space, twin, f"thread {index} {space}")


def _user_call(generator: np.random.Generator, which: int) -> None:
    """User draws whose raw consumption is fixed (a power-of-two range never rejects)."""
    if which == 0:
        generator.random(7)
    elif which == 1:
        generator.random()
    elif which == 2:
        generator.integers(0, 2**40, size=3)
    else:
        generator.bit_generator.random_raw(5)


@pytest.mark.parametrize("shared_generator", [False, True], ids=["own-generator", "generator-seed"])
def test_large_fills_interleaved_with_user_calls_on_np_random(shared_generator):
    """Box (84,84,3) uint8 fills (GIL released, lock held) in half of the threads, user
    calls on ``space.np_random`` in the other half: no lost or repeated draw."""

    def build():
        if shared_generator:
            generator = np.random.default_rng(77)
            return GS.Box(0, 255, (84, 84, 3), np.uint8, seed=generator), generator
        space = GS.Box(0, 255, (84, 84, 3), np.uint8, seed=77)
        return space, space.np_random

    space, generator = build()
    samplers = THREADS // 2

    def work(index: int) -> list[Any]:
        if index < samplers:
            return [space.sample() for _ in range(CALLS)]
        for i in range(CALLS * 4):
            _user_call(space.np_random, (index + i) % 4)
        return []

    results = run_threads(work)
    for chunk in results:
        for sample in chunk:
            assert sample in space
    twin, twin_generator = build()
    for _ in range(samplers * CALLS):
        twin.sample()
    for index in range(samplers, THREADS):
        for i in range(CALLS * 4):
            _user_call(twin_generator, (index + i) % 4)
    assert_same_generator_state(generator, twin_generator, "after concurrent fills and user calls")
    assert space.np_random is generator


def test_spaces_sharing_one_generator_across_threads():
    """Different spaces built on one Generator, each sampled in its own thread: valid samples,
    and every draw lands in the shared stream (the total consumption is order-independent:
    each call below takes a fixed number of 64-bit words)."""

    def build():
        generator = np.random.default_rng(9)
        spaces = [
            GS.Box(0, 255, (84, 84, 3), np.uint8, seed=generator),
            GS.Box(-1, 1, (5,), np.float64, seed=generator),
            GS.MultiDiscrete([3, 5, 7], seed=generator),
            GS.MultiBinary(6000, seed=generator),
        ]
        return spaces, generator

    spaces, generator = build()
    results = run_threads(lambda index: [spaces[index % 4].sample() for _ in range(CALLS)])
    for index, chunk in enumerate(results):
        for sample in chunk:
            assert sample in spaces[index % 4]
    twins, twin_generator = build()
    for index in range(THREADS):
        for _ in range(CALLS):
            twins[index % 4].sample()
    # The buffered 32-bit half-word is dead (has_uint32 == 0): which half was used
    # last depends on the order, and no later draw can see it.
    actual, expected = generator.bit_generator.state, twin_generator.bit_generator.state
    assert actual["has_uint32"] == expected["has_uint32"] == 0
    actual["uinteger"] = expected["uinteger"] = 0
    assert actual == expected


def test_reseeding_while_other_threads_sample():
    """``seed()`` in one thread while others sample the same space: no crash, valid samples,
    and the space ends on a generator that ``seed`` installed."""
    space = GS.Dict({"img": GS.Box(0, 255, (84, 84, 3), np.uint8), "d": GS.Discrete(5)}, seed=1)

    def work(index: int) -> list[Any]:
        if index == 0:
            for seed in range(CALLS):
                space.seed(seed)
            return []
        return [space.sample() for _ in range(CALLS // 2)]

    for chunk in run_threads(work):
        for sample in chunk:
            assert sample in space
    before = space.sample()
    assert before in space
