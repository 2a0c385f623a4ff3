"""Kernel of ``write_to_shared_memory`` / ``read_from_shared_memory`` for trees of fixed-shape leaves.

Its one job: for a space that is a Box, Discrete, MultiDiscrete or MultiBinary,
or a Tuple/Dict tree of them, walk the value tree and the shared-memory tree
together in one compiled pass, copying each leaf's bytes straight into the
leaf's shared buffer (write) or building each leaf's numpy view of it (read).

Finding a leaf's bytes (``get_obj()``, the buffer protocol) costs more than
copying them, so the walk follows a *plan*: the tree's leaf addresses, sizes
and dtypes, built for a (space, shared memory) pair and kept on the space
(``space._shared_memory_plan``, one of ``KERNEL_CACHE_ATTRS``: never copied or
pickled), so it lives exactly as long as the space and is replaced when the
space is used with other memory. A plan holds strong references to every
child space, memory object and buffer it was built from (so no address it
holds can be freed), and every call first checks the plan against the live
objects by identity -- the memory, each child space, each memory leaf, each
leaf's ``dtype`` and shape -- and rebuilds it if anything changed.

What the plan does not cover is left to the Python implementation, which
gives Gymnasium's results and exceptions: any other space class anywhere in
the tree (the whole call), and per leaf a value that is not an ndarray of
exactly the leaf's dtype and size (or a scalar of a one-element leaf), or an
``index`` outside the leaf's rows.
"""

cimport numpy as cnp
from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport INT8_MAX, INT8_MIN, INT16_MAX, INT16_MIN, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN
from libc.stdint cimport UINT8_MAX, UINT16_MAX, UINT32_MAX, int64_t, uint64_t
from libc.string cimport memcpy, memmove
from numpy cimport npy_intp

from gymspaces._attrs cimport PyDict_GetItemWithError, attr, instance_dict
from gymspaces._nesting cimport MAX_KERNEL_DEPTH
from gymspaces._flatten cimport cast_is_quiet
from gymspaces._registry cimport Registry, is_array_leaf, kind_of, space_class
from gymspaces._rng cimport cache_namespace
from gymspaces._scalars cimport store_bits

import numpy as np

from gymspaces import _registry

cnp.import_array()

cdef extern from "Python.h":
    long long PyLong_AsLongLongAndOverflow(object value, int *overflow) except? -1
    Py_ssize_t PyLong_AsSsize_t(object value) except? -1

cdef extern from "numpy/arrayobject.h":
    # Steals the reference to ``descr``.
    object PyArray_NewFromDescr(PyTypeObject *subtype, cnp.PyArray_Descr *descr, int nd,
                                npy_intp *dims, npy_intp *strides, void *data, int flags,
                                PyObject *obj)

# The space classes, memory leaf classes, Python rules, alias table and
# switch (see _registry.pxd).
cdef Registry registry = _registry.REGISTRY

cdef enum:
    # numpy's dimension limit (64), less the leading row axis of a read.
    MAX_LEAF_DIMS = 63

# The instance attribute holding a space's plan (listed in space.KERNEL_CACHE_ATTRS).
cdef str PLAN_ATTR = "_shared_memory_plan"


# ----------------------------------------------------------------------------
# plans
# ----------------------------------------------------------------------------

cdef enum Kind:
    LEAF = 0
    TUPLE = 1
    DICT = 2


