"""The per-call code of patch mode, compiled: one body per kind of entry, reading one row.

Every patched call -- the ``sample`` and ``contains`` installed on Gymnasium's
classes, the rules registered with Gymnasium's helpers -- runs one of the
bodies below, made for one :class:`Operation`: a row of patch mode's table
(``gymspaces/gymnasium/_operations.py``), which says everything the call's
decision needs. Each body decides (is patch mode still on, does the space
pass its judge, do the arguments need Gymnasium's own code), runs gymspaces'
compiled code or Gymnasium's own, and on gymspaces' error does what the row
says (:func:`recover`: run Gymnasium's code again, or raise Gymnasium's
namesake of the error). Written in C, the decision costs tens of nanoseconds
rather than a Python frame or two.

The flatten family and the vector helpers with a checked kernel (``*_checked``
in ``gymspaces/_flatten.pyx``, ``_batch.pyx``, ``_shared_memory.pyx``) go
first through it, which decides while it walks: each node passes its judge,
and each value is read only where Gymnasium's own code could not warn. It
answers ``None`` for anything else, and the general rule
(:func:`general_rule`) then decides the call as every other helper's does.
"""

import sys
import types

from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject

import gymnasium.error as gym_error
import numpy as np

import gymspaces.error as gs_error
from gymspaces._batch cimport concatenate_tree
from gymspaces._flatten cimport flatdim_checked, flatten_checked, unflatten_checked
from gymspaces.gymnasium._judge cimport Judge, tree_reason
from gymspaces._registry cimport Registry, is_array_leaf, space_class
from gymspaces._rng cimport GS_FREE_THREADED
from gymspaces._shared_memory cimport read_checked, write_checked

from gymspaces import _registry
from gymspaces.gymnasium._reasons import coded

cdef type NDARRAY = np.ndarray
cdef type GENERATOR_TYPE = types.GeneratorType
# Under ``python -O`` Gymnasium skips its asserts: masks and probabilities go plain.
cdef bint OPTIMIZED = bool(sys.flags.optimize)
cdef object MISSING = object()
cdef tuple EMPTY = ()
cdef Registry registry = _registry.REGISTRY

# Why a call runs Gymnasium's own code, where its arguments or the patch decide
# (a space's own reasons are its judge's): "code: detail", the code first.
cdef str NOT_PATCHED, PROGRAM_RULE, BOX_ARGUMENTS, OPTIMIZED_ARGUMENTS, MASK_TYPE, MASKED_IN_FLOATS, NOT_AN_ARRAY
cdef str GRAPH_PROBABILITY, EDGES_WITHOUT_SPACE, MAY_WARN_CAST, RELEASE_ARGUMENTS, RERUN
NOT_PATCHED = coded("not-patched", "the patch that installed this entry was undone")
PROGRAM_RULE = coded("program-rule", "the program registered a rule of its own with one of gymspaces' helpers")
BOX_ARGUMENTS = coded("argument-not-taken", "Box.sample takes no mask or probability (Gymnasium raises its own error)")
OPTIMIZED_ARGUMENTS = coded("argument-not-taken", "a mask or probability under python -O (Gymnasium skips its asserts)")
MASK_TYPE = coded("argument-not-taken", "a mask or probability that is neither an exact ndarray nor a tuple")
MASKED_IN_FLOATS = coded("may-warn", "a uint64 MultiDiscrete's masked draw is cast back from float64 sums")
NOT_AN_ARRAY = coded("argument-not-taken", "a value that is not an exact ndarray (Gymnasium casts it with numpy)")
GRAPH_PROBABILITY = coded("argument-not-taken", "a Graph's probability (numpy may warn on some)")
EDGES_WITHOUT_SPACE = coded("may-warn", "edges asked of a Graph without an edge space (Gymnasium warns)")
MAY_WARN_CAST = coded("may-warn", "numpy may warn casting the value into the space's dtypes")
RELEASE_ARGUMENTS = coded("release-differs", "the installed Gymnasium answers these arguments otherwise")
RERUN = coded("release-differs", "gymspaces refused the call, which the installed Gymnasium words or takes otherwise")


