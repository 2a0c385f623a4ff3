"""Patch mode's table: one row per operation of one of Gymnasium's classes.

Every decision patch mode makes about a call -- may it run gymspaces'
compiled code, and if not, why -- is read from one row of :data:`OPERATIONS`,
keyed ``(class name, operation)``: ``("Discrete", "sample")``,
``("Dict", "flatten")``, ``("Text", "iterate")``. A row
(:class:`~gymspaces.gymnasium._calls.Operation`) gives:

* whether patch mode takes the operation at all (``left``: why Gymnasium's own
  code is kept, with the figures that showed it as fast there);
* the judge of the class (its rules: ``_guard.py``) and which arguments run
  compiled (``arguments``, ``masked_in_floats``, ``judges_tree``);
* where the installed release differs from 1.4.0 (``release_proven``, from
  ``_release_rules.py``) and which values Gymnasium's helper may warn on
  (``may_warn``);
* whether a checked kernel answers first (``checked``), and what gymspaces'
  error does: run Gymnasium's code again (``rerun``) or leave as Gymnasium's
  namesake (``failures``).

One compiled body per kind of entry reads the row (``_calls.pyx``:
``method_entry``, ``graph_sample_entry``, ``helper_rule``); :func:`patch`
installs what the rows take (``_patch.py``), ``plain_reason`` explains from
them and the report labels calls by them. "Why did this call run Gymnasium's
code?" is answered by the call's row, its body and the judge's rules.
"""

from __future__ import annotations

import gymnasium.error as _gym_error
import gymnasium.spaces as _gym
import numpy as np

import gymspaces as _gs
import gymspaces.error as _gs_error
from gymspaces.gymnasium import _calls, _guard, _release_rules
from gymspaces.gymnasium._calls import ANY_VALUE, ARRAYS_ONLY, BOX, COMPOSITE, FUNDAMENTAL, TREE, Operation
from gymspaces.gymnasium._release import ALL_SPACE_NAMES

__all__ = [
    "FAILURES", "GRAPH_INSTANCES", "GYMSPACES_ERRORS", "HELPERS", "METHODS", "OPERATIONS", "UTILS_HELPERS",
    "VECTOR_HELPERS", "gymnasium_error", "row", "taken",
]


# ---------------------------------------------------------------- failures

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


FAILURES = _calls.Failures(GYMSPACES_ERRORS, gymnasium_error)
"""Failures of compiled calls leave as Gymnasium's exceptions."""

GRAPH_INSTANCES = _calls.GraphInstances(_gs.GraphInstance, _gym.GraphInstance)
"""``GRAPH_INSTANCES(value)``: ``value`` with every gymspaces ``GraphInstance`` in it made Gymnasium's."""


# ---------------------------------------------------------------- what stays Gymnasium's
# What Gymnasium's own code does as fast as gymspaces' compiled path with the
# decision included is left to it: not intercepted. docs/patching.md ("What
# stays Gymnasium's") lists each with its figure; the figures are plain and
# patched, side by side on this project's machine, before these were left out.

_ITERATE = "iterate of a fundamental space's batch is iter(items) there, of a Tuple's a zip of its children's, "
_LEFT: dict[tuple[str, str], str] = {
    **{
        (name, "iterate"): _ITERATE + "of the others' a tuple's iterator (8 MultiDiscrete rows: 2.0 us plain, "
        "3.4 us patched; a Tuple's: 5.0 us, 5.4 us)"
        for name in ("Box", "Discrete", "MultiDiscrete", "MultiBinary", "Tuple", "Text", "Sequence", "Graph", "OneOf")
    },
    **{
        (name, "concatenate"): "concatenate is tuple(items) there (0.32 us plain, 0.76-1.54 us patched)"
        for name in ("Text", "Sequence", "Graph", "OneOf")
    },
    **{
        (name, helper): "the flatten family runs Python rules in either library, with the decision on top "
        "(a Text: 1.24 us plain, 2.93 us patched; a Sequence's unflatten: 5.4 us, 22.8 us; a OneOf's: "
        "3.5 us, 17.2 us)"
        for helper in ("flatten", "unflatten", "flatdim")
        for name in ("Text", "Sequence", "OneOf")
    },
    ("Discrete", "flatdim"): "flatdim of a Discrete is int(space.n) there (0.33 us plain, 0.34 us patched)",
    **{
        ("Graph", helper): "a Graph's flatten and unflatten batch its features through Python rules in either "
        "library (67 us plain, 72 us patched; 81 us, 77 us)"
        for helper in ("flatten", "unflatten")
    },
    **{
        ("Text", helper): "a Text's shared memory is one int32 array per element, filled in numpy either way "
        "(20.5 us plain, 22.8 us patched for a write and a read of 8)"
        for helper in ("write_to_shared_memory", "read_from_shared_memory")
    },
    ("Text", "contains"): "a length test and a set lookup per character there (0.33 us plain, 0.43 us patched "
    "for 8 characters)",
}
# Not in the table at all: create_empty_array and create_shared_memory
# allocate what they return, once per vector env (an empty Box array: 0.52 us
# plain, 0.86 us patched; a MultiBinary's shared memory: 38 us either way, a
# Dict's 133 us plain, 122 us patched -- multiprocessing's allocation).


# ---------------------------------------------------------------- the rows

METHODS = ("sample", "contains")
"""The methods patch mode installs on Gymnasium's classes."""

