"""Test hooks of the categorical kernel: np.sum (pairwise) and Generator.choice's p checks."""

from __future__ import annotations

import numpy as np
import pytest

from gymspaces._probes import choice_check, np_sum


def _bits(value) -> bytes:
    return np.float64(value).tobytes()


def assert_bitwise_sum(x: np.ndarray, context: str = "") -> None:
    with np.errstate(all="ignore"):
        expected = np.sum(x)
    actual = np_sum(x)
    if np.isnan(expected):
        assert np.isnan(actual), f"{context}: {actual!r} vs nan"
    else:
        assert _bits(actual) == _bits(expected), (
            f"{context}: np_sum={float(actual)!r} np.sum={float(expected)!r} (n={x.size})"
        )


def _vector(rng: np.random.Generator, n: int, style: int) -> np.ndarray:
    if style == 0:
        return rng.random(n)
    if style == 1:
        return rng.standard_normal(n) * 10.0 ** rng.uniform(-12, 12, n)
    if style == 2:  # probability-like vectors, the kernel's real inputs
        w = rng.random(n)
        return w / w.sum()
    if style == 3:
        return rng.choice([1e16, -1e16, 1.0, -1.0, 0.5, 3e-17], size=n)
    return np.ascontiguousarray(rng.exponential(size=n) - 1.0)


def test_np_sum_all_lengths_up_to_5000():
    rng = np.random.default_rng(0)
    for n in range(1, 5001):
        x = _vector(rng, n, n % 5)
        assert_bitwise_sum(x, f"n={n}")


def test_np_sum_every_length_up_to_20000_follows_installed_numpy():
    """Past 8192 items numpy's order depends on its version (chunks of one
    8192-item buffer before numpy 2.3, one pairwise pass after): whichever numpy
    is installed, every length sums as its np.sum does."""
    rng = np.random.default_rng(20000)
    data = [rng.random(20000), _vector(rng, 20000, 1), _vector(rng, 20000, 4)]
    for x in data:
        for n in range(1, 20001):
            prefix = x[:n]
            expected = np.sum(prefix)
            actual = np_sum(prefix)
            if actual != expected:
                assert_bitwise_sum(prefix, f"n={n}")
    for n in range(1, 20001, 7):  # probability vectors, normalised at each length
        assert_bitwise_sum(_vector(rng, n, 2), f"probability n={n}")


def test_np_sum_block_boundaries():
    rng = np.random.default_rng(1)
    lengths = sorted({b + d for b in (8, 16, 120, 128, 129, 136, 256, 257, 1024, 4096, 8192, 8200, 16384)
                      for d in (-2, -1, 0, 1, 2, 7, 8)})
    for n in lengths:
        for style in range(5):
            assert_bitwise_sum(_vector(rng, n, style), f"n={n} style={style}")


@pytest.mark.parametrize("n", [10**5, 10**5 + 3, 131072, 262145])
def test_np_sum_long_vectors(n):
    rng = np.random.default_rng(n)
    for style in range(5):
        assert_bitwise_sum(_vector(rng, n, style), f"n={n} style={style}")


def test_np_sum_special_values():
    cases = {
        "empty": np.zeros(0),
        "single": np.array([0.3]),
        "nan": np.array([1.0, np.nan, 2.0]),
        "inf": np.array([1.0, np.inf]),
        "inf-minus-inf": np.array([np.inf, -np.inf, 1.0]),
        "huge": np.full(9, np.finfo(np.float64).max),
        "subnormal": np.full(20, 5e-324),
        "zeros": np.zeros(20),
        "mixed-sign-zero": np.array([0.0, -0.0, -0.0]),
        "cancelling": np.array([1.0, -1.0] * 40),
    }
    for name, x in cases.items():
        assert_bitwise_sum(x, name)


def test_np_sum_of_negative_zeros():
    """np.sum of all-negative-zero vectors is +0.0 (numpy reduces onto a +0.0 identity)."""
    for n in (1, 3, 8, 9, 200):
        assert_bitwise_sum(np.full(n, -0.0), f"n={n}")


def test_np_sum_rejects_non_contiguous_input():
    with pytest.raises((ValueError, TypeError)):
        np_sum(np.arange(10.0)[::2])
    with pytest.raises((ValueError, TypeError)):
        np_sum(np.arange(10, dtype=np.float32))


# --------------------------------------------------------------------------- choice_check


def _numpy_verdict(p: np.ndarray):
    try:
        with np.errstate(all="ignore"):
            np.random.default_rng(0).choice(len(p), p=p)
    except ValueError as exc:
        return str(exc)
    return None


