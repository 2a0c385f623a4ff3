"""The :class:`Graph` space and its elements, :class:`GraphInstance`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray

from gymspaces import _batching, _box, _discrete, _graph, _rng
from gymspaces._warnings import warn
from gymspaces.box import Box
from gymspaces.discrete import Discrete
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.space import Space
from gymspaces._composite import SUBSEED_BOUND, chosen_kind

__all__ = ["Graph", "GraphInstance"]

_INT64_MAX = int(np.iinfo(np.int64).max)
# ``integers(0, num_nodes, dtype=int32)`` accepts ``num_nodes`` up to 2**31.
_MAX_LINK_NODES = 2**31


class GraphInstance(NamedTuple):
    """One element of a :class:`Graph` space.

    Attributes
    ----------
    nodes : array_like
        Features of the ``n`` nodes, stacked along the first axis.
    edges : array_like or None
        Features of the ``m`` edges, stacked along the first axis.
    edge_links : numpy.ndarray or None
        Integer array of shape ``(m, 2)``: the two node indices of each edge.

    Examples
    --------
    Three nodes with 2-D features and one edge (feature 2) from node 0 to node 2:

    >>> import numpy as np
    >>> from gymspaces import Box, Discrete, Graph, GraphInstance
    >>> graph = GraphInstance(nodes=np.zeros((3, 2), dtype=np.float32), edges=np.array([2]),
    ...                       edge_links=np.array([[0, 2]]))
    >>> graph.nodes.shape, graph.edge_links.tolist()
    ((3, 2), [[0, 2]])
    >>> graph in Graph(node_space=Box(0, 1, shape=(2,)), edge_space=Discrete(3))
    True
    """

    nodes: Any
    edges: Any | None
    edge_links: NDArray[Any] | None


class Graph(Space[GraphInstance]):
    """Graphs with feature vectors on their nodes and (optionally) edges.

    Parameters
    ----------
    node_space : Space
        Space of one node's features.
    edge_space : Space or None
        Space of one edge's features; ``None`` for graphs without edges.
    seed : int, tuple of seeds, numpy.random.Generator or None
        An ``int`` seeds the Graph's generator, which also draws the seeds of
        the node and edge spaces; a tuple ``(graph, node[, edge])`` seeds each.

    Examples
    --------
    >>> from gymspaces import Box, Discrete, Graph
    >>> space = Graph(node_space=Box(low=-100, high=100, shape=(3,)), edge_space=Discrete(3), seed=123)
    >>> graph = space.sample(num_nodes=4, num_edges=8)
    >>> graph.nodes.shape, graph.edges.shape, graph.edge_links.shape
    ((4, 3), (8,), (8, 2))
    >>> graph in space
    True
    """

    node_space: Space[Any]
    edge_space: Space[Any] | None
    batch_node_space: Space[Any]
    batch_edge_space: Space[Any] | None

    def __init__(
        self,
        node_space: Space[Any],
        edge_space: Space[Any] | None,
        seed: int | tuple[Any, ...] | np.random.Generator | None = None,
    ) -> None:
        self.node_space, self.edge_space = node_space, edge_space
        batch = _batching.batch_space
        # Building these reads (and may lazily seed) the children's generators;
        # a non-Space child raises batch_space's TypeError here.
        self.batch_node_space = batch(node_space, n=1)
        self.batch_edge_space = None if edge_space is None else batch(edge_space, n=1)
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> Literal[False]:
        """Graphs have no fixed size, so they never flatten to a Box.

        Examples
        --------
        >>> from gymspaces import Box, Discrete, Graph
        >>> Graph(Box(0, 1, shape=(2,)), Discrete(3)).is_np_flattenable
        False
        """
        return False

    def _children(self) -> list[Space[Any]]:
        """The node space, then the edge space if there is one."""
        if self.edge_space is None:
            return [self.node_space]
        return [self.node_space, self.edge_space]

    def seed(self, seed: int | tuple[Any, ...] | list[Any] | None = None) -> tuple[Any, ...]:
        """Seed the Graph, node and edge generators; return their seeds.

        ``None`` reseeds all of them from OS entropy. An ``int`` seeds the
        Graph, draws the node (and edge) seeds from it, then reseeds the Graph
        with the same ``int``. A tuple ``(graph, node)`` -- or
        ``(graph, node, edge)`` when there is an edge space -- seeds each one.

        Raises
        ------
        ValueError
            If a list/tuple of seeds has the wrong length.
        TypeError
            For any other seed type.

        Examples
        --------
        An ``int`` returns ``(int, node seed, edge seed)``; reseeding replays
        the same graphs:

        >>> from gymspaces import Discrete, Graph
        >>> space = Graph(node_space=Discrete(5), edge_space=Discrete(3))
        >>> space.seed(5)
        (5, 1440510675, 1728730614)
        >>> space.sample(num_nodes=3, num_edges=2)
        GraphInstance(nodes=array([3, 1, 2]), edges=array([1, 0]), edge_links=array([[2, 2],
               [0, 2]], dtype=int32))
        >>> _ = space.seed(5)
        >>> space.sample(num_nodes=3, num_edges=2).nodes
        array([3, 1, 2])
        >>> space.seed((1, 2, 3))  # (graph seed, node seed, edge seed)
        (1, 2, 3)
        >>> Graph(node_space=Discrete(5), edge_space=None).seed((1, 2))  # no edge space
        (1, 2)
        """
        children = self._children()
        if seed is None:
            own = Space.seed(self, None)
            return (own, *[child.seed(None) for child in children])
        if isinstance(seed, int):
            own = Space.seed(self, seed)
            if len(children) == 1:
                drawn = [self.np_random.integers(SUBSEED_BOUND)]  # a single draw, no size
            else:
                drawn = list(self.np_random.integers(SUBSEED_BOUND, size=(2,)))
            Space.seed(self, seed)  # back to the state a direct int seed gives
            return (own, *[child.seed(int(value)) for child, value in zip(children, drawn)])
        if not isinstance(seed, (list, tuple)):
            raise TypeError(f"Expects `None`, int or tuple of ints, actual type: {type(seed)}")
        if len(seed) != len(children) + 1:
            if len(children) == 1:
                raise ValueError(
                    "Expects a tuple of two values for Graph and node space, "
                    f"actual length: {len(seed)}"
                )
            raise ValueError(
                "Expects a tuple of three values for Graph, node and edge space, "
                f"actual length: {len(seed)}"
            )
        own = Space.seed(self, seed[0])
        return (own, *[child.seed(value) for child, value in zip(children, seed[1:])])

    def sample(
        self,
        mask: tuple[Any, Any] | None = None,
        probability: tuple[Any, Any] | None = None,
        num_nodes: int = 10,
        num_edges: int | None = None,
    ) -> GraphInstance:
        """Draw a graph with ``num_nodes`` nodes.

        Parameters
        ----------
        mask, probability : tuple (node_mask, edge_mask), optional
            Passed to the batched node space (and edge space) samples, i.e.
            ``batch_space(node_space, num_nodes).sample(mask=node_mask)``: for
            a Discrete node space, a tuple of one mask per node. When
            ``num_edges`` is drawn, the edge entry is one edge's mask, repeated
            once per edge; when ``num_edges`` is given, it must already be the
            batched edge mask (:quirk:`Q6`).
        num_nodes : int
            Number of nodes, at least 1.
        num_edges : int, optional
            Number of edges; by default drawn uniformly in
            ``[0, num_nodes * (num_nodes - 1))`` (0 for a single node), from the
            Graph's generator even without an edge space (:quirk:`Q5`).

        Notes
        -----
        As in Gymnasium, node (and edge) features come from a copy of the node
        (edge) space's generator, and the original is then advanced by one
        ``random()`` call, so consecutive samples overlap (:quirk:`Q4`).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box, Discrete, Graph
        >>> space = Graph(node_space=Box(0, 1, shape=(2,)), edge_space=Discrete(3), seed=0)
        >>> graph = space.sample(num_nodes=3, num_edges=2)
        >>> graph.nodes.shape, graph.edges, graph.edge_links
        ((3, 2), array([2, 0]), array([[2, 1],
               [1, 0]], dtype=int32))

        Masks: nodes 3 or 4 (one mask per node), every edge feature 2 (one
        mask, repeated for the drawn number of edges):

        >>> space = Graph(node_space=Discrete(5), edge_space=Discrete(3), seed=0)
        >>> node_mask = (np.array([0, 0, 0, 1, 1], dtype=np.int8),) * 3
        >>> graph = space.sample(mask=(node_mask, np.array([0, 0, 1], dtype=np.int8)), num_nodes=3)
        >>> graph.nodes, graph.edges
        (array([3, 4, 4]), array([2, 2, 2, 2, 2]))
        """
        return sample_graph(self, mask, probability, num_nodes, num_edges, GraphInstance)

    def _draw_num_edges(self, num_nodes: Any) -> int:
        """``integers(num_nodes * (num_nodes - 1))`` on the Graph's generator, as an int."""
        high = num_nodes * (num_nodes - 1)
        if type(high) in (int, np.int64) and 1 <= high <= _INT64_MAX:
            return _graph.integers_below(self, int(high))
        # Unusual types or sizes: let numpy raise exactly what Gymnasium raises.
        return int(self.np_random.integers(high))

    def _draw_edge_links(self, num_nodes: Any, num_edges: Any) -> NDArray[np.int32]:
        """``integers(0, num_nodes, size=(num_edges, 2), dtype=int32)`` on the Graph's generator."""
        if (
            isinstance(num_nodes, (int, np.integer))
            and isinstance(num_edges, (int, np.integer))
            and not isinstance(num_nodes, bool)
            and 1 <= num_nodes <= _MAX_LINK_NODES
            and 0 <= num_edges <= _INT64_MAX // 2
        ):
            return _graph.graph_edge_links(self, int(num_nodes), int(num_edges))
        return self.np_random.integers(0, num_nodes, size=(num_edges, 2), dtype=np.int32)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a :class:`GraphInstance` of valid nodes, edges and links.

        Edges and links must both be given (with an edge space, integer links of
        shape ``(num_edges, 2)`` within ``[0, num_nodes)``) or both be ``None``.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, Graph, GraphInstance
        >>> space = Graph(node_space=Discrete(5), edge_space=Discrete(3))
        >>> nodes, edges = np.array([0, 4]), np.array([2])
        >>> space.contains(GraphInstance(nodes, edges, np.array([[0, 1]])))
        True
        >>> space.contains(GraphInstance(nodes, edges, np.array([[0, 2]])))  # there is no node 2
        False
        >>> space.contains(GraphInstance(nodes, None, None))  # no edges at all
        True
        """
        if not isinstance(x, GraphInstance) or x.nodes is None:
            return False
        nodes = list(_batching.iterate(self.batch_node_space, x.nodes))
        if not all(node in self.node_space for node in nodes):
            return False
        if x.edges is None or x.edge_links is None:
            return x.edges is None and x.edge_links is None  # both or neither
        links = x.edge_links
        if self.edge_space is None or not isinstance(links, np.ndarray):
            return False
        edges = list(_batching.iterate(cast("Space[Any]", self.batch_edge_space), x.edges))
        if not all(edge in self.edge_space for edge in edges):
            return False
        if not np.issubdtype(links.dtype, np.integer) or links.shape != (len(edges), 2):
            return False
        return bool(np.all((links >= 0) & (links < len(nodes))))

    def __repr__(self) -> str:
        node, edge = self.node_space, self.edge_space
        return f"Graph({node}, {edge})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return False
        return self.node_space == other.node_space and self.edge_space == other.edge_space

    def to_jsonable(self, sample_n: Iterable[GraphInstance]) -> list[dict[str, Any]]:
        """Each graph as a dict of ``nodes`` (plus ``edges`` and ``edge_links`` if present).

        Node and edge features are wrapped in one more list (a batch of one).

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Discrete, Graph, GraphInstance
        >>> space = Graph(node_space=Discrete(5), edge_space=Discrete(3))
        >>> graphs = [GraphInstance(np.array([0, 4]), np.array([2]), np.array([[0, 1]])),
        ...           GraphInstance(np.array([3]), None, None)]
        >>> space.to_jsonable(graphs)
        [{'nodes': [[0, 4]], 'edges': [[2]], 'edge_links': [[0, 1]]}, {'nodes': [[3]]}]
        """
        return [self._graph_to_jsonable(graph) for graph in sample_n]

    def _graph_to_jsonable(self, graph: GraphInstance) -> dict[str, Any]:
        entry = {"nodes": self.batch_node_space.to_jsonable([graph.nodes])}
        if graph.edges is None or graph.edge_links is None:
            return entry
        # Without an edge space this raises AttributeError, exactly as Gymnasium does.
        entry["edges"] = self.batch_edge_space.to_jsonable([graph.edges])  # type: ignore[union-attr]
        entry["edge_links"] = graph.edge_links.tolist()
        return entry

    def from_jsonable(self, sample_n: Sequence[dict[str, Any]]) -> list[GraphInstance]:
        """Inverse of :meth:`to_jsonable` (links come back as int32 arrays).

        Examples
        --------
        >>> from gymspaces import Discrete, Graph
        >>> space = Graph(node_space=Discrete(5), edge_space=Discrete(3))
        >>> space.from_jsonable([{"nodes": [[0, 4]], "edges": [[2]], "edge_links": [[0, 1]]}])
        [GraphInstance(nodes=array([0, 4]), edges=array([2]),
                       edge_links=array([[0, 1]], dtype=int32))]
        """
        return [self._graph_from_jsonable(entry) for entry in sample_n]

    def _graph_from_jsonable(self, entry: dict[str, Any]) -> GraphInstance:
        # Gymnasium's order: ``"edges" in entry`` (TypeError for a non-container),
        # the edge-space assertion, then the nodes.
        if "edges" not in entry:
            return GraphInstance(self.batch_node_space.from_jsonable(entry["nodes"])[0], None, None)
        assert self.edge_space is not None  # edges need an edge space
        nodes = self.batch_node_space.from_jsonable(entry["nodes"])[0]
        # (batch_edge_space is set together with edge_space; only edge_space is checked, as in Gymnasium.)
        edges = self.batch_edge_space.from_jsonable(entry["edges"])[0]  # type: ignore[union-attr]
        return GraphInstance(nodes, edges, np.asarray(entry["edge_links"], dtype=np.int32))


# ---------------------------------------------------------------------------
# Sampling node / edge features "through a copy" of the child's generator.
#
# Gymnasium builds ``batch_space(child, n)`` -- whose generator is a deep copy
# of the child's -- samples it, then calls ``child.np_random.random()``. The
# general path does exactly that. For the four fundamental spaces the batched
# space is assembled here with a throw-away copy of the generator instead of a
# deep copy (the dominant cost): the draws are the same, and the child's own
# generator is only advanced by the final ``random()``.
# ---------------------------------------------------------------------------


def _assembled_box(space: Space[Any], low: Any, high: Any, n: int) -> Box | None:
    """The Box ``Box(tile(low), tile(high), dtype=low.dtype)`` sampling from a copy of
    ``space``'s generator, assembled without the constructor (``None``: use it)."""
    bounds = _graph.box_batch_bounds(low, high, n)
    if bounds is None:
        return None  # float16, NaN bounds edited in, ...: the general path
    low, high, below, above = bounds
    batched = Box.__new__(Box)
    batched.__dict__.update(
        _shape=low.shape,
        dtype=low.dtype,
        low=low,
        high=high,
        # Boundedness follows the tiled values, as in the constructor, so signed
        # integer boxes built with infinite bounds become bounded (quirk Q12, docs/quirks.md).
        bounded_below=below,
        bounded_above=above,
        low_repr=None,
        high_repr=None,
        _np_random=_batching.throwaway_copy(space.np_random),
    )
    return batched


