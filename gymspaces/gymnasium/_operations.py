"""Patch mode's table: for each operation of each of Gymnasium's classes, the checks a call must pass.

Every decision patch mode makes about a call -- may it run gymspaces'
compiled code, and if not, why -- is one row of :data:`OPERATIONS`, keyed
``(class name, operation)``: ``("Discrete", "sample")``, ``("Dict",
"flatten")``. A row lists its checks in the order they run (a cell of
``_TABLE``: a line per class, a column per operation, read top to bottom);
one compiled driver (``_calls.first_failure``) runs
them on every call, and the first that fails is both what runs (Gymnasium's
own code) and the reason the report records and ``plain_reason`` gives, a
code of ``_reasons.py``. A row that lists no checks (``LEFT``) is never
taken: ``_LEFT`` says why, with the figures that showed Gymnasium's code as
fast. Beside the table, what other releases answer otherwise
(``_SAMPLES``, ``_HELPER_DATA``: the rule of the ``RELEASE`` check, rerun or
translate on gymspaces' error) and what the helpers take and cast (``_HELPER_DATA``,
for ``QUIET_CAST``). The judges' rules (``SPACE``, ``TREE``) are ``_guard.py``'s.
"""

from __future__ import annotations

from typing import Any

import gymnasium.spaces as _gym

import gymspaces as _gs
from gymspaces import _flatten, _shared_memory
from gymspaces.gymnasium import _calls, _guard, _release_rules
from gymspaces.gymnasium._release import SPACE_NAMES, VERSION
from gymspaces.gymnasium._calls import Operation

__all__ = [
    "GRAPH_INSTANCES", "HELPERS", "METHODS", "OPERATIONS", "OPERATION_NAMES", "UTILS_HELPERS", "VECTOR_HELPERS",
    "as_taken", "row", "taken",
]


GRAPH_INSTANCES = _calls.GraphInstances(_gs.GraphInstance, _gym.GraphInstance)
"""``GRAPH_INSTANCES(value)``: ``value`` with every gymspaces ``GraphInstance`` in it made Gymnasium's."""


# ---------------------------------------------------------------- what stays Gymnasium's
# What Gymnasium's own code does as fast as gymspaces' compiled path with the
# decision included is left to it: not intercepted. docs/patching.md ("What
# stays Gymnasium's") lists each with its figure; the figures are plain and
# patched, side by side on this project's machine, before these were left out.

_LEFT: dict[tuple[str, str], str] = {
    **{
        (name, "iterate"): "iterate of a fundamental space's batch is iter(items) there, of a Tuple's a zip of "
        "its children's, of the others' a tuple's iterator"
        for name in ("Box", "Discrete", "MultiDiscrete", "MultiBinary", "Tuple", "Text", "Sequence", "Graph", "OneOf")
    },
    **{(name, "concatenate"): "concatenate is tuple(items) there" for name in ("Text", "Sequence", "Graph", "OneOf")},
    **{
        (name, helper): "the flatten family runs Python rules in either library, with the decision on top"
        for helper in ("flatten", "unflatten", "flatdim")
        for name in ("Text", "Sequence")
    },
    ("OneOf", "unflatten"): "the flatten family runs Python rules in either library, with the decision on top",
    ("Discrete", "flatdim"): "flatdim of a Discrete is int(space.n) there",
    **{
        ("Text", helper): "a Text's shared memory is one int32 array per element, filled in numpy either way"
        for helper in ("write_to_shared_memory", "read_from_shared_memory")
    },
    ("Text", "contains"): "a length test and a set lookup per character there",
}
"""Why each operation left to Gymnasium is: the bench's ``left_*`` cases time it plain and taken
anyway (``benchmarks/left.py``) and print those figures beside these claims."""
# Not in the table at all: create_empty_array and create_shared_memory
# allocate what they return, once per vector env (multiprocessing's
# allocation, for shared memory): patch mode has nothing to take there.


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

LEFT = ()
"""A row's checks when patch mode never takes the operation (``_LEFT`` says why)."""

