"""Import-time check that the compiled kernels reproduce the installed numpy.

The kernels link a static copy of numpy's random algorithms taken at build
time, while Gymnasium draws through the numpy installed at run time. If the two
ever disagree, samples would silently diverge from Gymnasium's; this check
turns that into an immediate, explained error instead.
"""

from __future__ import annotations

import numpy as np

from gymspaces.box import Box
from gymspaces.discrete import Discrete
from gymspaces.multi_discrete import MultiDiscrete

SEED = 0x5EED


def _pair() -> tuple[np.random.Generator, np.random.Generator]:
    return np.random.default_rng(SEED), np.random.default_rng(SEED)


def verify_kernels() -> None:
    """Raise ``RuntimeError`` if a kernel's draws differ from numpy's own Generator's."""
    ours, reference = _pair()
    low = np.array([-np.inf, 0.0, -np.inf, -1.0])
    high = np.array([np.inf, np.inf, 2.0, 1.0])
    box = Box(low, high, dtype=np.float64, seed=ours)
    drawn = [
        int(Discrete(1000, seed=ours).sample()),
        int(Discrete(7, dtype=np.int8, seed=ours).sample()),
        *box.sample().tolist(),
        *MultiDiscrete([3, 5], seed=ours).sample().tolist(),
        int(Discrete(4, seed=ours).sample(probability=np.full(4, 0.25))),
        # A range that is no power of two: ``low + range * u`` rounds otherwise where
        # a compiler fuses it into one multiply-add, in numpy's build or in ours.
        *Box(0.1, 0.7, (32,), dtype=np.float64, seed=ours).sample().tolist(),
    ]
    expected = [
        int(reference.integers(1000)),
        int(reference.integers(7, dtype=np.int8)),
        float(reference.normal()),
        float(reference.exponential() + 0.0),
        float(-reference.exponential() + 2.0),
        float(reference.uniform(-1.0, 1.0)),
        *(reference.random(2) * np.array([3, 5])).astype(np.int64).tolist(),
        int(reference.choice(4, p=np.full(4, 0.25))),
        *reference.uniform(0.1, 0.7, 32).tolist(),
    ]
    if drawn != expected or ours.bit_generator.state != reference.bit_generator.state:
        raise RuntimeError(
            "gymspaces' compiled kernels do not reproduce numpy "
            f"{np.__version__}'s random streams (got {drawn}, expected {expected}). "
            "Reinstall gymspaces so that it is rebuilt against the installed numpy."
        )
