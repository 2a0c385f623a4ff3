"""Inline PCG64 draws: the kernels' own copy of numpy's PCG64 step.

Bulk uniform fills draw PCG64 values without going through numpy's function
pointers. These tests pin that path to numpy's Generator exactly, including
the state it leaves behind, and check that other bit generators (and PCG64
subclasses) take numpy's path instead.
"""

from __future__ import annotations

import platform

import numpy as np
import pytest

from gymspaces import Box
from gymspaces._probes import generator_handle
from gymspaces._rng import PCG64_INLINE


def reference_uniform_box(rng: np.random.Generator, low, high, shape, dtype) -> np.ndarray:
    """What Gymnasium's Box.sample computes for a fully bounded Box."""
    low = np.full(shape, low, dtype=dtype)
    high = np.full(shape, high, dtype=dtype)
    if np.dtype(dtype).kind in "iub":
        upper = high.astype(np.int64) + 1
        drawn = np.floor(rng.uniform(low=low, high=upper, size=shape))
        info = np.iinfo(dtype) if np.dtype(dtype).kind != "b" else None
        if info is not None:
            drawn = np.clip(drawn, info.min, info.max)
        return drawn.astype(dtype)
    return rng.uniform(low=low, high=high, size=shape).astype(dtype)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64", "aarch64", "arm64"),
                    reason="the inline path is tested on 64-bit platforms only")
def test_inline_path_enabled_on_64_bit_platforms():
    assert PCG64_INLINE


@pytest.mark.parametrize("dtype,low,high", [
    (np.uint8, 0, 255), (np.int8, -128, 127), (np.int32, -5, 5), (np.float32, -1.0, 1.0),
    (np.float64, -3.0, 7.5), (np.uint16, 10, 60000), (np.int64, -10**6, 10**6),
])
@pytest.mark.parametrize("shape", [(7,), (84, 84, 3)])
def test_bulk_uniform_fill_matches_numpy(dtype, low, high, shape):
    for seed in (0, 1, 2**40 + 3):
        space = Box(low, high, shape, dtype, seed=seed)
        reference = np.random.default_rng(seed)
        for _ in range(3):
            sample = space.sample()
            expected = reference_uniform_box(reference, low, high, shape, dtype)
            assert sample.dtype == expected.dtype
            np.testing.assert_array_equal(sample, expected)
            # User draws between samples advance the same state.
            assert space.np_random.random() == reference.random()
        assert space.np_random.bit_generator.state == reference.bit_generator.state


def test_buffered_half_word_is_kept():
    """A pending 32-bit half-word (from an int32 draw) survives inline draws."""
    space = Box(0, 255, (100,), np.uint8, seed=5)
    reference = np.random.default_rng(5)
    assert space.np_random.integers(10, dtype=np.int32) == reference.integers(10, dtype=np.int32)
    np.testing.assert_array_equal(space.sample(), reference_uniform_box(reference, 0, 255, (100,), np.uint8))
    assert space.np_random.integers(10, dtype=np.int32) == reference.integers(10, dtype=np.int32)
    assert space.np_random.bit_generator.state == reference.bit_generator.state


class CountingPCG64(np.random.PCG64):
    """A PCG64 subclass: kernels must not assume its layout and use numpy's path."""


@pytest.mark.parametrize("bit_generator", [CountingPCG64, np.random.PCG64DXSM, np.random.MT19937])
def test_other_bit_generators_use_numpys_path(bit_generator):
    generator = np.random.Generator(bit_generator(9))
    assert not generator_handle(generator).uses_inline_pcg64
    space = Box(0, 255, (84, 84, 3), np.uint8, seed=generator)
    reference = np.random.Generator(bit_generator(9))
    for _ in range(2):
        np.testing.assert_array_equal(space.sample(), reference_uniform_box(reference, 0, 255, (84, 84, 3), np.uint8))
    # MT19937 states hold arrays: compare the next draws instead.
    assert generator.random(8).tolist() == reference.random(8).tolist()


def test_default_generator_uses_inline_path():
    assert generator_handle(np.random.default_rng(0)).uses_inline_pcg64 == PCG64_INLINE


@pytest.mark.parametrize("dtype,edit,error", [
    (np.uint8, lambda s: s.low.__setitem__(5, 250) or s.high.__setitem__(5, 10), ValueError),
    (np.int16, lambda s: s.low.__setitem__(0, 9) or s.high.__setitem__(0, 2), ValueError),
    (np.float64, lambda s: s.low.__setitem__(3, np.nan), OverflowError),
    (np.float64, lambda s: s.high.__setitem__(7, -np.inf), OverflowError),
    (np.float64, lambda s: s.low.__setitem__(2, 0.5) or s.high.__setitem__(2, 0.25), ValueError),
])
def test_invalid_edited_ranges_leave_the_stream_like_gymnasium(dtype, edit, error):
    """A range made invalid in place raises before any uniform draw counts (checked during the pass)."""
    import warnings

    import gymnasium.spaces as gym_spaces

    ours = Box(0, 1 if np.dtype(dtype).kind == "f" else 100, (40,), dtype, seed=3)
    theirs = gym_spaces.Box(0, 1 if np.dtype(dtype).kind == "f" else 100, (40,), dtype, seed=3)
    ours.sample(), theirs.sample()
    edit(ours), edit(theirs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(error):
            theirs.sample()
        with pytest.raises(error):
            ours.sample()
    assert ours.np_random.bit_generator.state == theirs.np_random.bit_generator.state
    assert ours.np_random.random() == theirs.np_random.random()
