"""The compatible classes: spaces that are Gymnasium spaces and run on gymspaces.

Public as :mod:`gymspaces.gymnasium.spaces` (see its docstring for what they
are). Declared here; their methods (the release's, and patch mode's
entries) are given by :mod:`._release_classes`, their registration with
gymspaces' helpers by :mod:`._registration`.
"""

from __future__ import annotations

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


# Each class below derives from its gymspaces and its Gymnasium namesake. The two
# declare the same attributes and methods with different (equally valid) types --
# e.g. ``_np_random`` optional or not, ``spaces`` of gymspaces or Gymnasium spaces,
# both ``tuple`` bases of GraphInstance -- which mypy reports as incompatible base
# definitions ([misc]). At run time Gymnasium's methods are set on each class
# (_release_classes); a class type can't say "this base's declaration wins", so it is ignored.
class Space(_gs.Space, _gym.Space):  # type: ignore[misc]  # see above: both libraries' declarations
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


class Box(_gs.Box, Space, _gym.Box):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.Box` that is a :class:`gymnasium.spaces.Box`.

    Examples
    --------
    Same samples as Gymnasium's Box for the same seed, and accepted by its
    helpers:

    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import Box
    >>> space = Box(0, 1, (3,), seed=0)
    >>> isinstance(space, gymnasium.spaces.Box)
    True
    >>> space.sample()
    array([0.6369617 , 0.26978672, 0.04097353], dtype=float32)
    >>> gymnasium.spaces.Box(0, 1, (3,), seed=0).sample()
    array([0.6369617 , 0.26978672, 0.04097353], dtype=float32)
    >>> batched = gymnasium.vector.utils.batch_space(space, 2)  # runs gymspaces' rule
    >>> batched, type(batched).__module__
    (Box(0.0, 1.0, (2, 3), float32), 'gymspaces.gymnasium.spaces')
    >>> space == gymnasium.spaces.Box(0, 1, (3,))
    True
    """

    __eq__ = _equal(_gs.Box, _gym.Box)
    __hash__ = None  # type: ignore[assignment]


class Discrete(_gs.Discrete, Space, _gym.Discrete):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.Discrete` that is a :class:`gymnasium.spaces.Discrete`.

    Examples
    --------
    >>> import gymnasium
    >>> import numpy as np
    >>> from gymspaces.gymnasium.spaces import Discrete
    >>> space = Discrete(5, seed=3)
    >>> isinstance(space, gymnasium.spaces.Discrete)
    True
    >>> mask = np.array([1, 0, 1, 0, 1], dtype=np.int8)
    >>> space.sample(mask=mask), gymnasium.spaces.Discrete(5, seed=3).sample(mask=mask)
    (np.int64(4), np.int64(4))
    >>> gymnasium.spaces.flatten(space, 1)
    array([0, 1, 0, 0, 0])
    """

    __eq__ = _equal(_gs.Discrete, _gym.Discrete)
    __hash__ = None  # type: ignore[assignment]


class MultiBinary(_gs.MultiBinary, Space, _gym.MultiBinary):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.MultiBinary` that is a :class:`gymnasium.spaces.MultiBinary`.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import MultiBinary
    >>> space = MultiBinary(4, seed=0)
    >>> isinstance(space, gymnasium.spaces.MultiBinary)
    True
    >>> space.sample(), gymnasium.spaces.MultiBinary(4, seed=0).sample()
    (array([0, 1, 1, 1], dtype=int8), array([0, 1, 1, 1], dtype=int8))
    >>> gymnasium.vector.utils.batch_space(space, 3)
    Box(0, 1, (3, 4), int8)
    """

    __eq__ = _equal(_gs.MultiBinary, _gym.MultiBinary)
    __hash__ = None  # type: ignore[assignment]


class MultiDiscrete(_gs.MultiDiscrete, Space, _gym.MultiDiscrete):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.MultiDiscrete` that is a :class:`gymnasium.spaces.MultiDiscrete`.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import MultiDiscrete
    >>> space = MultiDiscrete([2, 3], seed=0)
    >>> isinstance(space, gymnasium.spaces.MultiDiscrete)
    True
    >>> space.sample(), gymnasium.spaces.MultiDiscrete([2, 3], seed=0).sample()
    (array([1, 0]), array([1, 0]))
    >>> gymnasium.spaces.flatdim(space)
    5
    """

    __eq__ = _equal(_gs.MultiDiscrete, _gym.MultiDiscrete)
    __hash__ = None  # type: ignore[assignment]


class Text(_gs.Text, Space, _gym.Text):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.Text` that is a :class:`gymnasium.spaces.Text`.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import Text
    >>> space = Text(5, charset="abc", seed=0)
    >>> isinstance(space, gymnasium.spaces.Text)
    True
    >>> space.sample(), gymnasium.spaces.Text(5, charset="abc", seed=0).sample()
    ('aaacc', 'aaacc')
    >>> gymnasium.spaces.flatten(space, "cab")
    array([2, 0, 1, 3, 3], dtype=int32)
    """

    __eq__ = _equal(_gs.Text, _gym.Text)
    __hash__ = None  # type: ignore[assignment]


class Tuple(_gs.Tuple, Space, _gym.Tuple):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.Tuple` that is a :class:`gymnasium.spaces.Tuple`.

    Children are made compatible (see the module docstring).

    Examples
    --------
    Children from either library become compatible spaces:

    >>> import gymnasium
    >>> import gymspaces
    >>> from gymspaces.gymnasium.spaces import Discrete, Tuple
    >>> children = (Discrete(3), gymspaces.Box(0, 1, (2,)), gymnasium.spaces.MultiBinary(2))
    >>> space = Tuple(children, seed=0)
    >>> isinstance(space[1], gymnasium.spaces.Box), isinstance(space[2], gymspaces.MultiBinary)
    (True, True)
    >>> space.sample()
    (np.int64(1), array([0.82711583, 0.27574444], dtype=float32), array([0, 1], dtype=int8))
    >>> gymnasium.vector.utils.batch_space(space, 2)
    Tuple(MultiDiscrete([3 3]), Box(0.0, 1.0, (2, 2), float32), Box(0, 1, (2, 2), int8))
    """

    __eq__ = _equal(_gs.Tuple, _gym.Tuple)
    __hash__ = None  # type: ignore[assignment]


