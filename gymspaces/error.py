"""Exceptions raised by gymspaces, named and rooted as in Gymnasium."""

from __future__ import annotations

__all__ = ["Error", "CustomSpaceError"]


class Error(Exception):
    """Base error of gymspaces (invalid seeds, masks given to ``Box.sample``...).

    Examples
    --------
    >>> from gymspaces import Box, Discrete
    >>> from gymspaces.error import Error
    >>> Discrete(3, seed=-1)
    Traceback (most recent call last):
    ...
    gymspaces.error.Error: Seed must be greater or equal to zero, actual value: -1
    >>> try:
    ...     Box(0, 1, (2,)).sample(mask=1)
    ... except Error as error:
    ...     print(error)
    Box.sample cannot be provided a mask, actual value: 1
    """


class CustomSpaceError(Exception):
    """A helper met a user-defined space it has no implementation for.

    Like Gymnasium's, this is deliberately *not* a subclass of :class:`Error`.
    The vector helpers (``iterate`` and the shared memory functions) raise it
    until the space's class is registered with them; the flatten family
    raises ``NotImplementedError`` instead, as Gymnasium does.

    Examples
    --------
    >>> from gymspaces import Space
    >>> from gymspaces.error import CustomSpaceError, Error
    >>> from gymspaces.vector import iterate
    >>> class Coin(Space):
    ...     def sample(self, mask=None, probability=None):
    ...         return "heads"
    >>> next(iterate(Coin(), ["heads", "tails"]))
    Traceback (most recent call last):
    ...
    gymspaces.error.CustomSpaceError: Space of type `<class '...Coin'>` doesn't have an registered `iterate` ...
    >>> issubclass(CustomSpaceError, Error)
    False
    """