cdef class Plan:
    """One node of a plan: a leaf, or a Tuple/Dict with a plan per child.

    Every object it was built from is held here, and compared by identity
    with the live ones on every call (see ``still_valid``) -- except the root
    space, which holds the plan: a reference back would make a cycle that
    only the garbage collector frees, and the memory with it.
    """
    cdef int kind
    cdef object space         # None at the root (the live space is passed along)
    cdef object memory
    # Tuple/Dict: ``space.spaces`` when built, the Dict's keys in order, the children's plans.
    cdef object children_object
    cdef tuple keys
    cdef tuple children
    # Leaf: the space's dtype and shape objects when built.
    cdef object dtype
    cdef object shape
    cdef object scalar_type   # dtype.type: a numpy scalar of it is one element
    cdef int type_num
    cdef bint integer         # signed or unsigned integer dtype (Python ints fit)
    cdef int64_t lowest, highest
    # Leaf memory: ``owner`` exports the bytes (the ctypes array inside the
    # SynchronizedArray); ``holder`` is the SynchronizedArray (for a
    # SharedSlice: its ``buffer``); ``view`` keeps the export open.
    cdef object owner
    cdef object holder
    cdef object offset_object, nbytes_object  # a SharedSlice's, when built
    cdef Py_buffer view
    cdef bint has_view
    cdef char *data
    cdef Py_ssize_t nbytes
    cdef Py_ssize_t size      # elements per row (the leaf's shape)
    cdef Py_ssize_t itemsize
    cdef Py_ssize_t rowbytes
    cdef Py_ssize_t rows      # whole rows in the buffer; 0 makes every call fall back
    cdef bint aligned         # data on the dtype's alignment (a SharedSlice may start anywhere)
    cdef int ndim             # of a read view: 1 + the leaf's
    cdef npy_intp dims[MAX_LEAF_DIMS + 1]

    def __dealloc__(self):
        if self.has_view:
            PyBuffer_Release(&self.view)
            self.has_view = False

    def __reduce__(self):
        # A cache, rebuilt on first use: copies and pickles hold None (see _text.CharTable).
        return (type(None), ())


cdef bint supported(object space, int depth) except -1:
    """Whether every node of ``space`` is a class the kernel handles (classes only,
    so that a tree with a Text in it is turned down before any buffer is looked up)."""
    cdef type cls = space_class(registry, space)
    cdef object children
    if depth > MAX_KERNEL_DEPTH:
        return False
    if is_array_leaf(registry, cls):
        return True
    if cls is not registry.Dict and cls is not registry.Tuple:
        return False
    children = attr(instance_dict(space), space, "spaces")
    if cls is registry.Dict:
        if type(children) is not dict:
            return False
        for child in (<dict> children).values():
            if not supported(child, depth + 1):
                return False
        return True
    if type(children) is not tuple:
        return False
    for child in <tuple> children:
        if not supported(child, depth + 1):
            return False
    return True


cdef bint leaf_dtype_ok(object dtype) except -1:
    """Numeric dtypes whose elements are raw bytes a copy may move as they are:
    native order, no fields or sub-array, at most 8 bytes (no long double, whose
    padding bytes numpy's own copy decides)."""
    if not isinstance(dtype, np.dtype):
        return False
    return (dtype.kind in "biuf" and dtype.isnative and dtype.fields is None
            and dtype.subdtype is None and dtype.itemsize in (1, 2, 4, 8))


