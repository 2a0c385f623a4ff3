"""The per-call code of patch mode, compiled.

What runs on every patched call -- the ``sample`` and ``contains`` installed
on Gymnasium's classes, the rules registered with Gymnasium's helpers -- is
built here, with what it decides from handed in by :mod:`._entries` (the
judges, the release's rules, Gymnasium's own code). Each decides as the
rules of :mod:`._guard` say and then runs gymspaces' compiled method or
Gymnasium's own; written in C, the decision costs tens of nanoseconds
rather than a Python frame or two.

The flatten family goes first through its checked kernels (``*_checked`` in
``gymspaces/_flatten.pyx``), which decide while they walk: each node passes
its judge, and each value is read only where Gymnasium's own code could not
warn. They answer ``None`` for anything else, and the general rule then
decides the call as every other helper's does.
"""

import sys
import types

from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject

import numpy as np

from gymspaces._batch cimport concatenate_tree
from gymspaces._flatten cimport flatdim_checked, flatten_checked, unflatten_checked
from gymspaces.gymnasium._judge cimport Judge, tree_reason
from gymspaces._registry cimport Registry, is_array_leaf, space_class
from gymspaces._rng cimport GS_FREE_THREADED
from gymspaces._shared_memory cimport read_checked, write_checked

from gymspaces import _registry

cdef type NDARRAY = np.ndarray
cdef type GENERATOR_TYPE = types.GeneratorType
# Under ``python -O`` Gymnasium skips its asserts: masks and probabilities go plain.
cdef bint OPTIMIZED = bool(sys.flags.optimize)
cdef object MISSING = object()
cdef Registry registry = _registry.REGISTRY


cdef class Live:
    """Whether the patch that made an entry is still in effect (entries handed
    out earlier -- a bound method kept by user code -- run Gymnasium's code after
    ``unpatch()``), and where calls that run plain are noted."""

    cdef public bint on
    # Whether gymspaces' helpers resolved gymspaces' space classes to
    # gymspaces' own rules when patched: a rule a user had registered there is
    # not registered for Gymnasium's classes, whose helper calls then run
    # Gymnasium's code (see _patch).
    cdef public bint own_rules
    # note_plain(label, space): records a call that ran Gymnasium's code, and
    # why (the report's, set by patch(report=True)); None when not recording.
    cdef public object note_plain

    def __cinit__(self):
        self.on = True
        self.own_rules = True
        self.note_plain = None


cdef inline bint rules_on(Live live) noexcept:
    """Whether the helper rules ``live`` made run gymspaces' code: still patched,
    and gymspaces' helpers resolved its classes to its own rules then."""
    return live.on and live.own_rules


cdef class Failures:
    """How a compiled call's failure reaches the caller: gymspaces' ``errors``
    leave as ``translate(error)`` (Gymnasium's namesake)."""

    cdef readonly tuple errors
    cdef readonly object translate

    def __init__(self, tuple errors, translate):
        self.errors = errors
        self.translate = translate


cdef inline bint plain_arguments(mask, probability):
    """Arguments a fundamental space leaves to Gymnasium: an ndarray subclass (plain
    code may return it), anything under ``python -O`` (plain skips its asserts)."""
    if mask is None and probability is None:
        return False
    if OPTIMIZED:
        return True
    return (mask is not None and type(mask) is not NDARRAY and type(mask) is not tuple) or (
        probability is not None and type(probability) is not NDARRAY and type(probability) is not tuple
    )


FUNDAMENTAL, COMPOSITE, BOX = 0, 1, 2
"""What arguments a class's ``sample`` may run compiled with (``sample_entry``'s ``kind``)."""


