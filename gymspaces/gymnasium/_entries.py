"""The ``sample`` and ``contains`` that patch mode installs on Gymnasium's classes,
and the rules it registers with Gymnasium's helpers.

Each is a thin function with the signature of the Gymnasium method it
replaces, compiled (:mod:`._calls`) from what this module hands it: it runs
gymspaces' compiled method when :mod:`._guard` proves the outcome is
Gymnasium's, and Gymnasium's own method otherwise; gymspaces' exceptions
leave it as the Gymnasium class of the same name and message. Nothing else
is installed on Gymnasium's classes: gymspaces' methods are called as
functions on the Gymnasium instance, and the kernels keep their caches
beside it, not in it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium.error as _gym_error
import gymnasium.spaces as _gym
import gymnasium.vector.utils as gym_vector
import numpy as np

import gymspaces as _gs
import gymspaces.error as _gs_error
from gymspaces import _batching, _batching_rules
from gymspaces.graph import sample_graph
from gymspaces.gymnasium import _calls, _guard, _judge, _release_rules
from gymspaces.gymnasium._calls import Live
from gymspaces.gymnasium._release import SAMPLE_TAKES_PROBABILITY

__all__ = ["GYMSPACES_ERRORS", "POLICIES", "Live", "Policy", "gymnasium_error", "helper_rule", "make_entries"]

_OPTIMIZED = bool(sys.flags.optimize)  # under python -O Gymnasium skips its asserts


def _uint64_dtype(space: Any) -> bool:
    return vars(space)["dtype"] == np.uint64


_ERRORS: dict[type, type] = {
    _gs_error.Error: _gym_error.Error,
    _gs_error.CustomSpaceError: _gym_error.CustomSpaceError,
}


GYMSPACES_ERRORS: tuple[type[Exception], ...] = (_gs_error.Error, _gs_error.CustomSpaceError)
"""gymspaces' exceptions that have a Gymnasium namesake (``except GYMSPACES_ERRORS``)."""


def gymnasium_error(error: BaseException) -> BaseException:
    """Gymnasium's exception for gymspaces' ``error``: the class of the same name
    (``Error``, ``CustomSpaceError``) with the same arguments; others as they are."""
    theirs = _ERRORS.get(type(error))
    if theirs is None:
        return error
    replacement = theirs(*error.args)
    replacement.__traceback__ = error.__traceback__
    if error.__cause__ is not None:  # ``raise ... from``: Gymnasium's chains the same cause
        replacement.__cause__ = error.__cause__
    return replacement


# Failures of compiled calls leave as Gymnasium's exceptions.
FAILURES = _calls.Failures(GYMSPACES_ERRORS, gymnasium_error)


class Policy:
    """How the entries of one Gymnasium class decide (one row of :data:`POLICIES`).

    A plain class: a ``NamedTuple`` or frozen dataclass cost 0.1-0.4 ms more
    to create, at every import.

    Attributes
    ----------
    kind : int
        How ``sample``'s masks and probabilities run (``_calls.FUNDAMENTAL``,
        ``BOX``, ``COMPOSITE``). A fundamental space validates its arguments
        before it draws, so a call it refuses can run again as Gymnasium's, on
        releases that word errors otherwise.
    masked_in_floats : callable or None
        Spaces whose masked draws go through float64 sums numpy may warn about
        casting back.
    whole_tree : bool
        ``sample`` reads the children's attributes directly: the whole tree
        must be provable.
    arrays_only : bool
        ``contains`` casts other inputs with numpy (and may warn): only arrays
        run compiled.
    """

    __slots__ = ("kind", "masked_in_floats", "whole_tree", "arrays_only")

    def __init__(
        self,
        kind: int,
        masked_in_floats: Callable[[Any], bool] | None = None,
        whole_tree: bool = False,
        arrays_only: bool = False,
    ) -> None:
        self.kind = kind
        self.masked_in_floats = masked_in_floats
        self.whole_tree = whole_tree
        self.arrays_only = arrays_only