cdef object leaf_plan(object space, object memory):
    """The plan of one leaf, or ``None`` if the leaf or its memory is not covered."""
    cdef dict namespace = instance_dict(space)
    cdef object dtype = attr(namespace, space, "dtype")
    cdef object shape = attr(namespace, space, "_shape")
    cdef Plan plan
    cdef Py_ssize_t size = 1, offset = 0, nbytes, dim
    cdef int i
    if not leaf_dtype_ok(dtype) or type(shape) is not tuple or len(<tuple> shape) > MAX_LEAF_DIMS:
        return None
    for item in <tuple> shape:
        if type(item) is not int:
            return None
        dim = item
        if dim < 0 or (dim > 0 and size > INT32_MAX // dim):
            return None  # huge shapes: the Python implementation's arithmetic
        size *= dim
    plan = Plan.__new__(Plan)
    plan.kind = LEAF
    plan.space = space
    plan.memory = memory
    plan.dtype = dtype
    plan.shape = shape
    plan.scalar_type = dtype.type
    plan.type_num = (<cnp.dtype> dtype).type_num
    plan.itemsize = (<cnp.dtype> dtype).itemsize
    plan.integer = dtype.kind in "iu"
    if plan.integer:
        set_integer_range(plan, dtype.kind == "u")
    if type(memory) is registry.SynchronizedArray:
        plan.holder = memory
        plan.owner = memory.get_obj()
    elif type(memory) is registry.SharedSlice and type(memory.buffer) is registry.SynchronizedArray:
        if type(memory.offset) is not int or type(memory.nbytes) is not int:
            return None
        plan.holder = memory.buffer
        plan.owner = plan.holder.get_obj()
        plan.offset_object = memory.offset
        plan.nbytes_object = memory.nbytes
    else:
        return None
    try:
        PyObject_GetBuffer(plan.owner, &plan.view, PyBUF_WRITABLE)
    except (BufferError, TypeError, ValueError):
        return None  # read-only or not a buffer: the Python implementation says what it does
    plan.has_view = True
    if plan.offset_object is None:
        nbytes = plan.view.len
    else:
        offset = plan.offset_object
        nbytes = plan.nbytes_object
        # A slice outside the buffer would be clamped by memoryview slicing:
        # the Python implementation handles that.
        if offset < 0 or nbytes < 0 or offset > plan.view.len - nbytes:
            return None
    plan.data = <char *> plan.view.buf + offset
    plan.aligned = (<size_t> plan.data) % (<size_t> (<cnp.dtype> dtype).alignment) == 0
    plan.nbytes = nbytes
    plan.size = size
    plan.rowbytes = size * plan.itemsize
    # np.frombuffer refuses a buffer that is not a whole number of elements,
    # and a zero-size leaf has no rows to count: both always fall back.
    if size == 0 or nbytes % plan.itemsize != 0:
        plan.rows = 0
    else:
        plan.rows = (nbytes // plan.itemsize) // size
    plan.ndim = 1 + len(<tuple> shape)
    plan.dims[0] = 0
    for i in range(plan.ndim - 1):
        plan.dims[i + 1] = (<tuple> shape)[i]
    return plan


cdef void set_integer_range(Plan plan, bint unsigned) noexcept:
    """The Python ints ``np.asarray(value, dtype)`` stores without raising."""
    cdef Py_ssize_t itemsize = plan.itemsize
    plan.lowest = 0
    if unsigned:
        plan.highest = UINT8_MAX if itemsize == 1 else UINT16_MAX if itemsize == 2 else UINT32_MAX if itemsize == 4 else INT64_MAX
        return
    if itemsize == 1:
        plan.lowest, plan.highest = INT8_MIN, INT8_MAX
    elif itemsize == 2:
        plan.lowest, plan.highest = INT16_MIN, INT16_MAX
    elif itemsize == 4:
        plan.lowest, plan.highest = INT32_MIN, INT32_MAX
    else:
        plan.lowest, plan.highest = INT64_MIN, INT64_MAX


cdef object build(object space, object memory, int depth):
    """The plan of ``space`` over ``memory``, or ``None`` if any part is not covered."""
    cdef type cls = space_class(registry, space)
    cdef Plan plan, child
    cdef PyObject *found
    cdef Py_ssize_t i
    if depth > MAX_KERNEL_DEPTH:
        return None
    if is_array_leaf(registry, cls):
        return leaf_plan(space, memory)
    children = attr(instance_dict(space), space, "spaces")
    plans = []
    if cls is registry.Dict:
        if type(children) is not dict or type(memory) is not dict:
            return None
        keys = []
        for key, child_space in (<dict> children).items():
            found = PyDict_GetItemWithError(memory, key)
            if found == NULL:
                return None  # the Python implementation raises the KeyError
            child_memory = <object> found  # owned: building the child runs Python code
            child_plan = build(child_space, child_memory, depth + 1)
            if child_plan is None:
                return None
            keys.append(key)
            plans.append(child_plan)
    elif cls is registry.Tuple:
        if (type(children) is not tuple or type(memory) is not tuple
                or len(<tuple> memory) != len(<tuple> children)):
            return None  # zip(..., strict=True) raises in the Python implementation
        keys = None
        for i in range(len(<tuple> children)):
            child_plan = build((<tuple> children)[i], (<tuple> memory)[i], depth + 1)
            if child_plan is None:
                return None
            plans.append(child_plan)
    else:
        return None
    plan = Plan.__new__(Plan)
    plan.kind = DICT if cls is registry.Dict else TUPLE
    plan.space = space
    plan.memory = memory
    plan.children_object = children
    plan.keys = None if keys is None else tuple(keys)
    plan.children = tuple(plans)
    return plan


cdef bint leaf_still_valid(Plan plan, object space) except -1:
    cdef dict namespace = instance_dict(space)
    cdef object memory = plan.memory
    if attr(namespace, space, "dtype") is not plan.dtype or attr(namespace, space, "_shape") is not plan.shape:
        return False
    if plan.offset_object is not None:  # a SharedSlice: its slots may be reassigned
        if (memory.buffer is not plan.holder or memory.offset is not plan.offset_object
                or memory.nbytes is not plan.nbytes_object):
            return False
    return attr(instance_dict(plan.holder), plan.holder, "_obj") is plan.owner


cdef bint still_valid(Plan plan, object space) except -1:
    """Whether the live ``space`` and its children are still the ones ``plan`` was built from.

    The caller has checked ``space`` and ``plan.memory`` themselves. A
    Tuple's children and memory are immutable tuples (identity suffices); a
    Dict's ``spaces`` and memory dicts may have been edited in place, so
    every key and child is compared, in order.
    """
    cdef Plan child
    cdef Py_ssize_t i = 0, position = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef PyObject *found
    if plan.kind == LEAF:
        return leaf_still_valid(plan, space)
    children = attr(instance_dict(space), space, "spaces")
    if plan.kind == TUPLE:
        if children is not plan.children_object:
            return False
        for child in plan.children:
            if not still_valid(child, child.space):
                return False
        return True
    if type(children) is not dict or len(<dict> children) != len(plan.keys):
        return False
    while PyDict_Next(children, &position, &key, &value):
        if i >= len(plan.keys):
            return False  # the dict grew while its children were checked
        child = <Plan> plan.children[i]
        # Borrowed, but once identical to the plan's key and child they are
        # objects the plan owns: they outlive any code the checks below run.
        if <object> key is not plan.keys[i] or <object> value is not child.space:
            return False
        found = PyDict_GetItemWithError(plan.memory, <object> key)
        if found == NULL or <object> found is not child.memory:
            return False
        if not still_valid(child, child.space):
            return False
        i += 1
    return True


cdef object cached_plan(dict namespace, object space, object memory):
    """The plan kept on ``space`` if it was built for ``memory`` and still matches ``space``."""
    cdef PyObject *found
    cdef Plan plan
    if namespace is None:
        return None
    found = PyDict_GetItemWithError(cache_namespace(space, namespace), PLAN_ATTR)
    if found == NULL or type(<object> found) is not Plan:
        return None
    plan = <Plan> found
    if plan.memory is memory and still_valid(plan, space):
        return plan
    return None


cdef object plan_for(object space, object memory):
    """The plan of (``space``, ``memory``), cached on the space, checked or rebuilt;
    ``None`` if not covered."""
    cdef dict namespace = instance_dict(space)
    plan = cached_plan(namespace, space, memory)
    if plan is not None:
        return plan
    if not supported(space, 0):
        return None
    plan = build(space, memory, 0)
    if plan is None:
        return None
    (<Plan> plan).space = None  # the root: see Plan
    if namespace is not None:
        # Straight into the instance dict (a plan replaces the previous one):
        # a cache, not a change of the space's state.
        cache_namespace(space, namespace)[PLAN_ATTR] = plan
    return plan


cdef Py_ssize_t c_count(object number) except? -2:
    """An index or row count (an exact int) in C; -1, which no leaf accepts (the
    Python implementation then decides, as for any other out-of-range number),
    when it does not fit."""
    try:
        return PyLong_AsSsize_t(number)
    except OverflowError:
        return -1


def has_plan(space, shared_memory):
    """Whether ``space`` keeps a plan built for ``shared_memory`` that still matches both."""
    return cached_plan(instance_dict(space), space, shared_memory) is not None


# ----------------------------------------------------------------------------
# write
# ----------------------------------------------------------------------------

cdef bint copy_value(Plan plan, char *destination, object value, bint dry=False) except -1:
    """Copy ``value`` into one row of the leaf when it needs no conversion; ``False``
    (nothing written) otherwise.

    ``np.asarray(value, dtype).flatten()`` of an exact ndarray of the leaf's own
    dtype, C order and native bytes is its bytes as they are, so they are copied
    (memmove: a value may be a view of this very buffer). A one-element leaf
    also takes a numpy scalar of its dtype, a Python int its dtype holds (an
    int it does not hold raises in numpy) and, for float64, a Python float.
    Anything else -- other dtypes, broadcasting, non-contiguous or byte-swapped
    arrays, lists -- goes through numpy's conversion in the Python implementation.
    ``dry``: only whether it would copy (nothing written; ``destination`` unused).
    """
    cdef cnp.ndarray array
    cdef int overflow = 0
    cdef long long integer
    if type(value) is cnp.ndarray:
        array = <cnp.ndarray> value
        if (cnp.PyArray_TYPE(array) != plan.type_num or cnp.PyArray_SIZE(array) != plan.size
                or not cnp.PyArray_IS_C_CONTIGUOUS(array) or not cnp.PyArray_ISNOTSWAPPED(array)):
            return False
        if not dry:
            memmove(destination, cnp.PyArray_DATA(array), plan.rowbytes)
        return True
    if plan.size != 1:
        return False
    if type(value) is plan.scalar_type:
        if not dry:
            cnp.PyArray_ScalarAsCtype(value, destination)
        return True
    if not plan.aligned:
        return False  # the typed stores below need an aligned element
    if type(value) is int and plan.integer:
        integer = PyLong_AsLongLongAndOverflow(value, &overflow)
        if overflow or integer < plan.lowest or integer > plan.highest:
            return False
        if not dry:
            store_bits(destination, <int> plan.itemsize, 0, <uint64_t> integer)
        return True
    if type(value) is float and plan.type_num == cnp.NPY_DOUBLE:
        if not dry:
            (<double *> destination)[0] = <double> value
        return True
    return False


cdef bint copied_whole(Plan plan, Py_ssize_t index, object value) except -1:
    """Whether ``write_node`` would write ``value`` at row ``index`` all by itself:
    every leaf copied by ``copy_value``, through exact dicts and tuples only (no
    Python implementation, no code of the caller's runs)."""
    cdef Py_ssize_t i, count
    cdef PyObject *found
    if plan.kind == LEAF:
        return 0 <= index < plan.rows and copy_value(plan, NULL, value, True)
    if plan.kind == DICT:
        if type(value) is not dict:
            return False
        for i in range(len(plan.keys)):
            found = PyDict_GetItemWithError(value, plan.keys[i])
            if found == NULL or not copied_whole(<Plan> plan.children[i], index, <object> found):
                return False
        return True
    count = len(plan.children)
    if type(value) is not tuple or len(<tuple> value) != count:
        return False
    for i in range(count):
        if not copied_whole(<Plan> plan.children[i], index, (<tuple> value)[i]):
            return False
    return True


cdef int write_node(Plan plan, object space, object index_object, Py_ssize_t index, object value) except -1:
    """Write ``value`` at row ``index`` of the (validated) plan of the live ``space``."""
    cdef Py_ssize_t i, count
    cdef Plan child
    if plan.kind == LEAF:
        # Rows outside [0, rows): the Python implementation's slicing decides
        # (an error, a no-op, or a negative index counted from the end).
        if 0 <= index < plan.rows and copy_value(plan, plan.data + index * plan.rowbytes, value):
            return 0
        registry.write_shared_leaf(space, index_object, value, plan.memory)
        return 0
    if plan.kind == DICT:
        for i in range(len(plan.keys)):
            # value[key], in the space's key order: a missing key raises
            # KeyError once the keys before it are written, as in Python.
            child = <Plan> plan.children[i]
            write_node(child, child.space, index_object, index, value[plan.keys[i]])
        return 0
    count = len(plan.children)
    if type(value) is list:
        value = tuple(value)
    if type(value) is not tuple or len(<tuple> value) != count:
        # Other iterables and lengths: zip(..., strict=True) in Python.
        registry.write_shared_tuple(space, index_object, value, plan.memory)
        return 0
    for i in range(count):
        child = <Plan> plan.children[i]
        write_node(child, child.space, index_object, index, (<tuple> value)[i])
    return 0


def write_tree(space, index, value, shared_memory):
    """``write_to_shared_memory(space, index, value, shared_memory)`` when the kernel
    covers ``space`` and ``shared_memory``; returns ``False`` (nothing done) otherwise.

    Leaves whose value or ``index`` it does not copy itself are written by the
    Python implementation, in the tree's order, so results and exceptions are
    the Python implementation's.
    """
    if not registry.shared_memory_enabled or type(index) is not int:
        return False
    plan = plan_for(space, shared_memory)
    if plan is None:
        return False
    write_node(<Plan> plan, space, index, c_count(index), value)
    return True


cpdef bint write_checked(space, index, value, shared_memory) except -1:
    """Gymnasium's ``write_to_shared_memory`` of a Gymnasium space under patch mode:
    written when every node of ``space`` passes its judge and the kernel copies
    every leaf of ``value`` itself; ``False`` (nothing written) otherwise."""
    if not registry.shared_memory_enabled or type(index) is not int or registry.tree_reason(space) is not None:
        return False
    plan = plan_for(space, shared_memory)
    if plan is None or not copied_whole(<Plan> plan, c_count(index), value):
        return False
    write_node(<Plan> plan, space, index, c_count(index), value)
    return True


cpdef object read_checked(space, shared_memory, n):
    """Gymnasium's ``read_from_shared_memory`` of a Gymnasium space under patch mode,
    when every node of ``space`` passes its judge (``read_tree``); ``None`` otherwise."""
    if registry.tree_reason(space) is not None:
        return None
    return read_tree(space, shared_memory, n)


# ----------------------------------------------------------------------------
# read
# ----------------------------------------------------------------------------

cdef object read_node(Plan plan, object space, object n_object, Py_ssize_t n):
    """The views of the (validated) plan of the live ``space``."""
    cdef Py_ssize_t i, count
    cdef Plan child
    cdef npy_intp dims[MAX_LEAF_DIMS + 1]
    cdef tuple parts
    cdef dict result
    cdef int flags
    if plan.kind == LEAF:
        # np.frombuffer(...).reshape((n,) + shape): exactly n whole rows, else
        # the Python implementation raises numpy's error.
        if plan.rows == 0 or n < 0 or n != plan.rows or plan.nbytes != plan.rows * plan.rowbytes:
            return registry.read_shared_leaf(space, plan.memory, n_object)
        memcpy(dims, plan.dims, plan.ndim * sizeof(npy_intp))
        dims[0] = n
        # numpy takes these flags as given (it derives only the contiguity
        # from the strides it computes): claim alignment only where it holds.
        flags = cnp.NPY_ARRAY_C_CONTIGUOUS | cnp.NPY_ARRAY_WRITEABLE
        if plan.aligned:
            flags |= cnp.NPY_ARRAY_ALIGNED
        Py_INCREF(plan.dtype)
        view = PyArray_NewFromDescr(
            <PyTypeObject *> cnp.ndarray, <cnp.PyArray_Descr *> plan.dtype, plan.ndim, dims, NULL,
            plan.data, flags, NULL)
        # The view keeps the shared buffer alive, as np.frombuffer's does.
        cnp.set_array_base(view, plan.owner)
        return view
    count = len(plan.children)
    if plan.kind == DICT:
        result = {}
        for i in range(count):
            child = <Plan> plan.children[i]
            result[plan.keys[i]] = read_node(child, child.space, n_object, n)
        return result
    parts = PyTuple_New(count)
    for i in range(count):
        child = <Plan> plan.children[i]
        item = read_node(child, child.space, n_object, n)
        Py_INCREF(item)
        PyTuple_SET_ITEM(parts, i, item)
    return parts


def read_tree(space, shared_memory, n):
    """``read_from_shared_memory(space, shared_memory, n)`` when the kernel covers
    ``space`` and ``shared_memory``; ``None`` otherwise."""
    if not registry.shared_memory_enabled or type(n) is not int:
        return None
    plan = plan_for(space, shared_memory)
    if plan is None:
        return None
    return read_node(<Plan> plan, space, n, c_count(n))


# ----------------------------------------------------------------------------
# May a cast warn: patch mode's QUIET_CAST check of write_to_shared_memory
# ----------------------------------------------------------------------------

cpdef bint write_may_warn(space, value) except -1:
    """Whether Gymnasium's ``write_to_shared_memory(space, index, value, memory)``
    may warn in a cast (numpy's "invalid value", overflow, complex values cast
    to real; an int outside an integer dtype, which numpy 1.x warns about and
    2.x refuses): then its own rule runs. So do values read through code of
    the caller's (a mapping that is not a dict, an object numpy converts by
    its methods), which a check and the write would run twice. ``space``'s
    tree has been admitted by its judges (the TREE check runs first)."""
    return value_may_warn(space, value, 0)


cdef bint value_may_warn(space, value, int depth) except -1:
    cdef type cls = kind_of(registry, space)
    cdef dict namespace = instance_dict(space)
    if depth > MAX_KERNEL_DEPTH or namespace is None:
        return True
    if is_array_leaf(registry, cls):
        dtype = namespace.get("dtype")
        return not isinstance(dtype, cnp.dtype) or scalar_cast_may_warn(value, <cnp.dtype> dtype)
    if cls is registry.Tuple:
        if type(value) is not tuple:
            return True
        for child, item in zip(namespace["spaces"], <tuple> value):
            if value_may_warn(child, item, depth + 1):
                return True
        return False
    if cls is registry.Dict:
        if type(value) is not dict:
            return True
        for key, child in (<dict> namespace["spaces"]).items():
            if key in value and value_may_warn(child, (<dict> value)[key], depth + 1):
                return True
        return False
    if cls is registry.OneOf:
        if type(value) is not tuple or len(<tuple> value) != 2 or type((<tuple> value)[0]) is not int:
            return True
        children = namespace["spaces"]
        which = (<tuple> value)[0]
        return not 0 <= which < len(children) or value_may_warn(children[which], (<tuple> value)[1], depth + 1)
    return False  # (Gymnasium's write of the others casts nothing it could warn about)


cdef bint scalar_cast_may_warn(value, cnp.dtype dtype) except -1:
    """Whether ``np.asarray(value, dtype=dtype)`` may warn, or run the caller's code."""
    cdef type kind = type(value)
    if kind is bool:
        return False
    if kind is int and (dtype.kind == b'i' or dtype.kind == b'u'):
        # A Python int is converted, not cast: outside the dtype numpy 1.x
        # warns and 2.x raises, whatever np.errstate says.
        info = np.iinfo(dtype)
        return not int(info.min) <= value <= int(info.max)
    if kind is int or kind is float or isinstance(value, np.generic):
        try:
            array = np.asarray(value)
        except OverflowError:
            return True
    elif kind is cnp.ndarray:
        array = value
    else:
        return True
    return (<cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> array)).kind not in b"biufc" or not cast_is_quiet(array, dtype)
