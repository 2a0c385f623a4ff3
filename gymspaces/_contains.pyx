"""Kernels of Dict and Tuple membership: the whole tree checked in one call.

``Dict.contains`` checks ``x[key] in child`` and ``Tuple.contains`` checks
``child.contains(part)`` for every child. The walk below does the same, but a
child whose ``contains`` is the built-in one of Box, Discrete, MultiDiscrete,
Dict or Tuple (looked up on its class, and not shadowed in the instance) is
checked by calling that kernel's C function directly; a Dict's child is only
taken there when its ``__contains__`` is ``Space.__contains__`` too, since
``in`` would call an override. Every other child, and every input the C checks
do not decide, goes through the ordinary Python call, so answers, warnings
and errors are those of the definitions.

``dict_contains_batch`` does the same for ``Dict.contains_batch`` over Box,
Discrete and MultiDiscrete children whose ``contains_batch`` is the built-in
one: one pass over each child's batch, answers AND-ed into one array.

Nesting depth: a walk into Dicts and Tuples nested more than
``sys.getrecursionlimit()`` levels deep (1,000 by default) raises
``RecursionError`` on every supported Python. The walk recurses on the C
stack, where Python 3.12+ no longer applies the recursion limit (it stops C
recursion only at a larger, fixed depth), so the walk counts its levels
itself; ``Py_EnterRecursiveCall`` stays as the guard of the C stack. On
Python 3.10 and 3.11 that guard counts Python frames too, so a call made deep
in the Python stack may stop sooner, as Python would.
"""

cimport numpy as cnp
from cpython.object cimport PyObject, PyTypeObject
from libc.string cimport memset
from numpy cimport npy_bool, npy_intp

from gymspaces._attrs cimport PyDict_GetItemWithError, _PyType_Lookup, attr, instance_dict
from gymspaces._box cimport box_contains_same_dtype, box_rows_contained
from gymspaces._discrete cimport discrete_contains_scalar, discrete_rows_contained
from gymspaces._multi_discrete cimport multi_discrete_contains_array, multi_discrete_rows_contained
from gymspaces._registry cimport Registry

import numpy as np

from gymspaces import _box, _discrete, _multi_discrete, _registry

cnp.import_array()

cdef extern from "Python.h":
    int Py_EnterRecursiveCall(const char *where) except -1
    int Py_GetRecursionLimit()
    int PyDict_Next(object d, Py_ssize_t *pos, PyObject **key, PyObject **value)
    void Py_LeaveRecursiveCall()

cdef enum Kind:
    OTHER, BOX, DISCRETE, MULTI_DISCRETE, DICT, TUPLE

# Space.__contains__ (``x in space`` calls ``space.contains(x)``) and the
# built-in contains_batch methods (see _registry.pxd).
cdef Registry registry = _registry.REGISTRY
# The built-in contains methods, held in C variables (compared on every child).
cdef object box_contains = _box.box_contains
cdef object discrete_contains = _discrete.discrete_contains
cdef object multi_discrete_contains = _multi_discrete.multi_discrete_contains
cdef object dict_method = None
cdef object tuple_method = None


cdef inline object class_attr(object space, str name):
    """``name`` as ``type(space)`` defines it (found along its MRO, no descriptor
    call), or ``None``: what a call on ``space`` uses unless the instance shadows it.

    CPython's ``_PyType_Lookup`` (which Cython's own generated code calls) is
    the lookup the interpreter makes; ``getattr(type(space), name)`` would also
    search the metaclass and bind class/static methods, and costs about 15 ns
    more per node. Its borrowed result is owned at once: nothing runs between.
    """
    cdef type cls = type(space)
    cdef PyObject *found = _PyType_Lookup(<PyTypeObject *> cls, <PyObject *> name)
    return None if found == NULL else <object> found


cdef inline bint shadowed(object space, str name) except -1:
    """Whether the instance holds its own ``name`` (which a call would use instead)."""
    cdef dict namespace = instance_dict(space)
    return namespace is not None and PyDict_GetItemWithError(namespace, name) != NULL


cdef inline Kind batch_kind(object method) noexcept:
    """Which built-in ``contains_batch`` ``method`` is (``OTHER``: none, or ``None``)."""
    if method is None:
        return OTHER
    if method is registry.box_contains_batch:
        return BOX
    if method is registry.discrete_contains_batch:
        return DISCRETE
    if method is registry.multi_discrete_contains_batch:
        return MULTI_DISCRETE
    return OTHER


