"""Exceptions raised by gymspaces, named and rooted as in Gymnasium."""

from __future__ import annotations

__all__ = ["Error", "CustomSpaceError"]


class Error(Exception):
    """Base error of gymspaces (invalid seeds, masks given to ``Box.sample``...)."""


class CustomSpaceError(Exception):
    """A helper met a user-defined space it has no implementation for.

    Like Gymnasium's, this is deliberately *not* a subclass of :class:`Error`.
    """
