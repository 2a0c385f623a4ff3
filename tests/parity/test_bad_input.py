"""Bad masks and probabilities: same exception type as Gymnasium, and no corrupted RNG state.

Each case builds the space in both libraries with the same seed, draws once
(so that PCG64 holds a buffered half-word where applicable), makes the bad
call in both, and then requires: the same exception type (or the same value
if Gymnasium accepts the input), equal RNG states afterwards (Gymnasium
sometimes draws before it raises), and equal samples after that.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from support.differential import assert_same_outcome, assert_same_state, assert_same_stream, outcome, seeded_pair

nan, inf = np.nan, np.inf


def _i8(*values):
    return np.array(values, dtype=np.int8)


def _f64(*values):
    return np.array(values, dtype=np.float64)


def _off_by(delta: float, n: int = 4) -> np.ndarray:
    """A length-n probability vector summing to 1 + delta (last entry adjusted)."""
    p = np.full(n, 1.0 / n)
    p[-1] += delta
    return p


# (case id, space recipe, sample kwargs)
CASES = [
    # ---------------------------------------------------------------- Discrete(4)
    ("discrete-mask-list", lambda lib: lib.Discrete(4), {"mask": [1, 0, 1, 0]}),
    ("discrete-mask-tuple", lambda lib: lib.Discrete(4), {"mask": (1, 0, 1, 0)}),
    ("discrete-mask-int32", lambda lib: lib.Discrete(4), {"mask": np.array([1, 0, 1, 0], np.int32)}),
    ("discrete-mask-uint8", lambda lib: lib.Discrete(4), {"mask": np.array([1, 0, 1, 0], np.uint8)}),
    ("discrete-mask-bool", lambda lib: lib.Discrete(4), {"mask": np.array([1, 0, 1, 0], bool)}),
    ("discrete-mask-float", lambda lib: lib.Discrete(4), {"mask": _f64(1, 0, 1, 0)}),
    ("discrete-mask-short", lambda lib: lib.Discrete(4), {"mask": _i8(1, 0, 1)}),
    ("discrete-mask-long", lambda lib: lib.Discrete(4), {"mask": _i8(1, 0, 1, 0, 1)}),
    ("discrete-mask-2d", lambda lib: lib.Discrete(4), {"mask": _i8(1, 0, 1, 0).reshape(2, 2)}),
    ("discrete-mask-0d", lambda lib: lib.Discrete(1), {"mask": np.array(1, np.int8)}),
    ("discrete-mask-value-2", lambda lib: lib.Discrete(4), {"mask": _i8(1, 2, 0, 0)}),
    ("discrete-mask-value-neg", lambda lib: lib.Discrete(4), {"mask": _i8(1, -1, 0, 0)}),
    ("discrete-mask-scalar", lambda lib: lib.Discrete(4), {"mask": 1}),
    ("discrete-mask-str", lambda lib: lib.Discrete(4), {"mask": "1010"}),
    ("discrete-prob-list", lambda lib: lib.Discrete(4), {"probability": [0.25] * 4}),
    ("discrete-prob-float32", lambda lib: lib.Discrete(4), {"probability": np.full(4, 0.25, np.float32)}),
    ("discrete-prob-big-endian", lambda lib: lib.Discrete(4), {"probability": np.full(4, 0.25, ">f8")}),
    ("discrete-prob-int8", lambda lib: lib.Discrete(4), {"probability": _i8(1, 0, 0, 0)}),
    ("discrete-prob-short", lambda lib: lib.Discrete(4), {"probability": _f64(0.5, 0.5)}),
    ("discrete-prob-2d", lambda lib: lib.Discrete(4), {"probability": np.full((2, 2), 0.25)}),
    ("discrete-prob-negative", lambda lib: lib.Discrete(4), {"probability": _f64(0.5, 0.6, -0.1, 0.0)}),
    ("discrete-prob-above-one", lambda lib: lib.Discrete(4), {"probability": _f64(1.5, -0.5, 0.0, 0.0)}),
    ("discrete-prob-nan", lambda lib: lib.Discrete(4), {"probability": _f64(nan, 0.5, 0.5, 0.0)}),
    ("discrete-prob-inf", lambda lib: lib.Discrete(4), {"probability": _f64(inf, 0.0, 0.0, 0.0)}),
    ("discrete-prob-zeros", lambda lib: lib.Discrete(4), {"probability": np.zeros(4)}),
    ("discrete-prob-sum-0.9", lambda lib: lib.Discrete(4), {"probability": _off_by(-0.1)}),
    ("discrete-prob-sum+2e-5", lambda lib: lib.Discrete(4), {"probability": _off_by(2e-5)}),
    # Inside np.isclose's tolerance but outside numpy choice's sqrt(eps): ValueError from numpy.
    ("discrete-prob-sum+5e-6", lambda lib: lib.Discrete(4), {"probability": _off_by(5e-6)}),
    ("discrete-prob-sum-5e-6", lambda lib: lib.Discrete(4), {"probability": _off_by(-5e-6)}),
    ("discrete-prob-sum+1e-7", lambda lib: lib.Discrete(4), {"probability": _off_by(1e-7)}),
    ("discrete-prob-sum+3e-8", lambda lib: lib.Discrete(4), {"probability": _off_by(3e-8)}),
    # Within numpy's tolerance: accepted by both.
    ("discrete-prob-sum+1e-8", lambda lib: lib.Discrete(4), {"probability": _off_by(1e-8)}),
    ("discrete-prob-sum-1e-9", lambda lib: lib.Discrete(4), {"probability": _off_by(-1e-9)}),
    ("discrete-mask-and-prob", lambda lib: lib.Discrete(4),
     {"mask": _i8(1, 1, 1, 1), "probability": np.full(4, 0.25)}),
    ("discrete-mask-and-bad-prob", lambda lib: lib.Discrete(4), {"mask": [9], "probability": "x"}),
    ("discrete-int8-prob-near-one", lambda lib: lib.Discrete(3, start=-1, dtype=np.int8),
     {"probability": _off_by(9e-6, 3)}),
    # ------------------------------------------------------------- MultiBinary
    ("mb-mask-list", lambda lib: lib.MultiBinary(4), {"mask": [2, 2, 0, 1]}),
    ("mb-mask-int32", lambda lib: lib.MultiBinary(4), {"mask": np.array([2, 2, 0, 1], np.int32)}),
    ("mb-mask-bool", lambda lib: lib.MultiBinary(4), {"mask": np.array([1, 1, 0, 1], bool)}),
    ("mb-mask-shape", lambda lib: lib.MultiBinary(4), {"mask": _i8(2, 2, 2)}),
    ("mb-mask-2d-shape", lambda lib: lib.MultiBinary((2, 3)), {"mask": np.full((3, 2), 2, np.int8)}),
    ("mb-mask-flat-for-2d", lambda lib: lib.MultiBinary((2, 3)), {"mask": np.full(6, 2, np.int8)}),
    ("mb-mask-value-3", lambda lib: lib.MultiBinary(4), {"mask": _i8(0, 1, 2, 3)}),
    ("mb-mask-value-neg", lambda lib: lib.MultiBinary(4), {"mask": _i8(0, 1, 2, -1)}),
    ("mb-prob-list", lambda lib: lib.MultiBinary(4), {"probability": [0.5] * 4}),
    ("mb-prob-float32", lambda lib: lib.MultiBinary(4), {"probability": np.full(4, 0.5, np.float32)}),
    ("mb-prob-big-endian", lambda lib: lib.MultiBinary(4), {"probability": np.full(4, 0.5, ">f8")}),
    ("mb-prob-shape", lambda lib: lib.MultiBinary(4), {"probability": np.full(5, 0.5)}),
    ("mb-prob-negative", lambda lib: lib.MultiBinary(4), {"probability": _f64(0.5, -0.1, 0.5, 0.5)}),
    ("mb-prob-above-one", lambda lib: lib.MultiBinary(4), {"probability": _f64(0.5, 1.1, 0.5, 0.5)}),
    ("mb-prob-nan", lambda lib: lib.MultiBinary(4), {"probability": _f64(0.5, nan, 0.5, 0.5)}),
    ("mb-prob-inf", lambda lib: lib.MultiBinary(4), {"probability": _f64(0.5, inf, 0.5, 0.5)}),
    ("mb-mask-and-prob", lambda lib: lib.MultiBinary(4),
     {"mask": np.full(4, 2, np.int8), "probability": np.full(4, 0.5)}),
    # ----------------------------------------------------------- MultiDiscrete
    ("md-mask-list", lambda lib: lib.MultiDiscrete([3, 2]), {"mask": [_i8(1, 1, 0), _i8(1, 0)]}),
    ("md-mask-array", lambda lib: lib.MultiDiscrete([2, 2]), {"mask": np.ones((2, 2), np.int8)}),
    ("md-mask-short", lambda lib: lib.MultiDiscrete([3, 2]), {"mask": (_i8(1, 1, 0),)}),
    ("md-mask-long", lambda lib: lib.MultiDiscrete([3, 2]), {"mask": (_i8(1, 1, 0), _i8(1, 0), _i8(1))}),
    ("md-mask-leaf-list", lambda lib: lib.MultiDiscrete([3, 2]), {"mask": ([1, 1, 0], _i8(1, 0))}),
    ("md-mask-leaf-int32", lambda lib: lib.MultiDiscrete([3, 2]),
     {"mask": (np.array([1, 1, 0], np.int32), _i8(1, 0))}),
    ("md-mask-leaf-length", lambda lib: lib.MultiDiscrete([3, 2]), {"mask": (_i8(1, 1), _i8(1, 0))}),
    ("md-mask-leaf-value-2", lambda lib: lib.MultiDiscrete([3, 2]), {"mask": (_i8(1, 2, 0), _i8(1, 0))}),
    # The first leaf is drawn before the second leaf's validation fails.
    ("md-mask-second-leaf-bad", lambda lib: lib.MultiDiscrete([3, 2]), {"mask": (_i8(1, 1, 1), _i8(1, 5))}),
    ("md-mask-2d-not-nested", lambda lib: lib.MultiDiscrete([[2, 2], [2, 2]]),
     {"mask": (_i8(1, 1), _i8(1, 1))}),
    ("md-mask-2d-inner-list", lambda lib: lib.MultiDiscrete([[2, 2], [2, 2]]),
     {"mask": ((_i8(1, 1), _i8(1, 1)), [_i8(1, 1), _i8(1, 1)])}),
    ("md-mask-0d-nvec", lambda lib: lib.MultiDiscrete(3), {"mask": _i8(1, 1, 0)}),
    ("md-mask-0d-nvec-tuple", lambda lib: lib.MultiDiscrete(3), {"mask": (_i8(1, 1, 0),)}),
    ("md-mask-leaf-2d", lambda lib: lib.MultiDiscrete([2, 2]),
     {"mask": (np.ones((2, 1), np.int8), _i8(1, 1))}),
    ("md-prob-leaf-float32", lambda lib: lib.MultiDiscrete([2, 2]),
     {"probability": (np.full(2, 0.5, np.float32), _f64(0.5, 0.5))}),
    ("md-prob-leaf-big-endian", lambda lib: lib.MultiDiscrete([2, 2]),
     {"probability": (np.full(2, 0.5, ">f8"), _f64(0.5, 0.5))}),
    ("md-prob-leaf-list", lambda lib: lib.MultiDiscrete([2, 2]), {"probability": ([0.5, 0.5], _f64(0.5, 0.5))}),
    ("md-prob-negative", lambda lib: lib.MultiDiscrete([2, 2]),
     {"probability": (_f64(1.1, -0.1), _f64(0.5, 0.5))}),
    ("md-prob-nan", lambda lib: lib.MultiDiscrete([2, 2]), {"probability": (_f64(nan, 1.0), _f64(0.5, 0.5))}),
    ("md-prob-inf", lambda lib: lib.MultiDiscrete([2, 2]), {"probability": (_f64(inf, 0.0), _f64(0.5, 0.5))}),
    ("md-prob-zeros", lambda lib: lib.MultiDiscrete([2, 2]), {"probability": (_f64(0, 0), _f64(0.5, 0.5))}),
    ("md-prob-sum-0.9", lambda lib: lib.MultiDiscrete([2, 2]),
     {"probability": (_f64(0.5, 0.4), _f64(0.5, 0.5))}),
    ("md-prob-sum+5e-6", lambda lib: lib.MultiDiscrete([4, 2]),
     {"probability": (_off_by(5e-6), _f64(0.5, 0.5))}),
    ("md-prob-sum+2e-5", lambda lib: lib.MultiDiscrete([4, 2]),
     {"probability": (_off_by(2e-5), _f64(0.5, 0.5))}),
    ("md-prob-second-leaf-bad", lambda lib: lib.MultiDiscrete([2, 2]),
     {"probability": (_f64(0.5, 0.5), _f64(0.7, 0.7))}),
    ("md-prob-leaf-length", lambda lib: lib.MultiDiscrete([2, 2]),
     {"probability": (_f64(0.25, 0.25, 0.5), _f64(0.5, 0.5))}),
    ("md-mask-and-prob", lambda lib: lib.MultiDiscrete([2, 2]),
     {"mask": (_i8(1, 1), _i8(1, 1)), "probability": (_f64(0.5, 0.5), _f64(0.5, 0.5))}),
    # --------------------------------------------------------------------- Text
    ("text-mask-list", lambda lib: lib.Text(5, charset="abc"), {"mask": [3, _i8(1, 1, 0)]}),
    ("text-mask-array", lambda lib: lib.Text(5, charset="abc"), {"mask": _i8(1, 1, 0)}),
    ("text-mask-1-tuple", lambda lib: lib.Text(5, charset="abc"), {"mask": (3,)}),
    ("text-mask-3-tuple", lambda lib: lib.Text(5, charset="abc"), {"mask": (3, None, None)}),
    ("text-length-too-long", lambda lib: lib.Text(5, charset="abc"), {"mask": (6, None)}),
    ("text-length-too-short", lambda lib: lib.Text(5, min_length=2, charset="abc"), {"mask": (1, None)}),
    ("text-length-negative", lambda lib: lib.Text(5, min_length=0, charset="abc"), {"mask": (-1, None)}),
    ("text-length-float", lambda lib: lib.Text(5, charset="abc"), {"mask": (3.0, None)}),
    ("text-length-str", lambda lib: lib.Text(5, charset="abc"), {"mask": ("3", None)}),
    ("text-length-bool", lambda lib: lib.Text(5, charset="abc"), {"mask": (True, None)}),
    ("text-length-np-float", lambda lib: lib.Text(5, charset="abc"), {"mask": (np.float64(2), None)}),
    ("text-charmask-list", lambda lib: lib.Text(5, charset="abc"), {"mask": (None, [1, 1, 0])}),
    ("text-charmask-int32", lambda lib: lib.Text(5, charset="abc"), {"mask": (None, np.array([1, 1, 0], np.int32))}),
    ("text-charmask-shape", lambda lib: lib.Text(5, charset="abc"), {"mask": (None, _i8(1, 1))}),
    ("text-charmask-value-2", lambda lib: lib.Text(5, charset="abc"), {"mask": (None, _i8(1, 2, 0))}),
    ("text-charmask-zero-min1", lambda lib: lib.Text(5, charset="abc"), {"mask": (None, _i8(0, 0, 0))}),
    ("text-charmask-zero-length", lambda lib: lib.Text(5, charset="abc"), {"mask": (2, _i8(0, 0, 0))}),
    ("text-prob-float32", lambda lib: lib.Text(5, charset="abc"),
     {"probability": (None, np.full(3, 1 / 3, np.float32))}),
    ("text-prob-big-endian", lambda lib: lib.Text(5, charset="abc"),
     {"probability": (None, np.full(3, 1 / 3, ">f8"))}),
    ("text-prob-negative", lambda lib: lib.Text(5, charset="abc"),
     {"probability": (None, _f64(0.6, 0.5, -0.1))}),
    ("text-prob-nan", lambda lib: lib.Text(5, charset="abc"), {"probability": (None, _f64(nan, 0.5, 0.5))}),
    ("text-prob-zeros", lambda lib: lib.Text(5, charset="abc"), {"probability": (None, np.zeros(3))}),
    ("text-prob-zeros-min0", lambda lib: lib.Text(5, min_length=0, charset="abc"),
     {"probability": (None, np.zeros(3))}),
    ("text-prob-sum-0.9", lambda lib: lib.Text(5, charset="abc"), {"probability": (None, _f64(0.3, 0.3, 0.3))}),
    # Length drawn, then numpy rejects the sum: the draw stays consumed.
    ("text-prob-sum+5e-6", lambda lib: lib.Text(5, charset="abcd"), {"probability": (None, _off_by(5e-6))}),
    ("text-prob-sum-5e-6-len", lambda lib: lib.Text(5, charset="abcd"), {"probability": (2, _off_by(-5e-6))}),
    ("text-prob-sum+2e-5", lambda lib: lib.Text(5, charset="abcd"), {"probability": (None, _off_by(2e-5))}),
    ("text-prob-sum+1e-8", lambda lib: lib.Text(5, charset="abcd"), {"probability": (None, _off_by(1e-8))}),
    ("text-prob-shape", lambda lib: lib.Text(5, charset="abc"), {"probability": (None, np.full(4, 0.25))}),
    ("text-prob-with-int8", lambda lib: lib.Text(5, charset="abc"), {"probability": (None, _i8(1, 0, 0))}),
    ("text-mask-with-float", lambda lib: lib.Text(5, charset="abc"), {"mask": (None, _f64(1, 0, 0))}),
    ("text-empty-charset-prob", lambda lib: lib.Text(3, min_length=0, charset=""),
     {"probability": (None, np.zeros(0))}),
    ("text-empty-charset-min1", lambda lib: lib.Text(3, charset=""), {}),
    ("text-mask-and-prob", lambda lib: lib.Text(5, charset="abc"),
     {"mask": (2, None), "probability": (2, None)}),
    # ---------------------------------------------------------------------- Box
    ("box-mask", lambda lib: lib.Box(-1, 1, (3,)), {"mask": np.ones(3, np.int8)}),
    ("box-probability", lambda lib: lib.Box(-1, 1, (3,)), {"probability": np.ones(3)}),
    ("box-mask-false", lambda lib: lib.Box(-1, 1, (3,)), {"mask": False}),
    ("box-both", lambda lib: lib.Box(-1, 1, (3,)), {"mask": 0, "probability": 0}),
]


@pytest.mark.parametrize("build,kwargs", [pytest.param(b, k, id=i) for i, b, k in CASES])
def test_bad_sample_arguments(build, kwargs):
    for seed in (0, 1, 2):
        gs_space, gym_space = seeded_pair(build, seed)
        assert_same_stream(gs_space, gym_space, 1, f"seed={seed} warm-up")
        actual = outcome(lambda: gs_space.sample(**kwargs))
        expected = outcome(lambda: gym_space.sample(**kwargs))
        assert_same_outcome(actual, expected, f"seed={seed} {kwargs}", same_message=True,
                            same_warnings=False)
        assert_same_state(gs_space, gym_space, f"seed={seed} after the bad call")
        assert_same_stream(gs_space, gym_space, 3, f"seed={seed} after the bad call")


def test_isclose_region_raises_numpy_value_error():
    """Quirk Q16 (docs/quirks.md): a sum off by 5e-6 passes Gymnasium's isclose, then numpy raises ValueError."""
    from support.differential import GS

    # numpy's own words, which changed with numpy 2.0 (lower-case and shorter before)
    with pytest.raises(ValueError) as numpy_error:
        np.random.default_rng(0).choice(4, p=_off_by(5e-6))
    assert "sum to 1" in str(numpy_error.value)
    with pytest.raises(ValueError) as gs_error:
        GS.Discrete(4, seed=0).sample(probability=_off_by(5e-6))
    assert str(gs_error.value) == str(numpy_error.value)
    with pytest.raises(AssertionError):
        GS.Discrete(4, seed=0).sample(probability=_off_by(2e-5))