# A compatible OneOf exists only where Gymnasium has one (1.x): before, there is
# no Gymnasium class for it to be an instance of (gymspaces.OneOf remains).
if "OneOf" in SPACE_NAMES:

    class OneOf(_gs.OneOf, Space, _gym.OneOf):  # type: ignore[misc]  # see above: both libraries' declarations
        """:class:`gymspaces.OneOf` that is a :class:`gymnasium.spaces.OneOf`.

        Children are made compatible (see the module docstring).

        Examples
        --------
        >>> import gymnasium
        >>> import numpy as np
        >>> from gymspaces.gymnasium.spaces import Box, Discrete, OneOf
        >>> space = OneOf((Discrete(2), Box(-1, 1, (2,))), seed=0)
        >>> isinstance(space, gymnasium.spaces.OneOf)
        True
        >>> space.sample()
        (np.int64(1), array([ 0.65423167, -0.4485111 ], dtype=float32))
        >>> gymnasium.spaces.flatten(space, (np.int64(0), np.int64(1)))
        array([0., 0., 1.])
        """

        __eq__ = _equal(_gs.OneOf, _gym.OneOf)
        __hash__ = None  # type: ignore[assignment]


class Dict(_gs.Dict, Space, _gym.Dict):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.Dict` that is a :class:`gymnasium.spaces.Dict`.

    Children (also those set with ``space[key] = child``) are made compatible
    (see the module docstring).

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import Box, Dict, Discrete
    >>> space = Dict({"pos": Box(-1, 1, (2,)), "gear": Discrete(3)}, seed=0)
    >>> space.sample()
    {'gear': np.int64(1), 'pos': array([ 0.65423167, -0.4485111 ], dtype=float32)}
    >>> gymnasium.spaces.flatten_space(space)
    Box([ 0.  0.  0. -1. -1.], 1.0, (5,), float64)
    >>> space["brake"] = gymnasium.spaces.Discrete(2)
    >>> type(space["brake"])
    <class 'gymspaces.gymnasium.spaces.Discrete'>
    """

    __eq__ = _equal(_gs.Dict, _gym.Dict)
    __hash__ = None  # type: ignore[assignment]


class Sequence(_gs.Sequence, Space, _gym.Sequence):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.Sequence` that is a :class:`gymnasium.spaces.Sequence`.

    The feature space (and the stacked feature space) are made compatible; a
    custom Gymnasium feature space is kept, and stacked as Gymnasium stacks it.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import Box, Discrete, Sequence
    >>> space = Sequence(Discrete(4), seed=0)
    >>> space.sample()
    (np.int64(1), np.int64(2), np.int64(3))
    >>> gymnasium.spaces.flatten(space, (1, 3))
    (array([0, 1, 0, 0]), array([0, 0, 0, 1]))
    >>> stacked = Sequence(Box(0, 1, (2,)), stack=True, seed=0)
    >>> stacked.sample().shape, isinstance(stacked.stacked_feature_space, gymnasium.spaces.Box)
    ((3, 2), True)
    """

    __eq__ = _equal(_gs.Sequence, _gym.Sequence)
    __hash__ = None  # type: ignore[assignment]


class GraphInstance(_gs.GraphInstance, _gym.GraphInstance):  # type: ignore[misc]  # see above: both libraries' declarations
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


class Graph(_gs.Graph, Space, _gym.Graph):  # type: ignore[misc]  # see above: both libraries' declarations
    """:class:`gymspaces.Graph` that is a :class:`gymnasium.spaces.Graph`.

    Samples are :class:`GraphInstance` (an instance of both libraries'
    ``GraphInstance``); :meth:`contains` accepts either library's.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium.spaces import Box, Discrete, Graph
    >>> space = Graph(node_space=Box(0, 1, (2,)), edge_space=Discrete(3), seed=0)
    >>> isinstance(space, gymnasium.spaces.Graph)
    True
    >>> graph = space.sample(num_nodes=3, num_edges=2)
    >>> graph.nodes.shape, graph.edges, space.contains(graph)
    ((3, 2), array([2, 0]), True)
    >>> type(graph)
    <class 'gymspaces.gymnasium.spaces.GraphInstance'>
    """

    __eq__ = _equal(_gs.Graph, _gym.Graph)
    __hash__ = None  # type: ignore[assignment]


compatible_graphs = _calls.GraphInstances(_gs.GraphInstance, GraphInstance)
"""``compatible_graphs(value)``: ``value`` with every gymspaces ``GraphInstance`` in it made compatible."""


# Shown (reprs, pickles by reference) under their public module.
for _name in (*SPACE_NAMES, "Space", "GraphInstance"):
    globals()[_name].__module__ = "gymspaces.gymnasium.spaces"
del _name

_convert.add_family("compat", {name: globals()[name] for name in (*_convert.SPACE_NAMES, "Space", "GraphInstance")})
