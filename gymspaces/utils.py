"""Flattening utilities: ``flatdim``, ``flatten``, ``unflatten``, ``flatten_space``, ``flatten_batch``.

Every function dispatches on the space's class with singledispatch's rules, so a
custom space registers its own implementation exactly as with Gymnasium::

    @gymspaces.utils.flatten.register(MySpace)
    def _(space, x): ...

Results match Gymnasium 1.4.0 (layouts, dtypes, errors). Trees of Box, Discrete,
MultiDiscrete and MultiBinary inside Tuple/Dict are flattened and unflattened by a
compiled kernel that writes straight into one output array. The rules are
defined in :mod:`gymspaces._flattening`, their batched form in
:mod:`gymspaces._flatten_batch`; the seeding helpers are here too, as in
``gymnasium.spaces.utils``' neighbourhood.
"""

from gymspaces._flatten_batch import flatten_batch
from gymspaces._flattening import FlatType, flatdim, flatten, flatten_space, is_space_dtype_shape_equiv, unflatten
from gymspaces.seeding import RNG, RandomNumberGenerator, np_random

__all__ = [
    "FlatType",
    "flatdim",
    "flatten",
    "flatten_space",
    "unflatten",
    "is_space_dtype_shape_equiv",
    "flatten_batch",
    "np_random",
    "RNG",
    "RandomNumberGenerator",
]

# Shown (docs, reprs, pickles by reference) under their public module.
for _public in (flatdim, flatten, unflatten, flatten_space, is_space_dtype_shape_equiv, flatten_batch):
    _public.__module__ = __name__
del _public
