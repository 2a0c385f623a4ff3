"""The batching rules under the module name Gymnasium gives them (``gymnasium.vector.utils.space_utils``).

They are defined in :mod:`gymspaces._batching`, below the space classes (which
call them) and the flatten utilities and shared-memory helpers that use them.
That module knows no space class, so the static types that name
:class:`~gymspaces.space.Space` are given to them here, for type checkers only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import numpy as np

from gymspaces import _batching

if TYPE_CHECKING:
    from gymspaces._dispatch import SpaceDispatcher
    from gymspaces.space import Space

__all__ = ["batch_space", "batch_differing_spaces", "iterate", "concatenate", "create_empty_array"]

if TYPE_CHECKING:
    _P = ParamSpec("_P")
    _R = TypeVar("_R")

    def _typed(dispatcher: SpaceDispatcher[..., Any], signature: Callable[_P, _R]) -> SpaceDispatcher[_P, _R]: ...

    def _batch_space(space: Space[Any], n: int = 1) -> Space[Any]: ...
    def _batch_differing_spaces(spaces: Sequence[Space[Any]]) -> Space[Any]: ...
    def _iterate(space: Space[Any], items: Any) -> Iterator[Any]: ...
    def _concatenate(space: Space[Any], items: Iterable[Any], out: Any) -> Any: ...
    def _create_empty_array(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any: ...

    batch_space = _typed(_batching.batch_space, _batch_space)
    batch_differing_spaces = _typed(_batching.batch_differing_spaces, _batch_differing_spaces)
    iterate = _typed(_batching.iterate, _iterate)
    concatenate = _typed(_batching.concatenate, _concatenate)
    create_empty_array = _typed(_batching.create_empty_array, _create_empty_array)
else:
    batch_space, batch_differing_spaces = _batching.batch_space, _batching.batch_differing_spaces
    iterate, concatenate, create_empty_array = _batching.iterate, _batching.concatenate, _batching.create_empty_array

# Shown (docs, reprs, pickles by reference) under their public module.
for _public in (batch_space, batch_differing_spaces, iterate, concatenate, create_empty_array):
    _public.__module__ = __name__
del _public