POLICIES: dict[str, Policy] = {
    # Box: any mask or probability is an error Gymnasium raises itself; contains
    # casts with numpy and warns through Gymnasium's logger.
    "Box": Policy(_calls.BOX, arrays_only=True),
    "Discrete": Policy(_calls.FUNDAMENTAL),
    "MultiBinary": Policy(_calls.FUNDAMENTAL),
    # A uint64 MultiDiscrete's masked draws are int64 indices added to uint64
    # starts: float64 sums, whose cast back numpy may warn about (from Gymnasium's line).
    "MultiDiscrete": Policy(_calls.FUNDAMENTAL, masked_in_floats=_uint64_dtype, arrays_only=True),
    "Text": Policy(_calls.FUNDAMENTAL),
    "Tuple": Policy(_calls.COMPOSITE),
    "Dict": Policy(_calls.COMPOSITE),
    # Sequence draws a stacked sample through the batching rules, which read the
    # feature space's attributes directly.
    "Sequence": Policy(_calls.COMPOSITE, whole_tree=True),
    # Graph has entries of its own (_graph_sample_entry, _graph_contains).
    "Graph": Policy(_calls.COMPOSITE),
    "OneOf": Policy(_calls.COMPOSITE),
}
"""The per-class policy of patch mode's entries, by Gymnasium class name."""


def _sample_entry(
    name: str, compiled: Callable[..., Any], original: Callable[..., Any], live: Live, judge: _judge.Judge
) -> Any:
    policy = POLICIES[name]
    return _calls.sample_entry(
        name, policy.kind, compiled, original, live, judge, FAILURES,
        masked_in_floats=policy.masked_in_floats,
        # Masks and probabilities the installed release takes otherwise (None: as 1.4.0).
        release_proven=_release_rules.sample_arguments(composite=policy.kind == _calls.COMPOSITE),
        rerun=_release_rules.RERUN_ON_ERROR and policy.kind == _calls.FUNDAMENTAL,
        whole_tree=_guard.tree_reason if policy.whole_tree else None,
    )


def _batches_as_in(gymnasium_helper: Any) -> Any:
    """``batches_as(cls)``: the gymspaces class whose built-in rule gives what
    Gymnasium's ``gymnasium_helper`` gives for ``cls`` (Gymnasium's own rule,
    on a Gymnasium class or a subclass of one), or None.

    Gymnasium's own rules are the ones its modules registered; a rule a user
    registered for the class (or a nearer base) is not.
    """
    registry = gymnasium_helper.registry
    own_rules = {
        cls: rule for cls, rule in registry.items() if (getattr(rule, "__module__", None) or "").startswith("gymnasium.")
    }
    gymspaces_of = {theirs: getattr(_gs, name) for theirs, name in _guard.GYMNASIUM_CLASSES.items()}

    def batches_as(cls: type) -> type | None:
        base = gymspaces_of.get(cls)
        if base is not None:  # Gymnasium's own class: its registered rule decides
            rule = own_rules.get(cls)
            return base if rule is not None and registry.get(cls) is rule else None
        base = next((gymspaces_of[klass] for klass in cls.__mro__ if klass in gymspaces_of), None)
        theirs = getattr(_gym, base.__name__, None) if base is not None else None
        if theirs is None or own_rules.get(theirs) is None:
            return None
        return base if gymnasium_helper.dispatch(cls) is own_rules[theirs] else None

    return batches_as


# How Gymnasium's batch_space batches a class (its own rule: as the gymspaces
# equivalent), for Graph.sample's children.
_batches_as = _batches_as_in(gym_vector.batch_space)


def _graph_sample_entry(original: Callable[..., Any], live: Live) -> Any:
    """Graph's ``sample``: its graphs are Gymnasium's ``GraphInstance``."""
    def sample(
        self: Any, mask: Any = None, probability: Any = None, num_nodes: int = 10, num_edges: int | None = None
    ) -> Any:
        # Gymnasium warns (through its logger) when edges are asked of a graph
        # without an edge space, and numpy warns on some probability inputs:
        # both run Gymnasium's own code.
        if (
            live.on
            and probability is None
            and not (num_edges is not None and vars(self).get("edge_space") is None)
            and not (_OPTIMIZED and mask is not None)
            and _guard.tree_reason(self) is None
        ):
            try:
                if mask is None:  # Gymnasium's batch_space rule of each child decides how it batches
                    namespace = vars(self)
                    edge = namespace.get("edge_space")
                    batch_as = (
                        _batches_as(type(namespace.get("node_space"))),
                        None if edge is None else _batches_as(type(edge)),
                    )
                    return sample_graph(self, None, None, num_nodes, num_edges, _gym.GraphInstance, batch_as)
                return sample_graph(self, mask, probability, num_nodes, num_edges, _gym.GraphInstance)
            except GYMSPACES_ERRORS as error:
                failure = error
            raise gymnasium_error(failure)
        if live.note_plain is not None:
            live.note_plain("Graph.sample", self)
        return original(self, mask, probability, num_nodes, num_edges)

    return sample


