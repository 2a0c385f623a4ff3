"""Statistical sanity of gymspaces' samples (slow; exact parity is tested in test_parity.py).

Bounds are loose (about 6 standard deviations) so that a failure means a broken
distribution, not bad luck.
"""

from __future__ import annotations

import numpy as np
import pytest

import gymspaces

pytestmark = pytest.mark.slow


def _within(count: int, total: int, p: float, sigmas: float = 6.0) -> bool:
    expected = total * p
    return abs(count - expected) <= sigmas * np.sqrt(total * p * (1 - p)) + 1


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64])
def test_discrete_is_uniform(dtype):
    space = gymspaces.Discrete(7, start=-2 if np.dtype(dtype).kind == "i" else 3, dtype=dtype, seed=0)
    draws = np.array([int(space.sample()) for _ in range(35_000)])
    values, counts = np.unique(draws, return_counts=True)
    assert values.tolist() == list(range(int(space.start), int(space.start) + 7))
    assert all(_within(c, draws.size, 1 / 7) for c in counts), counts


def test_discrete_probability_frequencies():
    p = np.array([0.5, 0.0, 0.25, 0.125, 0.125])
    space = gymspaces.Discrete(5, seed=1)
    draws = np.array([int(space.sample(probability=p)) for _ in range(20_000)])
    counts = np.bincount(draws, minlength=5)
    assert counts[1] == 0
    assert all(_within(int(c), draws.size, float(q)) for c, q in zip(counts, p)), counts


def test_discrete_mask_frequencies():
    mask = np.array([0, 1, 1, 0, 1], np.int8)
    space = gymspaces.Discrete(5, seed=2)
    counts = np.bincount([int(space.sample(mask=mask)) for _ in range(15_000)], minlength=5)
    assert counts[0] == counts[3] == 0
    assert all(_within(int(counts[i]), 15_000, 1 / 3) for i in (1, 2, 4)), counts


def test_multi_binary_bits_are_fair_and_independent_of_position():
    space = gymspaces.MultiBinary(13, seed=3)
    samples = np.array([space.sample() for _ in range(20_000)])
    ones = samples.sum(axis=0)
    assert all(_within(int(c), 20_000, 0.5) for c in ones), ones


def test_multi_binary_probability_frequencies():
    p = np.array([0.0, 0.1, 0.5, 0.9, 1.0])
    space = gymspaces.MultiBinary(5, seed=4)
    ones = np.sum([space.sample(probability=p) for _ in range(20_000)], axis=0)
    assert ones[0] == 0 and ones[4] == 20_000
    assert all(_within(int(c), 20_000, float(q)) for c, q in zip(ones[1:4], p[1:4])), ones


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint16])
def test_integer_box_reaches_both_bounds_uniformly(dtype):
    space = gymspaces.Box(1, 6, (4,), dtype, seed=5)
    draws = np.array([space.sample() for _ in range(12_000)]).ravel()
    values, counts = np.unique(draws, return_counts=True)
    assert values.tolist() == [1, 2, 3, 4, 5, 6]
    assert all(_within(int(c), draws.size, 1 / 6) for c in counts), counts


def test_float_box_moments():
    space = gymspaces.Box(np.array([-np.inf, 2.0, -np.inf, -1.0]), np.array([np.inf, np.inf, 3.0, 1.0]),
                          dtype=np.float64, seed=6)
    draws = np.array([space.sample() for _ in range(40_000)])
    normal, lower, upper, uniform = draws.T
    assert abs(normal.mean()) < 0.05 and abs(normal.std() - 1) < 0.05
    assert lower.min() >= 2.0 and abs(lower.mean() - 3.0) < 0.05
    assert upper.max() <= 3.0 and abs(upper.mean() - 2.0) < 0.05
    assert uniform.min() >= -1 and uniform.max() < 1 and abs(uniform.mean()) < 0.03


def test_multi_discrete_uniform_per_entry():
    space = gymspaces.MultiDiscrete([3, 5], start=[10, -2], seed=7)
    draws = np.array([space.sample() for _ in range(30_000)])
    for column, n, start in ((0, 3, 10), (1, 5, -2)):
        values, counts = np.unique(draws[:, column], return_counts=True)
        assert values.tolist() == list(range(start, start + n))
        assert all(_within(int(c), 30_000, 1 / n) for c in counts), counts


def test_text_lengths_and_characters():
    space = gymspaces.Text(6, min_length=2, charset="abcd", seed=8)
    samples = [space.sample() for _ in range(10_000)]
    lengths = np.bincount([len(s) for s in samples], minlength=7)[2:]
    assert all(_within(int(c), 10_000, 1 / 5) for c in lengths), lengths
    text = "".join(samples)
    assert all(_within(text.count(c), len(text), 0.25) for c in "abcd")
    p = np.array([0.7, 0.0, 0.2, 0.1])
    weighted = "".join(space.sample(probability=(5, p)) for _ in range(4_000))
    assert "b" not in weighted
    assert all(_within(weighted.count(c), len(weighted), float(q)) for c, q in zip("acd", p[[0, 2, 3]]))
