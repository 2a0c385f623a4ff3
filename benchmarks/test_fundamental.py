"""Sampling of the fundamental spaces, gymspaces vs Gymnasium in one run.

Run with ``pytest benchmarks --benchmark-group-by=func`` and read the ratio of
medians within each group.
"""

import numpy as np
import pytest

MASK10 = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 0], dtype=np.int8)
P1000 = np.random.default_rng(0).random(1000)
P1000 /= P1000.sum()


def test_discrete_sample(benchmark, lib):
    benchmark(lib.Discrete(10, seed=0).sample)


def test_discrete_sample_mask(benchmark, lib):
    space = lib.Discrete(10, seed=0)
    benchmark(lambda: space.sample(mask=MASK10))


def test_discrete_sample_probability(benchmark, lib):
    space = lib.Discrete(1000, seed=0)
    benchmark(lambda: space.sample(probability=P1000))


def test_box_sample_small(benchmark, lib):
    benchmark(lib.Box(-1, 1, (3,), np.float32, seed=0).sample)


def test_box_sample_image(benchmark, lib):
    benchmark(lib.Box(0, 255, (84, 84, 3), np.uint8, seed=0).sample)


def test_box_sample_unbounded(benchmark, lib):
    benchmark(lib.Box(-np.inf, np.inf, (64,), seed=0).sample)


def test_box_sample_mixed_bounds(benchmark, lib):
    low = np.array([-np.inf, 0.0, -np.inf, -1.0] * 4)
    high = np.array([np.inf, np.inf, 1.0, 1.0] * 4)
    benchmark(lib.Box(low, high, dtype=np.float32, seed=0).sample)


def test_multi_discrete_sample(benchmark, lib):
    benchmark(lib.MultiDiscrete([5, 2, 2], seed=0).sample)


def test_multi_discrete_sample_mask(benchmark, lib):
    space = lib.MultiDiscrete([5, 2, 2], seed=0)
    mask = (np.array([1, 0, 1, 0, 1], np.int8), np.array([1, 1], np.int8), np.array([0, 1], np.int8))
    benchmark(lambda: space.sample(mask=mask))


def test_multi_binary_sample(benchmark, lib):
    benchmark(lib.MultiBinary(10, seed=0).sample)


def test_text_sample(benchmark, lib):
    benchmark(lib.Text(10, seed=0).sample)


@pytest.mark.parametrize("value", [np.zeros(3, np.float32)], ids=["array"])
def test_box_contains(benchmark, lib, value):
    space = lib.Box(-1, 1, (3,), np.float32)
    benchmark(lambda: space.contains(value))


def test_discrete_contains(benchmark, lib):
    space = lib.Discrete(10)
    value = np.int64(3)
    benchmark(lambda: space.contains(value))