cdef class Live:
    """Whether the patch that made an entry is still in effect (entries handed
    out earlier -- a bound method kept by user code -- run Gymnasium's code after
    ``unpatch()``, which turns ``on`` off), and what the patch found when it
    was made.

    Attributes
    ----------
    built_in_rules : bool
        Whether gymspaces' helpers resolved gymspaces' space classes to its own
        rules when patched: a rule the program had registered there is not
        registered for Gymnasium's classes, whose helper calls then run
        Gymnasium's code (``program-rule``).
    note_plain : callable or None
        ``note_plain(label, space, reason)``, told of each call that runs
        Gymnasium's own code and why (the recorder's ``ran_plain``, under
        ``patch(report=True)``); None when not recording.
    """

    cdef public bint on
    cdef readonly bint built_in_rules
    cdef object note_plain

    def __init__(self, bint built_in_rules=True, note_plain=None):
        self.on = True
        self.built_in_rules = built_in_rules
        self.note_plain = note_plain


cdef inline bint rules_on(Live live) noexcept:
    """Whether the helper rules ``live`` made run gymspaces' code: still patched,
    and gymspaces' helpers resolved its classes to its own rules then."""
    return live.on and live.built_in_rules


# gymspaces' errors that have a Gymnasium namesake: a compiled call's failure
# leaves as that class, with the same arguments, traceback and cause.
cdef dict NAMESAKES = {gs_error.Error: gym_error.Error, gs_error.CustomSpaceError: gym_error.CustomSpaceError}
cdef tuple GYMSPACES_ERRORS = tuple(NAMESAKES)


cdef object gymnasium_error(error):
    """Gymnasium's exception for gymspaces' ``error``: its namesake (``Error``,
    ``CustomSpaceError``); any other exception as it is."""
    theirs = NAMESAKES.get(type(error))
    if theirs is None:
        return error
    replacement = theirs(*error.args)
    replacement.__traceback__ = error.__traceback__
    if error.__cause__ is not None:  # ``raise ... from``: Gymnasium's chains the same cause
        replacement.__cause__ = error.__cause__
    return replacement


# The checks a row runs, in its order (``_operations.py`` names them in each
# row); the driver, :func:`first_failure`, gives the first that fails as the
# call's reason. Each check fails with one reason code.
cdef enum Check:
    CHECK_PATCHED             # not-patched: the patch that installed the entry is off
    CHECK_OWN_RULES           # program-rule: gymspaces' helpers kept their rules for its classes
    CHECK_SPACE               # the space passes its class's judge (the judge's code)
    CHECK_TREE                # every node of the space's tree does (the node's code)
    CHECK_NO_MASK             # argument-not-taken: no mask nor probability (Box)
    CHECK_NOT_OPTIMIZED       # argument-not-taken: none under python -O
    CHECK_EXACT_MASKS         # argument-not-taken: masks and probabilities exact ndarrays or tuples
    CHECK_QUIET_MASKED_DRAWS  # may-warn: no masked draw cast back from float64 sums (uint64)
    CHECK_EXACT_ARRAY         # argument-not-taken: the value is an exact ndarray
    CHECK_NO_PROBABILITY      # argument-not-taken: a Graph's probability
    CHECK_EDGES_HAVE_SPACE    # may-warn: edges asked only of a Graph with an edge space
    CHECK_QUIET_CAST          # may-warn: the value casts into the tree's dtypes quietly
    CHECK_RELEASE             # release-differs: the installed release answers these arguments as 1.4.0
    CHECK_COUNT

