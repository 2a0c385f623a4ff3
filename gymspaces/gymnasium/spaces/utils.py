"""``flatdim``, ``flatten``, ``unflatten`` and ``flatten_space`` for compatible spaces.

The values are computed by gymspaces' compiled helpers (the same numbers as
Gymnasium's); graph samples come back as the compatible
:class:`~gymspaces.gymnasium.spaces.GraphInstance` and :func:`flatten_space`
returns compatible spaces, so results stay usable by Gymnasium code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gymspaces as _gs
from gymspaces import utils as _utils
from gymspaces.gymnasium import _convert
from gymspaces.gymnasium._classes import compatible_graphs

__all__ = ["flatdim", "flatten", "unflatten", "flatten_space"]

flatdim = _utils.flatdim


def flatten(space: Any, x: Any) -> Any:
    """Flatten ``x``, an element of ``space`` (see :func:`gymspaces.flatten`).

    Graph samples in the result are compatible :class:`~gymspaces.gymnasium.spaces.GraphInstance`.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import Box, Discrete, Graph
    >>> from gymspaces.gymnasium.spaces.utils import flatten
    >>> space = Graph(Box(0, 1, (2,)), Discrete(3), seed=0)
    >>> flat = flatten(space, space.sample(num_nodes=2, num_edges=1))
    >>> flat.edges  # one-hot edge features
    array([[0, 0, 1]])
    >>> isinstance(flat, gymnasium.spaces.GraphInstance)
    True
    """
    return compatible_graphs(_utils.flatten(space, x))


def unflatten(space: Any, x: Any) -> Any:
    """Rebuild an element of ``space`` from its flattened form (see :func:`gymspaces.unflatten`).

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces.gymnasium.spaces import Discrete, Sequence, Tuple
    >>> from gymspaces.gymnasium.spaces.utils import unflatten
    >>> space = Tuple((Discrete(2), Sequence(Discrete(3))))
    >>> unflatten(space, (np.array([0, 1]), (np.array([0, 0, 1]),)))
    (np.int64(1), (np.int64(2),))
    """
    return compatible_graphs(_utils.unflatten(space, x))


def flatten_space(space: Any) -> Any:
    """The space of flattened elements of ``space``, as compatible spaces.

    Like Gymnasium's, the new spaces are unseeded.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import Box, Dict, Discrete
    >>> from gymspaces.gymnasium.spaces.utils import flatten_space
    >>> flat = flatten_space(Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)}))
    >>> flat
    Box([ 0.  0.  0. -1. -1.], 1.0, (5,), float64)
    >>> isinstance(flat, gymnasium.spaces.Box)
    True
    """
    return _convert.convert(_utils.flatten_space(space), "compat", share=True)
