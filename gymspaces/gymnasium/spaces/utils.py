"""``flatdim``, ``flatten``, ``unflatten`` and ``flatten_space`` for compatible spaces.

The values are computed by gymspaces' compiled helpers (the same numbers as
Gymnasium's); graph samples come back as the compatible
:class:`~gymspaces.gymnasium.spaces.GraphInstance` and :func:`flatten_space`
returns compatible spaces, so results stay usable by Gymnasium code. Defined
in :mod:`gymspaces.gymnasium._compat_utils`.
"""

from gymspaces.gymnasium._compat_utils import flatdim, flatten, flatten_space, unflatten

__all__ = ["flatdim", "flatten", "unflatten", "flatten_space"]