CHECK_NAMES = ("PATCHED", "OWN_RULES", "SPACE", "TREE", "NO_MASK", "NOT_OPTIMIZED", "EXACT_MASKS",
               "QUIET_MASKED_DRAWS", "EXACT_ARRAY", "NO_PROBABILITY", "EDGES_HAVE_SPACE", "QUIET_CAST", "RELEASE")
"""The checks' names, in the enum's order: a row lists its checks by these names."""
if len(CHECK_NAMES) != CHECK_COUNT:
    raise ImportError("CHECK_NAMES must name the Check enum's members, in its order")

cdef enum:
    MAX_CHECKS = 8
# The checked kernels, by helper (flatten's and unflatten's have rules of their own: one_value_rule).
cdef enum:
    KERNEL_NONE, KERNEL_FLATDIM, KERNEL_CONCATENATE, KERNEL_WRITE, KERNEL_READ
cdef dict KERNELS = {"flatdim": KERNEL_FLATDIM, "concatenate": KERNEL_CONCATENATE,
                     "write_to_shared_memory": KERNEL_WRITE, "read_from_shared_memory": KERNEL_READ}
CHECKED = frozenset({"flatten", "unflatten", *KERNELS})
"""The helpers that have a checked kernel."""
# When the judge's answer ends the driver (see Operation.quick).
cdef enum:
    QUICK_NEVER, QUICK_ALWAYS, QUICK_WITHOUT_ARGUMENTS, QUICK_WITH_AN_ARRAY
# The checks a call without arguments passes (a sample with no mask, probability or num_edges).
cdef tuple ARGUMENT_CHECKS = (CHECK_NO_MASK, CHECK_NOT_OPTIMIZED, CHECK_EXACT_MASKS, CHECK_QUIET_MASKED_DRAWS,
                              CHECK_NO_PROBABILITY, CHECK_EDGES_HAVE_SPACE, CHECK_RELEASE)
cdef object UINT64 = np.dtype(np.uint64)