def sample_entry(str name, int kind, compiled, original, Live live, Judge judge, Failures failures, *,
                 masked_in_floats=None, release_proven=None, bint rerun=False, whole_tree=None):
    """``sample(self, mask=None, probability=None)`` for Gymnasium's class ``name``.

    Parameters
    ----------
    kind : int
        ``FUNDAMENTAL``: masks and probabilities run compiled unless
        :func:`plain_arguments` says otherwise; ``COMPOSITE``: they run compiled
        except under ``python -O``; ``BOX``: any mask or probability runs plain
        (Gymnasium raises, in its words).
    compiled, original : callable
        gymspaces' method and Gymnasium's, called as ``(self, mask, probability)``.
    judge : gymspaces.gymnasium._judge.Judge
        Its ``reason(space)``: why the space cannot run compiled, or None.
    masked_in_floats : callable, optional
        ``masked_in_floats(space)``: masked draws of ``space`` are computed in
        floats that numpy may warn about casting back (then plain).
    release_proven : callable, optional
        ``release_proven(mask, probability)``: the installed release gives
        1.4.0's outcome for these arguments.
    rerun : bool
        A failure runs again as Gymnasium's (releases that word errors otherwise).
    whole_tree : callable, optional
        ``whole_tree(space)``: why some node of the space's tree runs plain
        (Sequence, whose stacked sample reads its feature space directly).
    """
    label = f"{name}.sample"

    def sample(self, mask=None, probability=None):
        cdef bint plain
        cdef bint given
        if live.on and judge.reason(self) is None:
            given = mask is not None or probability is not None
            if kind == FUNDAMENTAL:
                plain = plain_arguments(mask, probability) or (
                    given and masked_in_floats is not None and masked_in_floats(self))
            elif kind == COMPOSITE:
                plain = OPTIMIZED and given
            else:
                plain = given
            if not plain and given and release_proven is not None:
                plain = not release_proven(mask, probability)
            if not plain and whole_tree is not None:
                plain = whole_tree(self) is not None
            if not plain:
                try:
                    return compiled(self, mask, probability)
                except Exception as error:
                    if rerun:
                        return original(self, mask, probability)
                    if not isinstance(error, failures.errors):
                        raise
                    failure = error
                raise failures.translate(failure)
        if live.note_plain is not None:
            live.note_plain(label, self)
        return original(self, mask, probability)

    return sample


def contains_entry(str name, compiled, original, Live live, Judge judge, Failures failures, *,
                   bint arrays_only=False, release_proven=None):
    """``contains(self, x)`` for Gymnasium's class ``name``: compiled when the
    space passes ``judge.reason`` (and, with ``arrays_only``, ``x`` is an exact ndarray:
    Gymnasium casts anything else with numpy, and may warn)."""
    label = f"{name}.contains"

    def contains(self, x):
        if (live.on and (not arrays_only or type(x) is NDARRAY) and judge.reason(self) is None
                and (release_proven is None or release_proven(self, x))):
            try:
                return compiled(self, x)
            except failures.errors as error:
                failure = error
            raise failures.translate(failure)
        if live.note_plain is not None:
            live.note_plain(label, self)
        return original(self, x)

    return contains


