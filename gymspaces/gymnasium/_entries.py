"""The ``sample`` and ``contains`` that patch mode installs on Gymnasium's classes,
and the rules it registers with Gymnasium's helpers: built from the table's rows.

Each is a thin function with the signature of the Gymnasium method it
replaces, made by one of the compiled bodies of :mod:`._calls` from the
operation's row (:mod:`._operations`), gymspaces' method or helper, and
Gymnasium's own code. Nothing else is installed on Gymnasium's classes:
gymspaces' methods are called as functions on the Gymnasium instance, and
the kernels keep their caches beside it, not in it. What is here is what
the rows cannot say: Graph's sample and contains take Gymnasium's
``GraphInstance``, and a release whose ``sample`` takes no ``probability``
(0.29, 1.0) gets entries of its signature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium.spaces as _gym
import gymnasium.vector.utils as gym_vector

import gymspaces as _gs
from gymspaces import _batching, _batching_rules
from gymspaces.graph import sample_graph
from gymspaces.gymnasium import _calls, _guard
from gymspaces.gymnasium._calls import Live
from gymspaces.gymnasium._operations import OPERATIONS
from gymspaces.gymnasium._release import SAMPLE_TAKES_PROBABILITY

__all__ = ["Live", "helper_rule", "make_entries"]


def _batches_as_in(gymnasium_helper: Any) -> Any:
    """``batches_as(cls)``: the gymspaces class whose built-in rule gives what
    Gymnasium's ``gymnasium_helper`` gives for ``cls`` (Gymnasium's own rule,
    on a Gymnasium class or a subclass of one), or None.

    Gymnasium's own rules are the ones its modules registered; a rule a user
    registered for the class (or a nearer base) is not.
    """
    registry = gymnasium_helper.registry
    gymnasium_rules = {
        cls: rule for cls, rule in registry.items() if (getattr(rule, "__module__", None) or "").startswith("gymnasium.")
    }
    gymspaces_of = {theirs: getattr(_gs, name) for theirs, name in _guard.GYMNASIUM_CLASSES.items()}

    def batches_as(cls: type) -> type | None:
        base = gymspaces_of.get(cls)
        if base is not None:  # Gymnasium's own class: its registered rule decides
            rule = gymnasium_rules.get(cls)
            return base if rule is not None and registry.get(cls) is rule else None
        base = next((gymspaces_of[klass] for klass in cls.__mro__ if klass in gymspaces_of), None)
        theirs = getattr(_gym, base.__name__, None) if base is not None else None
        if theirs is None or gymnasium_rules.get(theirs) is None:
            return None
        return base if gymnasium_helper.dispatch(cls) is gymnasium_rules[theirs] else None

    return batches_as


# How Gymnasium's batch_space batches a class (its own rule: as the gymspaces
# equivalent), for Graph.sample's children.
_batches_as = _batches_as_in(gym_vector.batch_space)


def _graph_sample(space: Any, mask: Any, num_nodes: int, num_edges: int | None) -> Any:
    """gymspaces' Graph sample of Gymnasium's Graph ``space``, as Gymnasium's ``GraphInstance``."""
    if mask is None:  # Gymnasium's batch_space rule of each child decides how it batches
        namespace = vars(space)
        edge = namespace.get("edge_space")
        batch_as = (_batches_as(type(namespace.get("node_space"))), None if edge is None else _batches_as(type(edge)))
        return sample_graph(space, None, None, num_nodes, num_edges, _gym.GraphInstance, batch_as)
    return sample_graph(space, mask, None, num_nodes, num_edges, _gym.GraphInstance)


def _graph_contains(compiled: Callable[..., Any]) -> Callable[..., Any]:
    def contains(self: Any, x: Any) -> bool:
        # Gymnasium accepts only its own GraphInstance (gymspaces' is another class).
        if not isinstance(x, _gym.GraphInstance):
            return False
        return bool(compiled(self, _gs.GraphInstance(*x)))

    return contains


def _as_current_sample(original: Callable[..., Any]) -> Callable[..., Any]:
    """Gymnasium's ``original`` sample called as the entries call it: ``(self, mask,
    probability[, num_nodes, num_edges])``. A release whose ``sample`` takes no
    ``probability`` (0.29) gets the call without it, and, given one, the
    ``TypeError`` it raises itself."""
    if SAMPLE_TAKES_PROBABILITY:
        return original

    def sample(self: Any, mask: Any, probability: Any, *graph_arguments: Any) -> Any:
        if probability is None:
            return original(self, mask, *graph_arguments)
        return original(self, mask, *graph_arguments, probability=probability)

    return sample


def _without_probability(entry: Callable[..., Any], graph: bool) -> Callable[..., Any]:
    """``entry`` with the signature of a release whose ``sample`` takes no ``probability``
    (0.29, 1.0): Python itself then refuses one, in that release's words."""
    if graph:

        def graph_sample(self: Any, mask: Any = None, num_nodes: int = 10, num_edges: int | None = None) -> Any:
            return entry(self, mask, None, num_nodes, num_edges)

        return graph_sample

    def sample(self: Any, mask: Any = None) -> Any:
        return entry(self, mask, None)

    return sample


def make_entries(name: str, live: Live) -> dict[str, Any]:
    """``sample`` and ``contains`` for Gymnasium's class ``name``, from their rows, bound to ``live``."""
    ours, theirs = getattr(_gs, name), getattr(_gym, name)
    original_sample, original_contains = theirs.__dict__["sample"], theirs.__dict__["contains"]
    plain_sample = _as_current_sample(original_sample)
    sample_row, contains_row = OPERATIONS[name, "sample"], OPERATIONS[name, "contains"]
    if name == "Graph":
        sample = _calls.graph_sample_entry(sample_row, _graph_sample, plain_sample, live)
        contains = _calls.method_entry(contains_row, _graph_contains(ours.contains), original_contains, live)
    else:
        sample = _calls.method_entry(sample_row, ours.sample, plain_sample, live)
        contains = _calls.method_entry(contains_row, ours.contains, original_contains, live)
    if not SAMPLE_TAKES_PROBABILITY:
        sample = _without_probability(sample, graph=name == "Graph")
    for entry, original in ((sample, original_sample), (contains, original_contains)):
        entry.__name__ = original.__name__
        entry.__qualname__ = original.__qualname__
        entry.__doc__ = original.__doc__
        entry.__module__ = __name__
    return {"sample": sample, "contains": contains}


def helper_rule(operation: _calls.Operation, helper: Callable[..., Any], live: Live, originals: dict[type, Any]) -> Any:
    """gymspaces' ``helper`` as the rule of ``operation``'s row with Gymnasium's
    dispatcher of that name: compiled when the row proves the call, and
    Gymnasium's own rule (``originals``, by class) otherwise."""
    # gymspaces' own concatenate rules' fallbacks, (array leaf, tree), for the checked kernel.
    rule = _calls.helper_rule(operation, helper, live, originals, (_batching_rules.stack_items, _batching.concatenate))
    rule.__name__ = rule.__qualname__ = f"{operation.name}_compiled"
    rule.__doc__ = helper.__doc__
    rule.__wrapped__ = helper  # type: ignore[attr-defined]
    return rule