cdef class Operation:
    """One row of patch mode's table: how one operation of one of Gymnasium's
    classes decides, runs, falls back and fails (``_operations.py`` writes every
    row; :func:`first_failure` runs its checks).

    Attributes
    ----------
    owner, name : str
        Gymnasium's class (``"Discrete"``) and the operation (``"sample"``,
        ``"contains"``, or a helper: ``"flatten"``, ``"concatenate"``...).
    label : str
        The report's name of the operation (``"Discrete.sample"``, ``"flatten"``).
    left : str or None
        Why Gymnasium's own code always runs it (it is as fast there); None
        when patch mode takes it.
    checks : tuple of str
        The checks a call must pass to run compiled, in the order they run
        (``"PATCHED"``, ``"SPACE"``...: :data:`CHECK_NAMES`).
    judge : Judge or None
        The class's judge, for ``SPACE``.
    release_proven : callable or None
        For ``RELEASE``: the installed release gives 1.4.0's outcome for these
        arguments: ``(mask, probability)`` for ``sample``, ``(space, x)`` for
        ``contains``, ``(space, *args, **kwargs)`` for a helper. None: every
        argument is proven.
    may_warn : callable or None
        For ``QUIET_CAST``: ``may_warn(space, value)``, whether Gymnasium's
        helper may warn casting the argument ``value_at`` after the space.
    value_at : int
        The position of ``may_warn``'s value among the arguments after the space.
    least_arguments, most_arguments : int
        How many positional arguments after the space a helper's checked kernel
        takes (from ``arguments=(least, most)``); any other call, or one with
        keywords, goes to the general rule.
    checked : bool
        A checked kernel answers first (:data:`CHECKED`).
    rerun : bool
        An error of gymspaces' code runs Gymnasium's own instead (the release
        words or takes such calls otherwise, and the call changed nothing);
        else the error is raised as Gymnasium's namesake.
    convert : callable or None
        Applied to a helper's result (Gymnasium's ``GraphInstance`` for gymspaces').
    """

    cdef readonly str owner, name, label
    cdef readonly object left
    cdef readonly tuple checks
    cdef int check_list[MAX_CHECKS]
    cdef int check_count
    # Where the driver's loop starts: 2 for a row that runs PATCHED then SPACE
    # (the head of first_failure does those two inline), else 0; and when the
    # judge's answer is the driver's (``QUICK_*``: the checks after those two
    # cannot fail for this call).
    cdef int loop_from
    cdef int quick
    cdef int kernel  # the checked kernel a helper's rule runs (KERNEL_*), read in C per call
    cdef readonly bint checked
    # (Read in C only.)
    cdef object judge, release_proven, may_warn, convert
    cdef bint rerun
    cdef Py_ssize_t value_at, least_arguments, most_arguments

    def __init__(self, str owner, str name, tuple checks, *, str label, left=None,
                 judge=None, release_proven=None, may_warn=None, Py_ssize_t value_at=0, arguments=(0, 0),
                 bint checked=False, bint rerun=False, convert=None):
        if len(checks) > MAX_CHECKS or not all([check_name in CHECK_NAMES for check_name in checks]):
            raise ValueError(f"not a list of at most {MAX_CHECKS} checks: {checks!r}")
        if ("SPACE" in checks) != (judge is not None):
            raise ValueError("a row checks its space exactly when it has a judge")
        if ("QUIET_CAST" in checks) != (may_warn is not None):
            raise ValueError("a row checks its value's casts exactly when it has may_warn")
        self.owner, self.name, self.label = owner, name, label
        self.checks = checks
        # What the driver runs: the checks, less those that cannot fail in this
        # interpreter (NOT_OPTIMIZED without python -O) or on this release (RELEASE
        # where it has no rule), which then cost a call nothing.
        self.check_count = 0
        for check_name in checks:
            check = CHECK_NAMES.index(check_name)
            if (check == CHECK_NOT_OPTIMIZED and not OPTIMIZED) or (check == CHECK_RELEASE and release_proven is None):
                continue
            self.check_list[self.check_count] = check
            self.check_count += 1
        self.loop_from = 2 if self.check_count >= 2 and self.check_list[0] == CHECK_PATCHED and (
            self.check_list[1] == CHECK_SPACE) else 0
        rest = [self.check_list[i] for i in range(self.loop_from, self.check_count)]
        self.quick = (QUICK_NEVER if self.loop_from == 0 else QUICK_ALWAYS if not rest
                      else QUICK_WITH_AN_ARRAY if rest == [CHECK_EXACT_ARRAY]
                      else QUICK_WITHOUT_ARGUMENTS if all([check in ARGUMENT_CHECKS for check in rest])
                      else QUICK_NEVER)
        self.left, self.judge, self.convert = left, judge, convert
        self.release_proven, self.may_warn, self.value_at = release_proven, may_warn, value_at
        self.least_arguments, self.most_arguments = arguments
        self.kernel = KERNELS.get(name, KERNEL_NONE) if checked else KERNEL_NONE
        self.checked, self.rerun = checked, rerun

    def __repr__(self):
        if self.left is not None:
            return f"Operation({self.owner}.{self.name}, left)"
        return f"Operation({self.owner}.{self.name}: {', '.join(self.checks)})"


cdef object recover(Operation row, Live live, error, rerun, tuple args, dict kwargs):
    """What a call does once gymspaces' code raised ``error``: Gymnasium's own
    code, ``rerun(*args, **kwargs)``, where ``row`` says so; else Gymnasium's
    namesake of one of gymspaces' errors, or the error as it is.

    Called after the except clause that caught ``error``, so that nothing is
    being handled when this raises, as in Gymnasium's own code (an exception's
    context is what Gymnasium's would have).
    """
    if row.rerun:
        if live.note_plain is not None:
            live.note_plain(row.label, args[0], RERUN)
        return rerun(*args, **kwargs) if kwargs else rerun(*args)
    raise gymnasium_error(error)