UTILS_HELPERS = ("flatdim", "flatten", "unflatten")
"""The helpers of ``gymnasium.spaces.utils`` patch mode registers rules with."""
VECTOR_HELPERS = ("concatenate", "iterate", "read_from_shared_memory", "write_to_shared_memory")
"""The helpers of ``gymnasium.vector.utils`` patch mode registers rules with."""
HELPERS = UTILS_HELPERS + VECTOR_HELPERS
"""Gymnasium's helpers patch mode registers rules with: the calls made per step. The
ones that build spaces (batch_space, batch_differing_spaces, flatten_space) stay
Gymnasium's: the spaces they build are Gymnasium's classes, hence compiled too."""

# How each class's sample takes masks and probabilities.
_SAMPLE_ARGUMENTS = {
    # Box: any mask or probability is an error Gymnasium raises itself.
    "Box": BOX,
    **dict.fromkeys(("Discrete", "MultiBinary", "MultiDiscrete", "Text"), FUNDAMENTAL),
    **dict.fromkeys(("Tuple", "Dict", "Sequence", "Graph", "OneOf"), COMPOSITE),
}
# contains casts other inputs than arrays with numpy (and may warn, through Gymnasium's logger).
_ARRAYS_ONLY = frozenset({"Box", "MultiDiscrete"})


def _uint64_dtype(space: object) -> bool:
    return vars(space)["dtype"] == np.uint64


# The helpers whose calls leave nothing behind but their result: on releases that
# word (or take) such calls otherwise, one gymspaces refuses runs again as Gymnasium's.
_PURE_HELPERS = frozenset({"flatdim", "flatten", "unflatten", "read_from_shared_memory"})
# Helpers that cast their input into each leaf's dtype, where numpy may warn,
# and the position of that input after the space (write: after the index).
_MAY_WARN = {
    "unflatten": (_guard.unflatten_may_warn, 0),
    "flatten": (_guard.flatten_may_warn, 0),
    "write_to_shared_memory": (_guard.write_may_warn, 1),
}


def _method_row(name: str, method: str) -> Operation:
    fundamental = _SAMPLE_ARGUMENTS[name] == FUNDAMENTAL
    if method == "sample":
        return Operation(
            name, method, label=f"{name}.{method}", failures=FAILURES, left=_LEFT.get((name, method)),
            judge=_guard.JUDGES.get(name),
            arguments=_SAMPLE_ARGUMENTS[name],
            # A uint64 MultiDiscrete's masked draws are int64 indices added to uint64
            # starts: float64 sums, whose cast back numpy may warn about (from Gymnasium's line).
            masked_in_floats=_uint64_dtype if name == "MultiDiscrete" else None,
            # Sequence draws a stacked sample through the batching rules, which read
            # the feature space's attributes directly.
            judges_tree=name == "Sequence",
            # Masks and probabilities the installed release takes otherwise (None: as 1.4.0).
            release_proven=_release_rules.sample_arguments(composite=_SAMPLE_ARGUMENTS[name] == COMPOSITE),
            # A fundamental space validates its arguments before it draws: a call it
            # refuses can run again as Gymnasium's, on releases that word errors otherwise.
            rerun=_release_rules.RERUN_ON_ERROR and fundamental,
        )
    return Operation(
        name, method, label=f"{name}.{method}", failures=FAILURES, left=_LEFT.get((name, method)),
        judge=_guard.JUDGES.get(name),
        arguments=ARRAYS_ONLY if name in _ARRAYS_ONLY else ANY_VALUE,
        release_proven=_release_rules.contains_arguments(name),  # None: as 1.4.0
    )


def _helper_row(name: str, helper: str) -> Operation:
    may_warn, value_at = _MAY_WARN.get(helper, (None, 0))
    return Operation(
        name, helper, label=helper, failures=FAILURES, left=_LEFT.get((name, helper)),
        arguments=TREE,
        may_warn=may_warn,
        value_at=value_at,
        release_proven=_release_rules.helper_arguments(helper),  # None: as 1.4.0
        checked=helper in _calls.CHECKED,
        rerun=(_release_rules.RERUN_ON_ERROR and helper in _PURE_HELPERS)
        or (_release_rules.RERUN_WRITES_ON_ERROR and helper == "write_to_shared_memory"),
        # Gymnasium's GraphInstance for gymspaces' in a result (a flatdim has none).
        convert=None if helper == "flatdim" else GRAPH_INSTANCES,
    )


def _rows() -> dict[tuple[str, str], Operation]:
    rows = {}
    for name in ALL_SPACE_NAMES:
        for method in METHODS:
            rows[name, method] = _method_row(name, method)
        for helper in HELPERS:
            rows[name, helper] = _helper_row(name, helper)
    return rows


OPERATIONS: dict[tuple[str, str], Operation] = _rows()
"""Every operation patch mode knows, ``(Gymnasium class name, operation) -> row``,
for every class gymspaces has (those the installed release lacks are never installed)."""


def row(name: str, operation: str) -> Operation | None:
    """The row of ``operation`` (``"sample"``, ``"flatten"``...) of Gymnasium's class ``name``, or None."""
    return OPERATIONS.get((name, operation))


def taken(name: str, operation: str) -> bool:
    """Whether patch mode takes ``operation`` of Gymnasium's class ``name`` (it has
    a row, and the row does not leave it to Gymnasium's own code)."""
    found = OPERATIONS.get((name, operation))
    return found is not None and found.left is None