def _hook_verdict(p: np.ndarray):
    error = choice_check(p)
    if error is None:
        return None
    assert type(error) is ValueError
    return str(error)


CRAFTED = {
    "uniform": np.full(4, 0.25),
    "one-hot": np.array([0.0, 1.0, 0.0]),
    "single": np.array([1.0]),
    "zeros": np.zeros(3),
    "nan-first": np.array([np.nan, 1.0]),
    "nan-last": np.array([1.0, np.nan]),
    "negative": np.array([1.1, -0.1]),
    "negative-tiny": np.array([1.0, -1e-300]),
    "negative-zero": np.array([-0.0, 1.0]),
    "inf": np.array([np.inf, 0.0]),
    "inf-then-zeros": np.array([np.inf, 0.0, 0.0]),
    "inf-minus-inf": np.array([np.inf, -np.inf]),
    "negative-inf": np.array([-np.inf, 1.0]),
    "sum-0.9": np.array([0.5, 0.4]),
    "sum-1.1": np.array([0.5, 0.6]),
    "sum+1e-8": np.array([0.5, 0.5 + 1e-8]),
    "sum+1.4e-8": np.array([0.5, 0.5 + 1.4e-8]),
    "sum+1.5e-8": np.array([0.5, 0.5 + 1.5e-8]),
    "sum-1.5e-8": np.array([0.5, 0.5 - 1.5e-8]),
    "sum+2e-8": np.array([0.5, 0.5 + 2e-8]),
    "sum+5e-6": np.array([0.25, 0.25, 0.25, 0.25 + 5e-6]),
    "thirds": np.full(3, 1 / 3),
    "sevenths": np.full(7, 1 / 7),
    "tenths-1000": np.full(1000, 1e-3),
    "kahan-needed": np.array([1.0] + [1e-17] * 1000),
    "kahan-needed-over": np.array([1.0] + [1e-16] * 1000),
    "kahan-needed-big": np.array([1.0 - 1e-8] + [1e-19] * 100000),
    "big-cancel": np.array([1e20, 1.0, -1e20]),
    "big-cancel-negative-first": np.array([-1e20, 1.0, 1e20]),
}


@pytest.mark.parametrize("p", CRAFTED.values(), ids=CRAFTED.keys())
def test_choice_check_matches_numpy(p):
    assert _hook_verdict(np.ascontiguousarray(p, dtype=np.float64)) == _numpy_verdict(p)


def test_choice_check_matches_numpy_on_random_vectors():
    rng = np.random.default_rng(7)
    verdicts = set()
    for trial in range(3000):
        n = int(rng.integers(1, 60))
        p = rng.random(n)
        p /= p.sum()
        kind = trial % 6
        if kind == 1:
            p[-1] += rng.choice([-1, 1]) * 10.0 ** rng.uniform(-9.5, -7)
        elif kind == 2:
            p[rng.integers(n)] *= -1
        elif kind == 3:
            p[rng.integers(n)] = np.nan
        elif kind == 4:
            p = p * (1 + rng.uniform(-1e-7, 1e-7))
        elif kind == 5:
            p[rng.random(n) < 0.5] = 0.0
            if p.sum() > 0:
                p /= p.sum()
        expected = _numpy_verdict(p)
        assert _hook_verdict(p) == expected, (trial, p)
        verdicts.add(expected)
    assert len(verdicts) >= 4  # every branch was exercised


@pytest.mark.parametrize("offset", [0.0, 3e-9, 7.4e-9, 7.5e-9, 1.2e-8, 1.49e-8, 1.5e-8, 2e-8, 5e-7])
@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("n", [2, 9, 1000, 4099])
def test_discrete_probability_sums_near_choice_tolerance_match_gymnasium(offset, sign, n):
    """Totals on either side of Generator.choice's tolerance (sqrt(eps) ~ 1.49e-8):
    the shortcut that skips numpy's Kahan sum must accept and reject exactly as it does."""
    import gymnasium.spaces as gym_spaces

    from gymspaces import Discrete

    rng = np.random.default_rng(n)
    p = rng.random(n)
    p /= p.sum()
    p[0] += sign * offset
    p = np.clip(p, 0.0, 1.0)
    outcomes = []
    for space in (Discrete(n, seed=1), gym_spaces.Discrete(n, seed=1)):
        try:
            outcomes.append(("value", [int(space.sample(probability=p)) for _ in range(3)]))
        except (ValueError, AssertionError) as error:
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]
