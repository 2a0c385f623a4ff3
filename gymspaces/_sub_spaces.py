"""The sub-spaces of a composite space: the one walk of a tree, for both libraries.

gymspaces' composites and Gymnasium's keep their sub-spaces in the same
instance attributes: ``spaces`` (a tuple for Tuple and OneOf, a dict for
Dict), ``feature_space`` (Sequence), ``node_space`` and ``edge_space``
(Graph; no edge space is ``None``). Every walk of a tree -- patch mode's
verdicts (``gymnasium/_judge.pyx``, in C over :data:`SUB_SPACE_ATTRIBUTES`),
its may-warn checks, ``plain_reason``, the report's pickling check and the
composites' own generator walk -- reads them from here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SUB_SPACE_ATTRIBUTES", "sub_spaces"]

SUB_SPACE_ATTRIBUTES = ("spaces", "feature_space", "node_space", "edge_space")
"""The instance attributes through which a composite holds its sub-spaces, ``spaces`` first."""


def sub_spaces(space: Any) -> list[Any]:
    """The sub-spaces ``space`` holds in its instance dict, in order (none for a fundamental space).

    Examples
    --------
    >>> import gymspaces
    >>> [type(child).__name__ for child in sub_spaces(gymspaces.Dict(a=gymspaces.Discrete(2)))]
    ['Discrete']
    >>> sub_spaces(gymspaces.Discrete(2))
    []
    """
    namespace = getattr(space, "__dict__", None) or {}
    held = namespace.get("spaces")
    if held is not None:
        return list(held.values()) if isinstance(held, dict) else list(held)
    return [namespace[name] for name in SUB_SPACE_ATTRIBUTES[1:] if namespace.get(name) is not None]