cdef Kind kind_of(object space, bint by_in) except *:
    """The built-in ``contains`` that checking ``space`` runs (``by_in``: through ``in``)."""
    if by_in and class_attr(space, "__contains__") is not registry.space_contains:
        return OTHER
    method = class_attr(space, "contains")
    if method is None or shadowed(space, "contains"):
        return OTHER
    if method is box_contains:
        return BOX
    if method is discrete_contains:
        return DISCRETE
    if method is multi_discrete_contains:
        return MULTI_DISCRETE
    if method is dict_method:
        return DICT
    if method is tuple_method:
        return TUPLE
    return OTHER


cdef bint member(object space, object x, bint by_in, int depth) except -1:
    """``x in space`` (``by_in``) or ``space.contains(x)``, as a truth value, for a
    ``space`` nested ``depth`` Dict/Tuple levels deep in the walk."""
    cdef Kind kind = kind_of(space, by_in)
    if kind == DICT:
        return dict_member(space, x, depth + 1)
    if kind == TUPLE:
        return tuple_member(space, x, depth + 1)
    if kind == BOX:
        inside = box_contains_same_dtype(space, x)
    elif kind == DISCRETE:
        inside = discrete_contains_scalar(space, x)
    elif kind == MULTI_DISCRETE:
        inside = multi_discrete_contains_array(space, x)
    else:
        inside = None
    if inside is None:  # not decided in C: the ordinary call
        return x in space if by_in else bool(space.contains(x))
    return inside


cdef bint same_key_objects(dict x, dict children) noexcept:
    """Whether two dicts of one size hold the very same key objects in the same
    order (then their key sets are equal, without hashing a key). The borrowed
    keys are only compared, and nothing runs in between."""
    cdef Py_ssize_t x_pos = 0, children_pos = 0
    cdef PyObject *x_key
    cdef PyObject *child_key
    cdef PyObject *value
    while PyDict_Next(x, &x_pos, &x_key, &value):
        if not PyDict_Next(children, &children_pos, &child_key, &value) or x_key != child_key:
            return False
    return True


cdef int check_depth(int depth, str where) except -1:
    """Raise ``RecursionError`` past ``sys.getrecursionlimit()`` nested levels."""
    cdef int limit = Py_GetRecursionLimit()
    if depth > limit:
        raise RecursionError(
            f"maximum recursion depth exceeded in {where} (spaces nested more than "
            f"{limit} levels deep, sys.getrecursionlimit())")
    return 0


cdef bint dict_member(object space, object x, int depth) except -1:
    """``Dict.contains`` of the walk; ``depth``: 1 for the space checked, plus one
    for each Dict or Tuple around it."""
    cdef PyObject *found
    children = attr(instance_dict(space), space, "spaces")
    if not isinstance(x, dict):
        return False
    check_depth(depth, "Dict.contains")
    Py_EnterRecursiveCall(" in Dict.contains")
    try:
        if type(x) is dict and type(children) is dict:
            # x.keys() != children.keys(), as dict views compare: same size and
            # every key of x (in x's order) a key of children.
            if len(<dict> x) != len(<dict> children):
                return False
            if not same_key_objects(<dict> x, <dict> children):
                for key in <dict> x:
                    if key not in <dict> children:
                        return False
            for key, child in (<dict> children).items():
                found = PyDict_GetItemWithError(x, key)
                # Owned: the child's check may run code (a property, its contains) that edits x.
                value = <object> found if found != NULL else x[key]
                if not member(child, value, True, depth):
                    return False
            return True
        if x.keys() != children.keys():
            return False
        for key, child in children.items():
            if not member(child, x[key], True, depth):
                return False
        return True
    finally:
        Py_LeaveRecursiveCall()