def _batched_box(space: Box, n: int) -> Box | None:
    """``batch_space(Box, n)``: the same bounds, tiled."""
    if space.low.dtype != space.dtype or space.high.dtype != space.dtype:
        return None
    return _assembled_box(space, space.low, space.high, n)


def _batched_multi_discrete(space: MultiDiscrete, n: int) -> Box | None:
    """``batch_space(MultiDiscrete, n)``: a Box from ``start`` to ``start + nvec - 1``."""
    start, nvec = space.start, space.nvec
    if not (start.dtype == nvec.dtype == space.dtype and start.shape == nvec.shape):
        return None
    # Elementwise, so the same values (wrap-around included) as on the tiled arrays.
    last = start + nvec - 1
    if (start > last).any():
        return None  # the constructor rejects it
    return _assembled_box(space, start, last, n)


def _batched_multi_binary(space: MultiBinary, n: int) -> Box | None:
    """``batch_space(MultiBinary, n)``: an int8 Box of zeros and ones."""
    shape = tuple(space.shape)
    return _assembled_box(space, np.zeros(shape, np.int8), np.ones(shape, np.int8), n)


def _batched_discrete(space: Discrete, n: int) -> MultiDiscrete | None:
    """``batch_space(Discrete, n)`` without the MultiDiscrete constructor (``None``: use it)."""
    if not space.n > 0:
        return None  # ``n`` edited to a bad value: the constructor raises Gymnasium's error
    dtype = np.dtype(space.dtype)
    nvec = np.empty((n,), dtype=dtype)
    nvec.fill(space.n)  # np.full's unsafe-cast fill without its Python overhead
    generator = _batching.throwaway_copy(space.np_random)
    start = np.empty((n,), dtype=dtype)
    start.fill(space.start)
    batched = MultiDiscrete.__new__(MultiDiscrete)
    batched.__dict__.update(
        _shape=nvec.shape, dtype=dtype, nvec=nvec, start=start, _np_random=generator
    )
    return batched