def _contains_entry(
    name: str, compiled: Callable[..., Any], original: Callable[..., Any], live: Live, judge: _judge.Judge
) -> Any:
    return _calls.contains_entry(
        name, compiled, original, live, judge, FAILURES,
        arrays_only=POLICIES[name].arrays_only,
        release_proven=_release_rules.contains_arguments(name),  # None: as 1.4.0
    )


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
    """``sample`` and ``contains`` for Gymnasium's class ``name``, bound to ``live``
    (judged by the judge of that class, :data:`._guard.JUDGES`)."""
    ours, theirs = getattr(_gs, name), getattr(_gym, name)
    original_sample, original_contains = theirs.__dict__["sample"], theirs.__dict__["contains"]
    plain_sample = _as_current_sample(original_sample)
    judge = _guard.JUDGES[name]
    if name == "Graph":
        sample = _graph_sample_entry(plain_sample, live)
        graph_contains = _graph_contains(ours.contains)
        contains = _contains_entry(name, graph_contains, original_contains, live, judge)
    else:
        sample = _sample_entry(name, ours.sample, plain_sample, live, judge)
        contains = _contains_entry(name, ours.contains, original_contains, live, judge)
    if not SAMPLE_TAKES_PROBABILITY:
        sample = _without_probability(sample, graph=name == "Graph")
    for entry, original in ((sample, original_sample), (contains, original_contains)):
        entry.__name__ = original.__name__
        entry.__qualname__ = original.__qualname__
        entry.__doc__ = original.__doc__
        entry.__module__ = __name__
    return {"sample": sample, "contains": contains}


# The helpers whose calls leave nothing behind but their result.
PURE_HELPERS = frozenset(
    {"flatdim", "flatten", "unflatten", "create_empty_array", "create_shared_memory", "read_from_shared_memory"}
)


graph_instances = _calls.GraphInstances(_gs.GraphInstance, _gym.GraphInstance)
"""``graph_instances(value)``: ``value`` with every gymspaces ``GraphInstance`` in it made Gymnasium's."""


def translating_errors(rows: Iterator[Any]) -> Iterator[Any]:
    """``rows``, raising Gymnasium's namesake of a gymspaces error it raises.

    ``iterate`` of a Dict is a generator in both libraries: an error in a
    child comes from the first ``next``, after the rule has returned.
    """
    try:
        yield from rows
        return
    except GYMSPACES_ERRORS as error:
        failure: BaseException = error
    raise gymnasium_error(failure)


def helper_rule(
    helper: Callable[..., Any],
    name: str,
    live: Live,
    originals: dict[type, Any],
    convert: Callable[[Any], Any] | None = graph_instances,
) -> Callable[..., Any]:
    """gymspaces' ``helper`` as a rule of Gymnasium's dispatcher ``name``.

    It runs for a space only when every node of the space's tree is provably
    compiled (:func:`._guard.tree_reason`), and Gymnasium's own rule
    (``originals``, by class) otherwise. It raises Gymnasium's exceptions
    where gymspaces raises its own, and ``convert`` its result (Gymnasium
    ``GraphInstance`` objects, by default). When ``live`` is off (the patch
    that registered it was undone: singledispatch's cache may hand it out
    after :func:`unpatch` when a lookup in another thread raced the
    registration), it runs Gymnasium's rule too.
    """
    how = _calls.Helper(
        originals,
        # Helpers that cast their input into each leaf's dtype, where numpy may warn.
        {
            "unflatten": _guard.unflatten_may_warn,
            "flatten": _guard.flatten_may_warn,
            "write_to_shared_memory": _guard.write_may_warn,
        }.get(name),
        _release_rules.helper_arguments(name),  # None: as 1.4.0
        # A helper that neither draws nor writes can run again as Gymnasium's when
        # gymspaces refuses the call: on releases that refuse (or accept) such
        # inputs otherwise, their own code then decides.
        (_release_rules.RERUN_ON_ERROR and name in PURE_HELPERS)
        or (_release_rules.RERUN_WRITES_ON_ERROR and name == "write_to_shared_memory"),
        convert,
        translating_errors,
        1 if name == "write_to_shared_memory" else 0,  # may_warn's value: after the index
    )
    rule = _calls.guarded_rule(helper, live, how, FAILURES)
    if name in _calls.CHECKED:  # its checked kernel first (see gymspaces.gymnasium._calls)
        rule = _calls.checked_rule(
            name, rule, live, how, FAILURES,
            (_batching_rules.stack_items, _batching.concatenate),  # gymspaces' own concatenate rules' fallbacks
        )
    rule.__name__ = rule.__qualname__ = f"{name}_compiled"
    rule.__doc__ = helper.__doc__
    rule.__wrapped__ = helper  # type: ignore[attr-defined]
    return rule
