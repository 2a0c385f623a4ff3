"""The 128-bit arithmetic of the inline PCG64 step, on the path this build compiled.

``gymspaces._rng.PCG64_PATH`` names it: ``"int128"`` (the compiler's
``unsigned __int128``), ``"msvc"`` (two 64-bit words, MSVC's ``_umul128``/``__umulh``) or
``"portable"`` (two 64-bit words, plain C; ``GYMSPACES_NO_INT128=1`` forces
it). Whichever it is, the inline draws must be numpy's, and so must the state
they leave: these tests run the inline fills directly (``_probes``) on states
chosen to carry between the words, and through a Box.
"""

from __future__ import annotations

import platform

import numpy as np
import pytest

from gymspaces import Box
from gymspaces import _rng
from gymspaces._probes import inline_pcg64_doubles, inline_pcg64_fill
from support.switches import switch

MASK64 = 2**64 - 1
# Lengths around the four-lane fill's block and threshold (16), and a long one.
FILL_COUNTS = (0, 1, 3, 4, 15, 16, 17, 18, 19, 20, 63, 64, 65, 1001)


def states() -> list[tuple[int, int]]:
    """(state, increment) pairs: edge words that carry or wrap, then random ones."""
    edges = [0, 1, MASK64, 2**64, 2**127, 2**128 - 1, (MASK64 << 64) | 1, 2**63 | (2**127)]
    chosen = [(s, i | 1) for s in edges for i in (1, MASK64, 2**128 - 1, 2**64 + MASK64)]
    words = np.random.default_rng(45).integers(0, 2**64, size=(200, 4), dtype=np.uint64).tolist()
    chosen += [((a << 64) | b, ((c << 64) | d) | 1) for a, b, c, d in words]
    return chosen


def pcg64_at(state: int, inc: int) -> np.random.Generator:
    bit_generator = np.random.PCG64()
    bit_generator.state = {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                           "has_uint32": 0, "uinteger": 0}
    return np.random.Generator(bit_generator)


def test_path_matches_the_build() -> None:
    if switch("GYMSPACES_NO_INT128"):
        assert _rng.PCG64_PATH == "portable", "rebuild: the kernels were not built with GYMSPACES_NO_INT128=1"
    elif _rng.COMPILER.startswith(("gcc", "clang")) and platform.machine() in ("x86_64", "aarch64", "arm64"):
        assert _rng.PCG64_PATH == "int128", "rebuild: the kernels were built with GYMSPACES_NO_INT128=1"
    assert _rng.PCG64_PATH in ("int128", "msvc", "portable")


def test_every_path_passes_its_import_checks() -> None:
    assert _rng.PCG64_STATE_COPY
    assert _rng.PCG64_INLINE, _rng.PCG64_FALLBACK_REASON
    assert _rng.PCG64_FALLBACK_REASON is None


@pytest.mark.parametrize("state,inc", states())
def test_four_lane_fill_draws_numpys_values_and_leaves_its_state(state: int, inc: int) -> None:
    ours, reference = pcg64_at(state, inc), pcg64_at(state, inc)
    drawn = inline_pcg64_fill(ours, FILL_COUNTS)
    np.testing.assert_array_equal(drawn, reference.bit_generator.random_raw(sum(FILL_COUNTS)))
    assert ours.bit_generator.state == reference.bit_generator.state


@pytest.mark.parametrize("state,inc", states()[::8])
def test_serial_doubles_are_numpys(state: int, inc: int) -> None:
    ours, reference = pcg64_at(state, inc), pcg64_at(state, inc)
    assert inline_pcg64_doubles(ours, 37).tolist() == reference.random(37).tolist()
    assert ours.bit_generator.state == reference.bit_generator.state


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1, 2**127 + 99, 2**128 - 3])
def test_image_box_samples_like_numpy_from_any_seed(seed: int) -> None:
    """The bulk fill behind an image Box: top bits of each draw (see _box.top_bits_fill)."""
    space = Box(0, 255, (84, 84, 3), np.uint8, seed=seed)
    reference = np.random.default_rng(seed)
    for _ in range(2):
        expected = np.floor(reference.uniform(0, 256, size=(84, 84, 3))).astype(np.uint8)
        np.testing.assert_array_equal(space.sample(), expected)
    assert space.np_random.bit_generator.state == reference.bit_generator.state