# type -> direct builder of the batched space its built-in batch_space rule builds
_DIRECT_BATCHERS: dict[type, Callable[..., Space[Any] | None]] = {
    Box: _batched_box,
    Discrete: _batched_discrete,
    MultiDiscrete: _batched_multi_discrete,
    MultiBinary: _batched_multi_binary,
}


def _box_detached(space: Box, n: int) -> Any:
    """``batch_space(Box, n).sample()`` from a private copy of the generator, or ``None``."""
    if space.low.dtype != space.dtype or space.high.dtype != space.dtype:
        return None
    bounds = _graph.box_batch_bounds(space.low, space.high, n)
    if bounds is None:
        return None
    return _box.box_sample_detached(space, *bounds)


# type -> sampler of ``batch_space(space, n).sample()`` that builds no space and
# copies no Generator (``None`` when it cannot: then build the batched space).
_DETACHED_SAMPLERS: dict[type, Callable[[Any, int], Any]] = {
    Box: _box_detached,
    Discrete: _discrete.discrete_batch_sample_detached,
}


def sample_graph(
    space: Any,
    mask: Any,
    probability: Any,
    num_nodes: Any,
    num_edges: Any,
    make: Callable[..., Any],
    batch_as: tuple[type | None, type | None] = (None, None),
) -> Any:
    """``Graph.sample`` of ``space``, the graph made by ``make(nodes, edges, links)``
    (a GraphInstance class: gymspaces', or the one of the library ``space`` is
    from). ``batch_as``: for the node and the edge space, the gymspaces class
    the caller vouches each batches as (see ``_sample_through_copy``)."""
    assert num_nodes > 0, (
        "The number of nodes is expected to be greater than 0, "
        f"actual value: {num_nodes}"
    )
    kind: str | None = None
    node_mask = edge_mask = None
    if mask is not None or probability is not None:
        kind, pair = chosen_kind(mask, probability)
        node_mask, edge_mask = pair

    if num_edges is not None:
        if space.edge_space is None:
            # (From Graph.sample's caller, as when this was that method's body.)
            warn(f"The number of edges is set ({num_edges}) but the edge space is None.", stacklevel=3)
        assert num_edges >= 0, (
            "Expects the number of edges to be greater than 0, "
            f"actual value: {num_edges}"
        )
        # An explicit edge count leaves the edge mask as given (quirk Q6, docs/quirks.md).
    else:
        # Helpers are called through Graph, not looked up on ``space``: patch
        # mode runs this on Gymnasium's Graph, from which another thread's
        # unpatch() may remove them while this call runs.
        num_edges = Graph._draw_num_edges(space, num_nodes) if num_nodes > 1 else 0
        if edge_mask is not None:
            edge_mask = tuple([edge_mask] * num_edges)

    nodes = _sample_through_copy(
        space.node_space, num_nodes, {} if kind is None else {kind: node_mask}, batch_as[0]
    )
    edges = links = None
    if num_nodes >= 1 and num_edges >= 1 and space.edge_space is not None:
        edges = _sample_through_copy(
            space.edge_space, num_edges, {} if kind is None else {kind: edge_mask}, batch_as[1]
        )
        if edges is not None:  # a custom batched edge space may sample None
            links = Graph._draw_edge_links(space, num_nodes, num_edges)
    return make(nodes, edges, links)