cdef class Helper:
    """What a rule of Gymnasium's helper needs besides gymspaces' ``helper``.

    Attributes
    ----------
    originals : dict
        Gymnasium's own rule by class (the rule of the nearest class in a
        space's MRO runs when the call is not proven).
    may_warn : callable or None
        ``may_warn(space, value)``: Gymnasium's helper may warn in a cast
        (then plain); ``value`` is the argument after the space (``flatten``,
        ``unflatten``) or the one after the index (``write_to_shared_memory``).
    release_proven : callable or None
        ``release_proven(space, *args, **kwargs)``: the installed release gives
        1.4.0's outcome for these arguments.
    rerun : bool
        A failure of gymspaces' helper runs again as Gymnasium's.
    convert : callable or None
        Applied to a result (Gymnasium's ``GraphInstance`` for gymspaces').
    wrap_generator : callable
        Wraps a generator result so that its lazy errors are translated too.
    """

    cdef readonly dict originals
    cdef readonly object release_proven
    cdef object may_warn, convert, wrap_generator
    cdef Py_ssize_t value_at  # the position of may_warn's value in the arguments after the space
    cdef bint rerun

    def __init__(self, dict originals, may_warn, release_proven, bint rerun, convert, wrap_generator,
                 Py_ssize_t value_at=0):
        self.originals = originals
        self.may_warn = may_warn
        self.value_at = value_at
        self.release_proven = release_proven
        self.rerun = rerun
        self.convert = convert
        self.wrap_generator = wrap_generator

    def failed(self, space, tuple args, dict kwargs, error, Failures failures):
        """What a call whose gymspaces code raised ``error`` does instead: Gymnasium's
        own rule (on releases that word such errors otherwise), else ``error``
        as Gymnasium's exception."""
        if self.rerun:
            return self.gymnasiums(space)(space, *args, **kwargs)
        if not isinstance(error, failures.errors):
            raise error
        raise failures.translate(error)

    cdef object gymnasiums(self, space):
        for klass in type(space).__mro__:
            rule = self.originals.get(klass)
            if rule is not None:
                return rule
        raise StopIteration  # (as the generator expression it stands for)


def guarded_rule(helper, Live live, Helper how, Failures failures):
    """gymspaces' ``helper`` as a rule of Gymnasium's dispatcher.

    It runs for a space only when every node of the space's tree is provably
    compiled, and Gymnasium's own rule (``how.originals``) otherwise. It raises
    Gymnasium's exceptions where gymspaces raises its own. When ``live`` is off
    (the patch that registered it was undone: singledispatch's cache may hand
    it out after ``unpatch`` when a lookup in another thread raced the
    registration), it runs Gymnasium's rule too.
    """

    def rule(space, *args, **kwargs):
        # (The tree's verdict: ``tree_reason`` of gymspaces.gymnasium._judge, whose judges
        # remember each node's verdict by the identity of its attributes.)
        if not rules_on(live) or tree_reason(space) is not None:
            return how.gymnasiums(space)(space, *args, **kwargs)
        if how.may_warn is not None and len(args) > how.value_at and how.may_warn(space, args[how.value_at]):
            return how.gymnasiums(space)(space, *args, **kwargs)
        if how.release_proven is not None and not how.release_proven(space, *args, **kwargs):
            return how.gymnasiums(space)(space, *args, **kwargs)
        try:
            result = helper(space, *args, **kwargs) if kwargs else helper(space, *args)
        except Exception as error:
            if how.rerun:
                return how.gymnasiums(space)(space, *args, **kwargs)
            if not isinstance(error, failures.errors):
                raise
            failure = error
        else:
            if type(result) is NDARRAY:  # (no graph in it)
                return result
            if type(result) is GENERATOR_TYPE:
                return how.wrap_generator(result)
            return result if how.convert is None else how.convert(result)
        raise failures.translate(failure)

    return rule


cdef object settled(bint answered, result, failure, space, tuple args, dict kwargs, general, Helper how,
                    Failures failures):
    """What a checked rule returns once its kernel has run: for the kernel's error,
    what the general rule would do with it (``how.failed``, called outside any
    except clause: nothing is being handled, as in the general rule); else the
    kernel's answer, or the general rule's where it gave none."""
    if failure is not None:
        return how.failed(space, args, kwargs, failure, failures)
    if answered:
        return result
    return general(space, *args, **kwargs)


CHECKED = frozenset(
    {"flatten", "unflatten", "flatdim", "concatenate", "write_to_shared_memory", "read_from_shared_memory"}
)
"""The helpers that have a checked kernel."""