# The checks of a call, in the order each cell of the table lists them; the first that fails
# is the call's reason (its code after the arrow) and Gymnasium's code runs:
#   PATCHED             the patch that installed the entry is on             -> not-patched
#   OWN_RULES           gymspaces' helpers kept their own rules for its classes -> program-rule
#   SPACE, TREE         the space (every node of its tree) passes its class's judge: class,
#                       generator, attributes, release -> subclass-overrides, generator-not-numpy,
#                       attributes-changed, release-differs, not-a-gymnasium-class, too-deep
#   NO_MASK             no mask nor probability (Gymnasium raises its own error) -> argument-not-taken
#   NOT_OPTIMIZED       no mask nor probability under python -O (asserts skipped) -> argument-not-taken
#   EXACT_MASKS         masks and probabilities are exact ndarrays or tuples  -> argument-not-taken
#   QUIET_MASKED_DRAWS  no masked draw cast back from float64 sums (uint64)   -> may-warn
#   EXACT_ARRAY         the value is an exact ndarray (others are cast by numpy) -> argument-not-taken
#   NO_PROBABILITY      no probability for a Graph                            -> argument-not-taken
#   EDGES_HAVE_SPACE    edges asked only of a Graph with an edge space        -> may-warn
#   QUIET_CAST          the value casts into the tree's dtypes without a warning -> may-warn
#   RELEASE             the installed release answers these arguments as 1.4.0 -> release-differs

# A cell of the table: the checks of one kind of call, in order.
_FUNDAMENTAL = ("PATCHED", "SPACE", "NOT_OPTIMIZED", "EXACT_MASKS", "RELEASE")  # a fundamental space's sample
_BOX = ("PATCHED", "SPACE", "NO_MASK")  # Box's sample: any mask or probability is Gymnasium's to refuse
_UINT = ("PATCHED", "SPACE", "NOT_OPTIMIZED", "EXACT_MASKS", "QUIET_MASKED_DRAWS", "RELEASE")  # MultiDiscrete's
_COMPOSITE = ("PATCHED", "SPACE", "NOT_OPTIMIZED", "RELEASE")  # a composite's sample: its children draw
# Sequence draws a stacked sample through the batching rules, which read the
# feature space's attributes directly: its whole tree is judged.
_STACKED = ("PATCHED", "SPACE", "NOT_OPTIMIZED", "RELEASE", "TREE")
_GRAPH = ("PATCHED", "NO_PROBABILITY", "EDGES_HAVE_SPACE", "NOT_OPTIMIZED", "TREE")
_IN = ("PATCHED", "SPACE", "RELEASE")  # contains
_IN_ARRAY = ("PATCHED", "SPACE", "EXACT_ARRAY", "RELEASE")  # contains of an array space
_HELPER = ("PATCHED", "OWN_RULES", "TREE", "RELEASE")
_CAST = ("PATCHED", "OWN_RULES", "TREE", "QUIET_CAST", "RELEASE")  # a helper that casts its value

OPERATION_NAMES = METHODS + HELPERS
"""The operations of every class, in the order of the table's columns."""

# (read, write: read_from_shared_memory, write_to_shared_memory.)
_TABLE: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    # class            sample        contains   flatdim  flatten unflatten concatenate iterate  read     write
    ("Box",           (_BOX,         _IN_ARRAY, _HELPER, _CAST,  _CAST,    _HELPER,    LEFT,    _HELPER, _CAST)),
    ("Discrete",      (_FUNDAMENTAL, _IN,       LEFT,    _CAST,  _CAST,    _HELPER,    LEFT,    _HELPER, _CAST)),
    ("MultiBinary",   (_FUNDAMENTAL, _IN,       _HELPER, _CAST,  _CAST,    _HELPER,    LEFT,    _HELPER, _CAST)),
    ("MultiDiscrete", (_UINT,        _IN_ARRAY, _HELPER, _CAST,  _CAST,    _HELPER,    LEFT,    _HELPER, _CAST)),
    ("Text",          (_FUNDAMENTAL, LEFT,      LEFT,    LEFT,   LEFT,     LEFT,       LEFT,    LEFT,    LEFT)),
    ("Tuple",         (_COMPOSITE,   _IN,       _HELPER, _CAST,  _CAST,    _HELPER,    LEFT,    _HELPER, _CAST)),
    ("Dict",          (_COMPOSITE,   _IN,       _HELPER, _CAST,  _CAST,    _HELPER,    _HELPER, _HELPER, _CAST)),
    ("Sequence",      (_STACKED,     _IN,       LEFT,    LEFT,   LEFT,     LEFT,       LEFT,    _HELPER, _CAST)),
    ("Graph",         (_GRAPH,       _IN,       _HELPER, _CAST,  _CAST,    LEFT,       LEFT,    _HELPER, _CAST)),
    ("OneOf",         (_COMPOSITE,   _IN,       _HELPER, _CAST,  LEFT,     LEFT,       LEFT,    _HELPER, _CAST)),
)
"""Every operation of every class gymspaces has, one row per class, one column per operation
(:data:`OPERATION_NAMES`): the checks a call must pass to run compiled."""