@functools.lru_cache(maxsize=256)
def _direct_base(cls: Any) -> type | None:
    """The nearest class in ``cls``'s MRO that has a direct batcher, or None
    (the last 256 classes asked are remembered, and kept alive: it is looked
    up on every graph sample of another library's space)."""
    return next((base for base in cls.__mro__ if base in _DIRECT_BATCHERS), None)


def _sample_through_copy(space: Space[Any], n: Any, kwargs: dict[str, Any], vouched: type | None = None) -> Any:
    """``batch_space(space, n).sample(**kwargs)``, then one ``random()`` on ``space``'s generator.

    ``vouched``: a class of ``_DIRECT_BATCHERS`` the caller vouches ``space``
    batches as, without masks (patch mode, for Gymnasium's class whose own
    ``batch_space`` rule builds that class's batch).
    """
    batched = None
    rule: Any = None
    kind: type | None = vouched
    if vouched not in _DIRECT_BATCHERS or kwargs:
        vouched = None
        # Subclasses (e.g. gymspaces.gymnasium's classes) batch like their base:
        # batch_space builds the base class, whatever the subclass overrides.
        kind = type(space)
        if kind not in _DIRECT_BATCHERS:
            kind = _direct_base(cast(Any, type(space)))  # (mypy sees type[Space] as unhashable)
        rule = _batching.batch_space.dispatch(type(space))
    if kind is not None and (type(n) is int or isinstance(n, np.integer)) and n >= 1:
        build = _DIRECT_BATCHERS[kind]
        # Users may register their own batch_space for these types: respect it.
        if vouched is not None or rule is _batching.BUILT_IN_BATCH_SPACE.get(kind):
            detached = _DETACHED_SAMPLERS.get(kind) if not kwargs else None
            result = None if detached is None else detached(space, int(n))
            if result is not None:
                _rng.advance_by_one_double(space)
                return result
            batched = build(space, n)
    if batched is None:
        batched = _batching.batch_space(space, n)
    result = batched.sample(**kwargs)
    # Gymnasium's space.np_random.random(): one double drawn and dropped.
    _rng.advance_by_one_double(space)
    return result