cdef bint tuple_member(object space, object x, int depth) except -1:
    """``Tuple.contains`` of the walk (``depth``: see :func:`dict_member`)."""
    cdef Py_ssize_t i
    if isinstance(x, (np.ndarray, list)):
        x = tuple(x)  # arrays and lists count as tuples here
    children = attr(instance_dict(space), space, "spaces")
    if not isinstance(x, tuple) or len(x) != len(children):
        return False
    check_depth(depth, "Tuple.contains")
    Py_EnterRecursiveCall(" in Tuple.contains")
    try:
        if type(x) is tuple and type(children) is tuple:
            for i in range(len(<tuple> children)):
                if not member((<tuple> children)[i], (<tuple> x)[i], False, depth):
                    return False
            return True
        for child, part in zip(children, x, strict=True):
            if not member(child, part, False, depth):
                return False
        return True
    finally:
        Py_LeaveRecursiveCall()


def dict_contains(self, x):
    """Whether ``x`` is a dict with exactly the space's keys and valid values.

    Notes
    -----
    Dicts and Tuples nested more than ``sys.getrecursionlimit()`` levels deep
    (1,000 by default) raise ``RecursionError``, on every supported Python.
    (Gymnasium's ``contains`` recurses in Python and stops sooner: at about 250
    nested Dicts or 335 nested Tuples under the default limit.)

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)})
    >>> space.contains({"pos": np.zeros(2, dtype=np.float32), "action": 3})
    True
    >>> space.contains({"pos": np.zeros(2, dtype=np.float32)})  # a key is missing
    False
    """
    return dict_member(self, x, 1)


def tuple_contains(self, x):
    """Whether ``x`` (a tuple; lists and arrays are converted) matches every sub-space.

    Notes
    -----
    Nesting deeper than ``sys.getrecursionlimit()`` levels raises
    ``RecursionError``, as for :meth:`Dict.contains`.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Discrete, MultiBinary, Tuple
    >>> space = Tuple((Discrete(3), MultiBinary(2)))
    >>> space.contains((1, np.array([0, 1], dtype=np.int8)))
    True
    >>> space.contains((3, np.array([0, 1], dtype=np.int8))), space.contains((1,))
    (False, False)
    """
    return tuple_member(self, x, 1)


dict_method = dict_contains
tuple_method = tuple_contains


def dict_contains_batch(self, batch):
    """``Dict.contains_batch`` decided in C, or ``None`` to use the general rule.

    Decides a dict ``batch`` with exactly the space's keys holding, for every key, an array batch of the
    same length that its Box, Discrete or MultiDiscrete child (with the
    built-in ``contains_batch``) checks in C. Anything else returns ``None``.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box, Dict, Discrete
    >>> space = Dict({"pos": Box(-1, 1, shape=(2,)), "action": Discrete(4)})
    >>> pos = np.array([[0.5, 0.5], [0.0, 2.0]], dtype=np.float32)
    >>> space.contains_batch({"pos": pos, "action": np.array([1, 1])})  # the second pos is out of bounds
    array([ True, False])
    """
    cdef PyObject *found
    cdef Kind kind
    cdef npy_intp n = -1
    cdef cnp.ndarray out
    cdef npy_bool *inside_rows = NULL
    cdef int handled
    children = attr(instance_dict(self), self, "spaces")
    # The same size and every key of children found: the keys are the same.
    if type(batch) is not dict or type(children) is not dict or not children or len(batch) != len(children):
        return None
    for key, child in (<dict> children).items():
        found = PyDict_GetItemWithError(batch, key)
        if found == NULL:
            return None
        # Owned: allocating ``out`` (a garbage collection) or the child's checks may run code that edits batch.
        rows = <object> found
        if n < 0:  # the first child's batch gives the length, which every other must have
            if not cnp.PyArray_Check(rows) or cnp.PyArray_NDIM(<cnp.ndarray> rows) < 1:
                return None
            n = cnp.PyArray_DIM(<cnp.ndarray> rows, 0)
            out = cnp.PyArray_EMPTY(1, &n, cnp.NPY_BOOL, 0)
            inside_rows = <npy_bool *> cnp.PyArray_DATA(out)
            memset(inside_rows, 1, n)
        method = class_attr(child, "contains_batch")
        kind = batch_kind(method)
        if kind == OTHER:
            return None
        if shadowed(child, "contains_batch"):
            return None
        if kind == BOX:
            handled = box_rows_contained(child, rows, inside_rows, n)
        elif kind == DISCRETE:
            handled = discrete_rows_contained(child, rows, inside_rows, n)
        else:
            handled = multi_discrete_rows_contained(child, rows, inside_rows, n)
        if not handled:
            return None
    return out