cdef inline object first_failure(Operation row, Live live, space, first, second, third, tuple args,
                                 dict kwargs):
    """The reason of the first of ``row``'s checks this call fails, or None: it runs compiled.

    The call's arguments after the space: ``first``, ``second`` and ``third`` are
    ``sample``'s mask, probability and (Graph) ``num_edges``, ``contains``' value,
    or a helper's value (``MISSING`` when not given), with every argument of a
    helper in ``args`` and ``kwargs``. Most rows start PATCHED, SPACE: those two
    run here, inline in the entry, and the rest in :func:`checks_from`.
    """
    if row.loop_from == 2:
        if not live.on:
            return NOT_PATCHED
        reason = (<Judge> row.judge).reason(space)
        if reason is not None or row.quick == QUICK_ALWAYS or (
                row.quick == QUICK_WITHOUT_ARGUMENTS and first is None and second is None and third is None) or (
                row.quick == QUICK_WITH_AN_ARRAY and type(first) is NDARRAY):
            return reason
    return checks_from(row, live, space, first, second, third, args, kwargs)


cdef object checks_from(Operation row, Live live, space, first, second, third, tuple args, dict kwargs):
    """The first failing of ``row``'s checks from the driver's loop start on (see :func:`first_failure`)."""
    cdef int i, check
    for i in range(row.loop_from, row.check_count):
        check = row.check_list[i]
        if check == CHECK_PATCHED:
            if not live.on:
                return NOT_PATCHED
        elif check == CHECK_OWN_RULES:
            if not live.built_in_rules:
                return PROGRAM_RULE
        elif check == CHECK_SPACE:
            reason = (<Judge> row.judge).reason(space)
            if reason is not None:
                return reason
        elif check == CHECK_TREE:
            reason = tree_reason(space)
            if reason is not None:
                return reason
        elif check == CHECK_NO_MASK:
            if first is not None or second is not None:
                return BOX_ARGUMENTS
        elif check == CHECK_NOT_OPTIMIZED:
            if first is not None or second is not None:
                return OPTIMIZED_ARGUMENTS
        elif check == CHECK_EXACT_MASKS:
            # An ndarray subclass: Gymnasium's code may return one.
            if (first is not None and type(first) is not NDARRAY and type(first) is not tuple) or (
                    second is not None and type(second) is not NDARRAY and type(second) is not tuple):
                return MASK_TYPE
        elif check == CHECK_QUIET_MASKED_DRAWS:
            # A uint64 MultiDiscrete's masked draws are int64 indices added to uint64
            # starts: float64 sums, whose cast back numpy may warn about.
            if (first is not None or second is not None) and vars(space).get("dtype") == UINT64:
                return MASKED_IN_FLOATS
        elif check == CHECK_EXACT_ARRAY:
            if type(first) is not NDARRAY:
                return NOT_AN_ARRAY
        elif check == CHECK_NO_PROBABILITY:
            if second is not None:
                return GRAPH_PROBABILITY
        elif check == CHECK_EDGES_HAVE_SPACE:
            if third is not None and vars(space).get("edge_space") is None:
                return EDGES_WITHOUT_SPACE
        elif check == CHECK_QUIET_CAST:
            if first is not MISSING and row.may_warn(space, first):
                return MAY_WARN_CAST
        elif check == CHECK_RELEASE:
            if not release_proves(row, space, first, second, args, kwargs):
                return RELEASE_ARGUMENTS
    return None


cdef bint release_proves(Operation row, space, first, second, tuple args, dict kwargs) except -1:
    if row.name == "sample":
        return (first is None and second is None) or row.release_proven(first, second)
    if row.name == "contains":
        return row.release_proven(space, first)
    return row.release_proven(space, *args, **kwargs)


