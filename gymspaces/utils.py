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

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from gymspaces._flatten_batch import flatten_batch

# Shown (docs, reprs, pickles by reference) under their public module.
for _public in (flatdim, flatten, unflatten, flatten_space, is_space_dtype_shape_equiv):
    _public.__module__ = __name__
del _public


def __getattr__(name: str) -> Any:
    # PEP 562: ``flatten_batch`` (gymspaces' own, not Gymnasium's) loads on first
    # use, so neither ``import gymspaces`` nor patch mode pays for its module.
    if name != "flatten_batch":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from gymspaces._flatten_batch import flatten_batch

    flatten_batch.__module__ = __name__
    globals()[name] = flatten_batch  # from now on an ordinary attribute
    return flatten_batch


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"flatten_batch"})
