"""Turn a user seed into the numpy Generator Gymnasium would build from it."""

from __future__ import annotations

from typing import cast

import numpy as np

from gymspaces.error import Error

__all__ = ["np_random", "RNG", "RandomNumberGenerator"]

RNG = RandomNumberGenerator = np.random.Generator


def np_random(seed: int | None = None) -> tuple[np.random.Generator, int]:
    """Build a ``Generator(PCG64(SeedSequence(seed)))`` and report its seed.

    Parameters
    ----------
    seed : int or None
        A non-negative Python ``int``; ``None`` draws fresh OS entropy.

    Returns
    -------
    generator : numpy.random.Generator
        Bit-for-bit the generator Gymnasium's ``seeding.np_random`` returns.
    entropy : int
        The seed itself, or the 128-bit entropy drawn for ``None``.

    Raises
    ------
    gymspaces.error.Error
        For a seed that is not a Python ``int`` (numpy integers included) or is negative.

    Examples
    --------
    >>> from gymspaces.seeding import np_random
    >>> rng, seed = np_random(42)
    >>> seed
    42
    >>> rng.integers(10, size=3)
    array([0, 7, 6])
    >>> np_random(1.5)
    Traceback (most recent call last):
    ...
    gymspaces.error.Error: Seed must be a python integer, actual type: <class 'float'>
    """
    if seed is not None:
        if not isinstance(seed, int):
            raise Error(f"Seed must be a python integer, actual type: {type(seed)}")
        if seed < 0:
            raise Error(f"Seed must be greater or equal to zero, actual value: {seed}")
    sequence = np.random.SeedSequence(seed)
    # An int or None seed gives int entropy (``entropy`` is typed for every SeedSequence input).
    return np.random.Generator(np.random.PCG64(sequence)), cast(int, sequence.entropy)