def method_entry(Operation row, compiled, original, Live live):
    """``sample(self, mask=None, probability=None)`` or ``contains(self, x)`` of
    ``row``: gymspaces' ``compiled`` method where the row proves the call,
    Gymnasium's ``original`` otherwise; both called as ``(self, mask,
    probability)`` or ``(self, x)``."""
    label = row.label

    if row.name == "sample":
        def sample(self, mask=None, probability=None):
            reason = first_failure(row, live, self, mask, probability, None, None, None)
            if reason is None:
                failure = None
                try:
                    return compiled(self, mask, probability)
                except Exception as error:
                    failure = error
                return recover(row, live, failure, original, (self, mask, probability), None)
            if live.note_plain is not None:
                live.note_plain(label, self, reason)
            return original(self, mask, probability)

        return sample

    if row.name != "contains":
        raise ValueError(f"no method entry for {row!r}")

    def contains(self, x):
        reason = first_failure(row, live, self, x, None, None, None, None)
        if reason is None:
            failure = None
            try:
                return compiled(self, x)
            except Exception as error:
                failure = error
            return recover(row, live, failure, original, (self, x), None)
        if live.note_plain is not None:
            live.note_plain(label, self, reason)
        return original(self, x)

    return contains


def graph_sample_entry(Operation row, compiled, original, Live live):
    """Graph's ``sample(self, mask=None, probability=None, num_nodes=10, num_edges=None)``
    of ``row``: gymspaces' ``compiled`` (called as ``(self, mask, num_nodes,
    num_edges)``) where every node of the graph's tree passes its judge and the
    arguments are ones Gymnasium's code answers without a warning."""
    label = row.label

    def sample(self, mask=None, probability=None, num_nodes=10, num_edges=None):
        reason = first_failure(row, live, self, mask, probability, num_edges, None, None)
        if reason is None:
            failure = None
            try:
                return compiled(self, mask, num_nodes, num_edges)
            except Exception as error:
                failure = error
            return recover(row, live, failure, original, (self, mask, probability, num_nodes, num_edges), None)
        if live.note_plain is not None:
            live.note_plain(label, self, reason)
        return original(self, mask, probability, num_nodes, num_edges)

    return sample


cdef object gymnasiums(dict originals, space):
    """Gymnasium's own rule for ``space``: that of the nearest class in its MRO."""
    for klass in type(space).__mro__:
        rule = originals.get(klass)
        if rule is not None:
            return rule
    raise StopIteration  # (as the generator expression it stands for)


def _translating(rows):
    """``rows``, a generator of gymspaces', raising Gymnasium's namesake of a
    gymspaces error it raises: ``iterate`` of a Dict is a generator in both
    libraries, whose child's error comes from the first ``next``, after the
    rule has returned."""
    failure = None
    try:
        yield from rows
        return
    except GYMSPACES_ERRORS as error:
        failure = error
    raise gymnasium_error(failure)


def explain(Operation row, Live live, space, tuple args, dict kwargs):
    """The reason ``row``'s entry gives for a call on ``space`` with ``args`` and
    ``kwargs`` (the arguments after the space), or None: it runs compiled. The
    entries' own driver, run without the call (``plain_reason``)."""
    if row.name == "contains":
        return first_failure(row, live, space, argument(args, kwargs, 0, "x", MISSING), None, None, EMPTY, None)
    if row.name == "sample":  # (mask, probability[, num_nodes, num_edges])
        return first_failure(row, live, space, argument(args, kwargs, 0, "mask", None),
                             argument(args, kwargs, 1, "probability", None),
                             argument(args, kwargs, 3, "num_edges", None), EMPTY, None)
    return helper_call_failure(row, live, space, args, kwargs)


cdef inline object helper_call_failure(Operation row, Live live, space, tuple args, dict kwargs):
    value = args[row.value_at] if len(args) > row.value_at else MISSING
    return first_failure(row, live, space, value, None, None, args, kwargs)


cdef object argument(tuple args, dict kwargs, Py_ssize_t position, str name, default):
    if len(args) > position:
        return args[position]
    return kwargs.get(name, default)


