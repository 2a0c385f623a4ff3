"""What the sample-stream tests of the fundamental spaces share.

Each space's test file draws masks, probability vectors and Hypothesis
constructor arguments of its own; these are the pieces common to several:
a random probability vector, Hypothesis seeds and integer dtypes, and
building a space in both libraries where Gymnasium's constructor may raise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

from support.differential import GS, GYM, Outcome, outcome
from support.spaces_corpus import INT_DTYPES

SEEDS = st.integers(min_value=0, max_value=2**64)
INT_DTYPE = st.sampled_from([np.dtype(d) for d in INT_DTYPES])


def random_probability(rng: np.random.Generator, n: int, zero_fraction: float) -> np.ndarray:
    """A probability vector of length ``n`` with about ``zero_fraction`` of it zero (never all)."""
    weights = rng.random(n) + 1e-3
    weights[rng.random(n) < zero_fraction] = 0.0
    if not weights.any():
        weights[rng.integers(n)] = 1.0
    return weights / weights.sum()


def pair_or_same_error(build: Callable[[Any], Any]) -> tuple[Any, Any]:
    """``(build(gymspaces), build(gymnasium))``; ``(None, None)`` when both raise the same
    exception (class and message); a space must have Gymnasium's ``repr``."""
    gs_result, gym_result = outcome(lambda: build(GS)), outcome(lambda: build(GYM))
    _assert_same_construction(gs_result, gym_result)
    return gs_result.value, gym_result.value


def _assert_same_construction(gs_result: Outcome, gym_result: Outcome) -> None:
    assert gs_result.raised == gym_result.raised, (gs_result.describe(), gym_result.describe())
    if gym_result.raised:
        assert type(gs_result.error) is type(gym_result.error), (
            gs_result.describe(), gym_result.describe())
        assert str(gs_result.error) == str(gym_result.error)
    else:
        assert repr(gs_result.value) == repr(gym_result.value)