def test_both_mask_and_probability_message():
    from support.differential import GS, GYM

    for build, mask, probability in [
        (lambda lib: lib.Discrete(2), _i8(1, 1), _f64(0.5, 0.5)),
        (lambda lib: lib.MultiBinary(2), _i8(2, 2), _f64(0.5, 0.5)),
        (lambda lib: lib.MultiDiscrete([2]), (_i8(1, 1),), (_f64(0.5, 0.5),)),
        (lambda lib: lib.Text(2, charset="ab"), (1, None), (1, None)),
    ]:
        with pytest.raises(ValueError) as gs_error:
            build(GS).sample(mask=mask, probability=probability)
        with pytest.raises(ValueError) as gym_error:
            build(GYM).sample(mask=mask, probability=probability)
        assert str(gs_error.value) == str(gym_error.value)


# --------------------------------------------------------------------------- python -O

# Under -O Gymnasium's asserts vanish (quirk Q26, docs/quirks.md); the same junk then reaches numpy, and
# gymspaces' kernels must neither crash nor diverge. All cases run in one subprocess
# (so that a crash is reported as a failure instead of killing the session: the
# optimized_report fixture of conftest.py); each case is then checked by its own test.
OPTIMIZED_CASES = [
    "L.Discrete(4), {'mask': [1, 0, 1, 0]}",
    "L.Discrete(4), {'mask': np.array([1, 0, 1, 0], np.int32)}",
    "L.Discrete(4), {'mask': i8(0, 2, 1, 1)}",
    "L.Discrete(4), {'mask': i8(1, 1)}",
    "L.Discrete(4), {'mask': i8(1, 1, 1, 1, 1, 1)}",
    "L.Discrete(4), {'mask': np.ones((2, 2), np.int8)}",
    "L.Discrete(4), {'probability': [0.25] * 4}",
    "L.Discrete(4), {'probability': np.full(4, 0.25, np.float32)}",
    "L.Discrete(4), {'probability': np.full(3, 1 / 3, np.float32)}",
    "L.Discrete(3), {'probability': np.full(3, 1 / 3, np.float32)}",
    "L.Discrete(4), {'probability': f64(0.5, 0.5)}",
    "L.Discrete(4), {'probability': f64(2, -1, 0, 0)}",
    "L.Discrete(4), {'probability': f64(0.3, 0.3, 0.3, 0.3)}",
    "L.Discrete(4), {'probability': np.full((2, 2), 0.25)}",
    "L.Discrete(4), {'probability': np.full(4, 0.25, '>f8')}",
    "L.Discrete(4), {'mask': np.array([1, 0, 1, 1], bool)}",
    "L.Discrete(4), {'mask': np.array([1, 0, 1, 1], '>i4')}",
    "L.Discrete(4), {'mask': f64(0, 1, 1, 0)}",
    "L.Discrete(4, start=3, dtype=np.int8), {'mask': np.array([0, 0, 0, 0], np.int16)}",
    "L.MultiBinary(4), {'mask': [2, 2, 0, 1]}",
    "L.MultiBinary(4), {'mask': i8(2, 2, 2)}",
    "L.MultiBinary(4), {'mask': i8(3, 2, 1, 0)}",
    "L.MultiBinary(4), {'mask': np.array([2, 2, 0, 1], np.int32)}",
    "L.MultiBinary(4), {'probability': [0.5] * 4}",
    "L.MultiBinary(4), {'probability': np.full(4, 0.5, np.float32)}",
    "L.MultiBinary(4), {'probability': np.full(3, 0.5)}",
    "L.MultiBinary(4), {'probability': f64(-1, 2, np.nan, 0.5)}",
    "L.MultiBinary(4), {'probability': np.full(4, 0.5, '>f8')}",
    "L.MultiBinary((2, 2)), {'mask': np.full(4, 2, np.int8)}",
    "L.MultiDiscrete([3, 2]), {'mask': (i8(1, 2, 1), i8(1, 1))}",
    "L.MultiDiscrete([3, 2]), {'mask': (i8(1, 1), i8(1, 1))}",
    "L.MultiDiscrete([3, 2]), {'mask': ([1, 1, 0], i8(1, 1))}",
    "L.MultiDiscrete([3, 2]), {'mask': (np.array([1, 1, 0], np.int32), i8(1, 1))}",
    "L.MultiDiscrete([3, 2]), {'probability': (f64(0.2, 0.2, 0.2), f64(0.5, 0.5))}",
    "L.MultiDiscrete([3, 2]), {'probability': (f64(0, 0, 0), f64(0.5, 0.5))}",
    "L.MultiDiscrete([3, 2]), {'probability': (np.full(3, 1 / 3, np.float32), f64(0.5, 0.5))}",
    "L.MultiDiscrete([3, 2]), {'probability': (f64(2, -1, 0), f64(0.5, 0.5))}",
    "L.Text(5, charset='abc'), {'mask': (9, None)}",
    "L.Text(5, charset='abc'), {'mask': (None, i8(1, 1))}",
    "L.Text(5, charset='abc'), {'mask': (None, i8(2, 0, 0))}",
    "L.Text(5, charset='abc'), {'mask': (None, np.array([1, 1, 0], np.int32))}",
    "L.Text(5, charset='abc'), {'probability': (None, f64(0.2, 0.2, 0.2))}",
    "L.Text(5, charset='abc'), {'probability': (None, f64(2, -1, 0))}",
    "L.Text(5, charset='abc'), {'probability': (None, np.full(3, 1 / 3, np.float32))}",
    "L.Text(5, charset='abc'), {'probability': (None, f64(0.5, 0.5))}",
    "L.Text(5, charset='abc'), {'probability': (None, np.full(3, 1 / 3, '>f8'))}",
    "L.Text(5, charset='abc'), {'mask': (2.0, None)}",
    "L.Text(5, charset='abc'), {'mask': [2, None]}",
    "L.MultiDiscrete([3, 2]), {'probability': (np.full(3, 1 / 3, '>f8'), f64(0.5, 0.5))}",
    "L.MultiDiscrete([3, 2]), {'mask': (np.array([1, 0, 1], bool), i8(1, 1))}",
]

# The part of the script that is this module's (conftest.py runs it on every case).
OPTIMIZED_SCRIPT = textwrap.dedent(
    """
    i8 = lambda *v: np.array(v, dtype=np.int8)
    f64 = lambda *v: np.array(v, dtype=np.float64)

    def run(space, kwargs):
        try:
            value = space.sample(**kwargs)
            return ["ok", repr(type(value)), repr(np.asarray(value).tolist())]
        except Exception as exc:
            return ["error", type(exc).__name__]

    def states(space):
        return space.np_random.bit_generator.state
    """
)


@pytest.mark.parametrize("source", OPTIMIZED_CASES)
def test_optimized_mode_matches_gymnasium_without_crashing(optimized_report, source):
    entry = optimized_report[source]
    assert entry["gymspaces"] == entry["gymnasium"], entry
    assert entry["same_state"], entry