cdef object general_rule(Operation row, helper, Live live, dict originals):
    """gymspaces' ``helper`` as ``row``'s rule of Gymnasium's dispatcher: the general rule.

    It runs for a space only when every node of the space's tree is provably
    compiled, and Gymnasium's own rule (``originals``, by class) otherwise.
    It raises Gymnasium's exceptions where gymspaces raises its own. When
    ``live`` is off (the patch that registered it was undone: singledispatch's
    cache may hand it out after ``unpatch`` when a lookup in another thread
    raced the registration), it runs Gymnasium's rule too.
    """

    def rule(space, *args, **kwargs):
        reason = helper_call_failure(row, live, space, args, kwargs)
        if reason is not None:
            if live.note_plain is not None:
                live.note_plain(row.label, space, reason)
            return gymnasiums(originals, space)(space, *args, **kwargs)
        failure = None
        try:
            result = helper(space, *args, **kwargs) if kwargs else helper(space, *args)
        except Exception as error:
            failure = error
        else:
            if type(result) is NDARRAY:  # (no graph in it)
                return result
            if type(result) is GENERATOR_TYPE:
                return _translating(result)
            return result if row.convert is None else row.convert(result)
        return recover(row, live, failure, gymnasiums(originals, space), (space,) + args, kwargs)

    return rule


cdef class _CheckedRule:
    """What a checked rule does once its kernel has run (:meth:`after`): its row,
    the patch that made it, the general rule behind it and Gymnasium's rules."""

    cdef Operation row
    cdef Live live
    cdef object general
    cdef dict originals

    def __init__(self, Operation row, Live live, general, dict originals):
        self.row, self.live, self.general, self.originals = row, live, general, originals

    cdef object after(self, result, failure, space, tuple args, dict kwargs):
        """For the kernel's error, what the general rule does with one (:func:`recover`);
        else the kernel's answer, or the general rule's where it gave none (``UNANSWERED``)."""
        if failure is not None:
            return recover(self.row, self.live, failure, gymnasiums(self.originals, space), (space,) + args, kwargs)
        if result is not UNANSWERED:
            return result
        return self.general(space, *args, **kwargs)


def helper_rule(Operation row, helper, Live live, dict originals, tuple fallbacks=None):
    """``row``'s rule of Gymnasium's helper: its checked kernel first where the
    row has one (it answers, or leaves the call to the general rule), else the
    general rule (:func:`general_rule`).

    The checked kernels read only exact dicts, tuples, lists and ndarrays of
    the value (no code of the caller's runs in them), so a kernel that answers
    None has had no effect and the general rule decides afresh; one that
    raises fails as the general rule would (:func:`recover`), without running
    a second time. ``concatenate`` takes the fallbacks of gymspaces' own rules,
    ``(leaf, tree)``; on releases whose release rules check its arguments, it is left
    to the general rule.
    """
    general = general_rule(row, helper, live, originals)
    if not row.checked:
        return general
    cdef _CheckedRule checked = _CheckedRule(row, live, general, originals)
    if row.name == "flatten" or row.name == "unflatten":
        return one_value_rule(row.name == "unflatten", checked)
    if row.name not in CHECKED:
        raise ValueError(f"no checked kernel for {row.name!r}")

    def rule(space, *args, **kwargs):
        # The kernel takes the call only with the row's number of positional arguments.
        if not rules_on(live) or kwargs or not row.least_arguments <= len(args) <= row.most_arguments:
            return general(space, *args, **kwargs)
        result, failure = UNANSWERED, None
        try:
            result = run_checked(row, space, args, fallbacks)
        except Exception as error:
            failure = error
        return checked.after(result, failure, space, args, kwargs)

    return rule


cdef object UNANSWERED = object()  # what run_checked gives for a call its kernel leaves to the general rule