# What releases other than 1.4.0 answer otherwise: the rule the RELEASE check
# asks (``None``: every argument is proven on the installed release) and
# whether a call gymspaces refuses runs again as Gymnasium's (rerun: the
# release words or takes it otherwise, and the call changed nothing) instead
# of raising Gymnasium's namesake of the error. The rules themselves, and from
# which release each applies, are _release_rules.py's.
_FUNDAMENTAL_SAMPLES = ("Discrete", "MultiBinary", "MultiDiscrete", "Text")  # they check arguments, then draw
_SAMPLES = {  # fundamental or not: (RELEASE rule, rerun on gymspaces' error)
    True: (_release_rules.sample_arguments(composite=False), _release_rules.RERUN_ON_ERROR),
    False: (_release_rules.sample_arguments(composite=True), False),
}
_RERUN, _RERUN_WRITES = _release_rules.RERUN_ON_ERROR, _release_rules.RERUN_WRITES_ON_ERROR
_PROVEN = _release_rules.HELPERS_PROVEN.get
# Each helper: how many positional arguments after the space its checked kernel
# takes (any other call goes to the general rule); the kernel's answer to "may
# numpy warn casting the value into the tree's dtypes" (QUIET_CAST) and where
# that value stands after the space (write: after the index); the release's.
_HELPER_DATA: dict[str, tuple[tuple[int, int], Any, int, Any, bool]] = {
    # helper                   arguments may warn                       value at RELEASE rule            rerun
    "flatdim":                 ((0, 0), None,                           0,       None,                   _RERUN),
    "flatten":                 ((1, 1), _flatten.flatten_may_warn,      0,       None,                   _RERUN),
    "unflatten":               ((1, 1), _flatten.unflatten_may_warn,    0,       None,                   _RERUN),
    "concatenate":             ((2, 2), None,                           0,       _PROVEN("concatenate"), False),
    "iterate":                 ((1, 1), None,                           0,       _PROVEN("iterate"),     False),
    "read_from_shared_memory": ((1, 2), None,                           0,       None,                   _RERUN),
    "write_to_shared_memory":  ((3, 3), _shared_memory.write_may_warn,  1,       None,                   _RERUN_WRITES),
}


def _row(name: str, operation: str, checks: tuple[str, ...]) -> Operation:
    """The row of ``operation`` of Gymnasium's class ``name``, with its checks and their data."""
    label = f"{name}.{operation}" if operation in METHODS else operation
    common: dict[str, Any] = {"label": label}
    if name not in SPACE_NAMES:  # (0.29 has no OneOf)
        return Operation(name, operation, LEFT, left=f"Gymnasium {VERSION} has no {name}", **common)
    if not checks:
        return Operation(name, operation, checks, left=_LEFT[name, operation], **common)
    if operation == "contains":
        return Operation(name, operation, checks, judge=_guard.JUDGES[name],
                         release_proven=_release_rules.CONTAINS_PROVEN.get(name), **common)
    if operation == "sample":
        release, rerun = _SAMPLES[name in _FUNDAMENTAL_SAMPLES]
        return Operation(name, operation, checks, judge=_guard.JUDGES[name] if "SPACE" in checks else None,
                         release_proven=release, rerun=rerun, **common)
    arguments, may_warn, value_at, release, rerun = _HELPER_DATA[operation]
    return Operation(name, operation, checks, release_proven=release, rerun=rerun, may_warn=may_warn,
                     value_at=value_at, arguments=arguments, checked=operation in _calls.CHECKED,
                     convert=None if operation == "flatdim" else GRAPH_INSTANCES, **common)


OPERATIONS: dict[tuple[str, str], Operation] = {
    (name, operation): _row(name, operation, checks)
    for name, cells in _TABLE
    for operation, checks in zip(OPERATION_NAMES, cells, strict=True)
}
"""Every operation patch mode knows, ``(Gymnasium class name, operation) -> row``,
for every class gymspaces has (those the installed release lacks are never installed)."""


def as_taken(name: str, operation: str) -> Operation:
    """The row of a helper or ``contains`` left to Gymnasium as if patch mode took it:
    the checks of its kind (the bench times a left row so, beside Gymnasium's code)."""
    casts = operation in _HELPER_DATA and _HELPER_DATA[operation][1] is not None
    checks = _CAST if casts else _IN if operation == "contains" else _HELPER
    return _row(name, operation, checks)


def row(name: str, operation: str) -> Operation | None:
    """The row of ``operation`` (``"sample"``, ``"flatten"``...) of Gymnasium's class ``name``, or None."""
    return OPERATIONS.get((name, operation))


def taken(name: str, operation: str) -> bool:
    """Whether patch mode takes ``operation`` of Gymnasium's class ``name`` (it has
    a row, and the row does not leave it to Gymnasium's own code)."""
    found = OPERATIONS.get((name, operation))
    return found is not None and found.left is None
