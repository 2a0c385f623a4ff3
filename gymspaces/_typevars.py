"""The type variables of the space classes.

Type checkers see them with PEP 696 defaults, so that a bare annotation means
what Gymnasium's does (``Dict`` is ``Dict[Any]``, ``Discrete`` holds int64);
at run time they are ``typing.TypeVar`` objects without defaults (``typing_extensions``,
which has ``default=``, is not a dependency).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    # The element type of a composite space.
    T_cov = TypeVar("T_cov", covariant=True, default=Any)
    # The integer dtype of a Discrete or MultiDiscrete.
    IntegerT = TypeVar("IntegerT", bound=np.integer[Any], covariant=True, default=np.int64)
else:
    from typing import TypeVar

    T_cov = TypeVar("T_cov", covariant=True)
    IntegerT = TypeVar("IntegerT", bound=np.integer, covariant=True)

__all__ = ["IntegerT", "T_cov"]