def checked_rule(str name, general, Live live, Helper how, Failures failures, fallbacks=None):
    """Gymnasium's helper ``name`` as a rule: its checked kernel when that
    answers, else ``general(space, *args, **kwargs)``.

    Any other call shape goes to ``general``. The checked kernels read only
    exact dicts, tuples, lists and ndarrays of the value (no code of the
    caller's runs in them), so a kernel that answers None has had no effect
    and ``general`` decides afresh; one that raises fails as ``general``
    would have (``how.failed``: Gymnasium's exception, or Gymnasium's own
    code where the release says so), without running a second time.
    ``concatenate`` takes the fallbacks of gymspaces' own rules, ``(leaf,
    tree)``; on releases where ``how`` has argument rules, it is left to
    ``general``.
    """
    if name == "flatdim":
        def flatdim(space, *args, **kwargs):
            if not rules_on(live) or args or kwargs:
                return general(space, *args, **kwargs)
            result = failure = None
            try:
                result = flatdim_checked(space)
            except Exception as error:
                failure = error
            return settled(result is not None, result, failure, space, args, kwargs, general, how, failures)
        return flatdim
    if name == "flatten":
        return one_value_rule(flatten_checked_call, general, live, how, failures)
    if name == "unflatten":
        return one_value_rule(unflatten_checked_call, general, live, how, failures)
    if name == "concatenate":
        def concatenate(space, *args, **kwargs):
            # gymspaces' own concatenate of the tree, kernel first, without its
            # dispatcher: the compiled copy with the very fallbacks its rules
            # pass (``stack_items`` for an array leaf, the general rule for a
            # Tuple or Dict). A result of None leaves the call, whole, to ``general``.
            if (not rules_on(live) or len(args) != 2 or kwargs or how.release_proven is not None
                    or tree_reason(space) is not None):
                return general(space, *args, **kwargs)
            fallback = fallbacks[0] if is_array_leaf(registry, space_class(registry, space)) else fallbacks[1]
            result = failure = None
            try:
                result = concatenate_tree(space, args[0], args[1], fallback)
            except Exception as error:
                failure = error
            return settled(result is not None, result, failure, space, args, kwargs, general, how, failures)
        return concatenate
    if name == "write_to_shared_memory":
        def write_to_shared_memory(space, *args, **kwargs):
            # (A write the kernel takes is whole: it checks every leaf before it
            # writes, so nothing is written when it answers False.)
            cdef bint written = False
            if not rules_on(live) or len(args) != 3 or kwargs:
                return general(space, *args, **kwargs)
            failure = None
            try:
                written = write_checked(space, args[0], args[1], args[2])
            except Exception as error:
                failure = error
            return settled(written, None, failure, space, args, kwargs, general, how, failures)
        return write_to_shared_memory
    if name == "read_from_shared_memory":
        def read_from_shared_memory(space, *args, **kwargs):
            if not rules_on(live) or kwargs or not 1 <= len(args) <= 2:
                return general(space, *args, **kwargs)
            result = failure = None
            try:
                result = read_checked(space, args[0], args[1] if len(args) == 2 else 1)
            except Exception as error:
                failure = error
            return settled(result is not None, result, failure, space, args, kwargs, general, how, failures)
        return read_from_shared_memory
    raise ValueError(f"no checked kernel for {name!r}")


ctypedef object (*ValueKernel)(object, object)


cdef object flatten_checked_call(object space, object x):
    return flatten_checked(space, x)


cdef object unflatten_checked_call(object space, object x):
    return unflatten_checked(space, x)


cdef object one_value_rule(ValueKernel checked, general, Live live, Helper how, Failures failures):
    """The rule of a helper of a space and one value (``flatten``, ``unflatten``):
    ``checked(space, x)``, a C call, when it answers; else ``general``."""

    def rule(space, x=MISSING, *args, **kwargs):
        if x is MISSING:
            return general(space, *args, **kwargs)
        if not rules_on(live) or args or kwargs:
            return general(space, x, *args, **kwargs)
        result = failure = None
        try:
            result = checked(space, x)
        except Exception as error:
            failure = error
        return settled(result is not None, result, failure, space, (x,), kwargs, general, how, failures)

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
