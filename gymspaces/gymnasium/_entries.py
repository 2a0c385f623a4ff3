"""The ``sample`` and ``contains`` that patch mode installs on Gymnasium's classes.

Each is a thin function with the signature of the Gymnasium method it
replaces. It runs gymspaces' compiled method when :mod:`._guard` proves the
outcome is Gymnasium's, and Gymnasium's own method otherwise; gymspaces'
exceptions leave it as the Gymnasium class of the same name and message.
Nothing else is installed on Gymnasium's classes: gymspaces' methods are
called as functions on the Gymnasium instance, and the kernels keep their
caches beside it, not in it.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium.spaces as _gym
import numpy as np

import gymspaces as _gs
from gymspaces.error import DEFERRABLE, Unproven
from gymspaces.gymnasium import _guard, _release_rules
from gymspaces.gymnasium._convert import GYMSPACES_ERRORS, gymnasium_error
from gymspaces.gymnasium._release import SAMPLE_TAKES_PROBABILITY

__all__ = ["Live", "helper_rule", "make_entries"]

_NDARRAY = np.ndarray


class Live:
    """Whether the patch that made an entry is still in effect (entries handed
    out earlier -- a bound method kept by user code -- run Gymnasium's code after
    ``unpatch()``), and where calls that run plain are noted."""

    __slots__ = ("on", "recording", "note")

    def __init__(self) -> None:
        self.on = True
        self.recording = False  # patch(report=True): calls that run plain are noted with their reason
        # note(label, cls, reason): the report's, set by patch(report=True).
        self.note: Callable[[str, type, str], None] | None = None


def _note_plain(live: Live, label: str, space: Any) -> None:
    if live.note is None:
        return
    reason = _guard.tree_reason(space)
    live.note(label, type(space), reason or "arguments that Gymnasium's own code handles (see docs/patching.md)")


def _plain_arguments(mask: Any, probability: Any) -> bool:
    """Arguments a fundamental space leaves to Gymnasium: an ndarray subclass (plain
    code may return it), anything under ``python -O`` (plain skips its asserts)."""
    if mask is None and probability is None:
        return False
    if _OPTIMIZED:
        return True
    return (mask is not None and type(mask) is not _NDARRAY and type(mask) is not tuple) or (
        probability is not None and type(probability) is not _NDARRAY and type(probability) is not tuple
    )


_OPTIMIZED = bool(sys.flags.optimize)


def _uint64_dtype(space: Any) -> bool:
    return vars(space)["dtype"] == np.uint64


def _sample_entry(
    name: str, compiled: Callable[..., Any], original: Callable[..., Any], live: Live, judge: Callable[[Any], Any]
) -> Any:
    fundamental = name in ("Discrete", "MultiBinary", "MultiDiscrete", "Text")
    composite_masks = not fundamental and name != "Box"
    # Sequence draws a stacked sample through the batching rules, which read
    # the feature space's attributes directly: its whole tree must be provable.
    whole_tree = name == "Sequence"
    # A uint64 MultiDiscrete's masked draws are int64 indices added to uint64
    # starts: float64 sums, whose cast back numpy may warn about (from
    # Gymnasium's line, plain).
    masked_in_floats = _uint64_dtype if name == "MultiDiscrete" else None
    # Masks and probabilities the installed release takes otherwise (None: as 1.4.0).
    release_proven = _release_rules.sample_arguments(composite=composite_masks)
    # A fundamental space validates its arguments before it draws: a call it
    # refuses can run again as Gymnasium's, on releases that word errors otherwise.
    rerun = _release_rules.RERUN_ON_ERROR and fundamental

    def sample(self: Any, mask: Any = None, probability: Any = None) -> Any:
        if live.on and judge(self) is None:
            if fundamental:
                plain = _plain_arguments(mask, probability) or (
                    masked_in_floats is not None and (mask is not None or probability is not None)
                    and masked_in_floats(self)
                )
            elif composite_masks:
                plain = _OPTIMIZED and (mask is not None or probability is not None)
            else:  # Box: any mask or probability raises; Gymnasium words it
                plain = mask is not None or probability is not None
            if not plain and release_proven is not None and (mask is not None or probability is not None):
                plain = not release_proven(mask, probability)
            if whole_tree and not plain:
                plain = _guard.tree_reason(self) is not None
            if not plain:
                try:
                    return compiled(self, mask, probability)
                except Exception as error:
                    if rerun:
                        return original(self, mask, probability)
                    if not isinstance(error, GYMSPACES_ERRORS):
                        raise
                    failure = error
                raise gymnasium_error(failure)
        if live.recording:
            _note_plain(live, f"{name}.sample", self)
        return original(self, mask, probability)

    return sample


def _graph_sample_entry(compiled: Callable[..., Any], original: Callable[..., Any], live: Live) -> Any:
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
                return _gym.GraphInstance(*compiled(self, mask, probability, num_nodes, num_edges))
            except GYMSPACES_ERRORS as error:
                failure = error
            raise gymnasium_error(failure)
        if live.recording:
            _note_plain(live, "Graph.sample", self)
        return original(self, mask, probability, num_nodes, num_edges)

    return sample


def _contains_entry(
    name: str, compiled: Callable[..., Any], original: Callable[..., Any], live: Live, judge: Callable[[Any], Any]
) -> Any:
    # Box and MultiDiscrete cast other inputs with numpy, and Box warns through
    # Gymnasium's logger: those inputs run Gymnasium's code.
    arrays_only = name in ("Box", "MultiDiscrete")
    release_proven = _release_rules.contains_arguments(name)  # None: as 1.4.0

    def contains(self: Any, x: Any) -> bool:
        if (
            live.on
            and (not arrays_only or type(x) is _NDARRAY)
            and judge(self) is None
            and (release_proven is None or release_proven(self, x))
        ):
            try:
                return compiled(self, x)
            except GYMSPACES_ERRORS as error:
                failure = error
            raise gymnasium_error(failure)
        if live.recording:
            _note_plain(live, f"{name}.contains", self)
        return original(self, x)

    return contains


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


def make_entries(name: str, live: Live, judge: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """``sample`` and ``contains`` for Gymnasium's class ``name``, bound to ``live``.

    ``judge(space)`` says why a space cannot run compiled (default: the judge of
    Gymnasium's class; the compatible classes on another release have their own,
    :mod:`._release_classes`).
    """
    ours, theirs = getattr(_gs, name), getattr(_gym, name)
    original_sample, original_contains = theirs.__dict__["sample"], theirs.__dict__["contains"]
    plain_sample = _as_current_sample(original_sample)
    judge = judge or _guard.JUDGES[name].reason
    if name == "Graph":
        sample = _graph_sample_entry(ours.sample, plain_sample, live)
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


def graph_instances(value: Any) -> Any:
    """``value`` with every gymspaces ``GraphInstance`` in it made Gymnasium's."""
    kind = type(value)
    if kind is _gs.GraphInstance:
        return _gym.GraphInstance(*value)
    if kind is tuple:
        items = [graph_instances(item) for item in value]
        return tuple(items) if any(new is not old for new, old in zip(items, value)) else value
    if kind is dict:
        entries = {key: graph_instances(item) for key, item in value.items()}
        return entries if any(entries[key] is not value[key] for key in value) else value
    return value


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
    active: Callable[[], bool],
    originals: dict[type, Any],
    convert: Callable[[Any], Any] | None = graph_instances,
) -> Callable[..., Any]:
    """gymspaces' ``helper`` as a rule of Gymnasium's dispatcher ``name``.

    It runs for a space only when every node of the space's tree is provably
    compiled (:func:`._guard.tree_reason`), and Gymnasium's own rule
    (``originals``, by class) otherwise. It raises Gymnasium's exceptions
    where gymspaces raises its own, and ``convert`` its result (Gymnasium
    ``GraphInstance`` objects, by default). When ``active()`` is false (the
    patch that registered it was undone: singledispatch's cache may hand it
    out after :func:`unpatch` when a lookup in another thread raced the
    registration), it runs Gymnasium's rule too.
    """
    def gymnasiums(space: Any) -> Callable[..., Any]:
        return next(originals[klass] for klass in type(space).__mro__ if klass in originals)

    # Helpers that cast their input into each leaf's dtype, where numpy may warn.
    may_warn = {"unflatten": _guard.unflatten_may_warn, "flatten": _guard.flatten_may_warn}.get(name)
    # A helper that neither draws nor writes can run again as Gymnasium's when
    # gymspaces refuses the call: on releases that refuse (or accept) such
    # inputs otherwise, their own code then decides.
    rerun = _release_rules.RERUN_ON_ERROR and name in PURE_HELPERS
    rerun = rerun or (_release_rules.RERUN_WRITES_ON_ERROR and name == "write_to_shared_memory")
    release_proven = _release_rules.helper_arguments(name)  # None: as 1.4.0
    # Helpers whose gymspaces code may hand a call back (gymspaces.error.defer).
    may_defer = name in ("flatten", "write_to_shared_memory")
    tree_reason = _guard.tree_reason

    def rule(space: Any, *args: Any, **kwargs: Any) -> Any:
        if not active() or tree_reason(space) is not None:
            return gymnasiums(space)(space, *args, **kwargs)
        if may_warn is not None and args and may_warn(space, args[0]):
            return gymnasiums(space)(space, *args, **kwargs)
        if release_proven is not None and not release_proven(space, *args, **kwargs):
            return gymnasiums(space)(space, *args, **kwargs)
        deferrable = DEFERRABLE.set(True) if may_defer else None
        try:
            result = helper(space, *args, **kwargs)
        except Exception as error:
            if rerun or isinstance(error, Unproven):
                return gymnasiums(space)(space, *args, **kwargs)
            if not isinstance(error, GYMSPACES_ERRORS):
                raise
            failure: BaseException = error
        else:
            if type(result) is types.GeneratorType:
                return translating_errors(result)
            return result if convert is None else convert(result)
        finally:
            if deferrable is not None:
                DEFERRABLE.reset(deferrable)
        raise gymnasium_error(failure)

    rule.__name__ = rule.__qualname__ = f"{name}_compiled"
    rule.__doc__ = helper.__doc__
    rule.__wrapped__ = helper  # type: ignore[attr-defined]
    return rule
