"""The compatible classes: spaces that are Gymnasium spaces and run on gymspaces.

Public as :mod:`gymspaces.gymnasium.spaces` (see its docstring for what they
are). Built here; their methods (the release's, and patch mode's
entries) and their rules in both libraries' helpers are given by
:mod:`._release_classes`.
"""

from __future__ import annotations

import types
from typing import Any

import gymnasium.spaces as _gym

import gymspaces as _gs
from gymspaces.gymnasium import _calls, _convert
from gymspaces.gymnasium._release import SPACE_NAMES

CLASS_NAMES = [
    "Space",
    "Box",
    "Discrete",
    "Text",
    "Graph",
    "GraphInstance",
    "MultiDiscrete",
    "MultiBinary",
    "Tuple",
    "Sequence",
    "Dict",
    *(["OneOf"] if "OneOf" in SPACE_NAMES else []),
]
"""The public compatible classes (``gymspaces.gymnasium.spaces``), as the installed release has them."""

__all__ = [*CLASS_NAMES, "CLASS_NAMES", "compatible_graphs"]


def adopt(child: Any) -> Any:
    """``child`` as a child of a compatible composite (see the module docstring)."""
    if isinstance(child, Space):
        return child
    return _convert.convert(child, "compat", share=True, keep_unknown=True)


def _equal(gs_cls: Any, gym_cls: Any) -> Any:
    """``__eq__`` accepting the gymspaces and the Gymnasium namesake (and subclasses).

    Gymnasium's verdict comes first and is returned as it is (some releases
    answer a numpy bool); gymspaces' adds the gymspaces namesakes.
    """

    def __eq__(self: Any, other: object) -> bool:
        verdict = gym_cls.__eq__(self, other)
        if verdict is NotImplemented:
            return gs_cls.__eq__(self, other)
        return verdict or gs_cls.__eq__(self, other) or verdict

    __eq__.__qualname__ = f"{gs_cls.__name__}.__eq__"
    return __eq__


# Typed in _classes.pyi (mypy reads the stub: the classes below are built in a loop).
class Space(_gs.Space, _gym.Space):
    """Base of the compatible spaces; derive custom spaces from it.

    Both a :class:`gymspaces.Space` and a :class:`gymnasium.spaces.Space`;
    the generator machinery is gymspaces'.

    Examples
    --------
    A custom space that composites of both libraries and Gymnasium's
    vector helpers accept:

    >>> import gymnasium
    >>> import gymspaces
    >>> from gymspaces.gymnasium.spaces import Space
    >>> class Coin(Space):
    ...     def sample(self, mask=None, probability=None):
    ...         return ("heads", "tails")[self.np_random.integers(2)]
    ...     def contains(self, x):
    ...         return x in ("heads", "tails")
    >>> coin = Coin(seed=0)
    >>> isinstance(coin, gymnasium.spaces.Space), isinstance(coin, gymspaces.Space)
    (True, True)
    >>> coin.sample(), coin.contains("edge")
    ('tails', False)
    >>> gymnasium.vector.utils.batch_space(coin, 2).sample()
    ('heads', 'tails')
    """


# What each class's example builds (its arguments, evaluated where the compatible
# classes are imported), and what the class adds to the story of its bases.
_EXAMPLES = {
    "Box": ("0, 1, (3,)", ""),
    "Discrete": ("5, start=-2", ""),
    "MultiBinary": ("4", ""),
    "MultiDiscrete": ("[2, 3]", ""),
    "Text": ('5, charset="abc"', ""),
    "Tuple": ("(Discrete(3), Box(0, 1, (2,)))", "Children are made compatible (see the package docstring)."),
    "Dict": (
        '{"pos": Box(-1, 1, (2,)), "gear": Discrete(3)}',
        "Children (also those set with ``space[key] = child``) are made compatible.",
    ),
    "OneOf": ("(Discrete(2), Box(-1, 1, (2,)))", "Children are made compatible."),
    "Sequence": (
        "Discrete(4)",
        "The feature space (and the stacked feature space) are made compatible; a custom"
        " Gymnasium feature space is kept, and stacked as Gymnasium stacks it.",
    ),
    "Graph": (
        "Box(0, 1, (2,)), Discrete(3)",
        "Samples are :class:`GraphInstance` (an instance of both libraries'"
        " ``GraphInstance``); :meth:`contains` accepts either library's.",
    ),
}


def _docstring(name: str) -> str:
    arguments, note = _EXAMPLES[name]
    note = f"\n\n    {note}" if note else ""
    return f""":class:`gymspaces.{name}` that is a :class:`gymnasium.spaces.{name}`.{note}

    Examples
    --------
    The same samples as Gymnasium's {name} for the same seed:

    >>> import gymnasium
    >>> import gymspaces
    >>> from gymspaces.gymnasium.spaces import {', '.join(sorted({'Box', 'Discrete', name}))}
    >>> space = {name}({arguments}, seed=0)
    >>> isinstance(space, gymnasium.spaces.{name}), isinstance(space, gymspaces.{name})
    (True, True)
    >>> repr(space.sample()) == repr(gymnasium.spaces.{name}({arguments}, seed=0).sample())
    True
    """


def _compatible_class(name: str) -> type:
    """The compatible class ``name``: its gymspaces namesake, :class:`Space`, then Gymnasium's."""
    ours, theirs = getattr(_gs, name), getattr(_gym, name)

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(__doc__=_docstring(name), __eq__=_equal(ours, theirs), __hash__=None)

    return types.new_class(name, (ours, Space, theirs), exec_body=body)


class GraphInstance(_gs.GraphInstance, _gym.GraphInstance):
    """A graph sample: both a gymspaces and a Gymnasium ``GraphInstance``.

    Examples
    --------
    A named tuple of node features, edge features and ``(from, to)`` links:

    >>> import gymnasium
    >>> import numpy as np
    >>> from gymspaces.gymnasium.spaces import GraphInstance
    >>> nodes = np.zeros((2, 2), dtype=np.float32)
    >>> graph = GraphInstance(nodes=nodes, edges=np.array([1]), edge_links=np.array([[0, 1]], dtype=np.int32))
    >>> isinstance(graph, gymnasium.spaces.GraphInstance)
    True
    >>> nodes, edges, edge_links = graph
    >>> nodes.shape, edge_links
    ((2, 2), array([[0, 1]], dtype=int32))
    """

    __slots__ = ()


# Each Gymnasium space class the installed release has gets its compatible class
# (0.29 has no OneOf: gymspaces.OneOf remains).
for _name in SPACE_NAMES:
    globals()[_name] = _compatible_class(_name)

compatible_graphs = _calls.GraphInstances(_gs.GraphInstance, GraphInstance)
"""``compatible_graphs(value)``: ``value`` with every gymspaces ``GraphInstance`` in it made compatible."""


# Shown (reprs, pickles by reference) under their public module.
for _name in (*SPACE_NAMES, "Space", "GraphInstance"):
    globals()[_name].__module__ = "gymspaces.gymnasium.spaces"
del _name

_convert.add_family("compat", {name: globals()[name] for name in (*_convert.SPACE_NAMES, "Space", "GraphInstance")})