cdef inline object run_checked(Operation row, space, tuple args, tuple fallbacks):
    """The checked kernel of ``row`` on the call, or ``UNANSWERED`` (it had no effect)."""
    if row.kernel == KERNEL_FLATDIM:
        result = flatdim_checked(space)
    elif row.kernel == KERNEL_CONCATENATE:
        # gymspaces' own concatenate of the tree, kernel first, without its
        # dispatcher: the compiled copy with the very fallbacks its rules pass
        # (``stack_items`` for an array leaf, the general rule for a Tuple or
        # Dict). On releases whose release rules check its arguments, and for a
        # tree with a node its judge refuses, the general rule decides.
        if row.release_proven is not None or tree_reason(space) is not None:
            return UNANSWERED
        fallback = fallbacks[0] if is_array_leaf(registry, space_class(registry, space)) else fallbacks[1]
        result = concatenate_tree(space, args[0], args[1], fallback)
    elif row.kernel == KERNEL_WRITE:
        # (A write the kernel takes is whole: it checks every leaf before it
        # writes, so nothing is written when it answers False.)
        return None if write_checked(space, args[0], args[1], args[2]) else UNANSWERED
    else:
        result = read_checked(space, args[0], args[1] if len(args) == 2 else 1)
    return UNANSWERED if result is None else result


cdef object one_value_rule(bint unflatten, _CheckedRule checked):
    """The rule of a helper of a space and one value (``flatten``, ``unflatten``): its
    checked kernel, a C call, when it answers; else the general rule."""
    general, live = checked.general, checked.live

    def rule(space, x=MISSING, *args, **kwargs):
        if x is MISSING:
            return general(space, *args, **kwargs)
        if not rules_on(live) or args or kwargs:
            return general(space, x, *args, **kwargs)
        result, failure = UNANSWERED, None
        try:
            result = unflatten_checked(space, x) if unflatten else flatten_checked(space, x)
        except Exception as error:
            failure = error
        return checked.after(UNANSWERED if result is None else result, failure, space, (x,), kwargs)

    return rule


def registry_first(dict registry, original):
    """``original``, the ``dispatch`` of a ``functools.singledispatch``
    function over ``registry``, answering a class registered exactly from the
    registry, in C; any other class (and every call on a free-threaded build,
    where a borrowed registry entry could vanish) goes to ``original``.

    The same answer: ``dispatch(cls)`` is ``registry[cls]`` for every key of
    the registry (its cache is cleared by each ``register``, the registry's
    only writer). Installed in the dispatcher's closure, this spares every
    patched helper call Gymnasium's Python-level dispatch (a weak-keyed cache
    lookup, ~0.1 us), which is most of what a helper of a small space costs.
    """
    if GS_FREE_THREADED:
        return original

    def dispatch(cls):
        # (A hash that fails leaves the call to ``original``, which raises it.)
        cdef PyObject *found = PyDict_GetItem(registry, cls)
        if found != NULL:
            return <object> found
        return original(cls)

    return dispatch


cdef class GraphInstances:
    """``converter(value)``: ``value`` with every ``ours`` graph in it made a
    ``theirs`` (``theirs(*graph)``), through tuples and dicts; the value itself
    when it holds none."""

    cdef type ours
    cdef object theirs

    def __init__(self, type ours, theirs):
        self.ours = ours
        self.theirs = theirs

    def __call__(self, value):
        return self.converted(value)

    cdef object converted(self, value):
        cdef type kind = type(value)
        cdef list items
        cdef dict entries
        cdef bint changed = False
        if kind is NDARRAY:
            return value
        if kind is self.ours:
            return self.theirs(*value)
        if kind is tuple:
            items = []
            for item in <tuple> value:
                new = self.converted(item)
                changed = changed or new is not item
                items.append(new)
            return tuple(items) if changed else value
        if kind is dict:
            entries = {}
            for key, item in (<dict> value).items():
                new = self.converted(item)
                changed = changed or new is not item
                entries[key] = new
            return entries if changed else value
        return value
