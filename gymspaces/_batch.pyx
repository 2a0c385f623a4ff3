"""Kernel of ``concatenate`` for Tuple/Dict trees of fundamental spaces.

``concatenate`` stacks single samples into a batch array (``np.stack(items,
out=out)`` per leaf). For trees of Box, Discrete, MultiDiscrete and MultiBinary
spaces this module walks the tree in C and copies each sample straight into
its row of ``out`` when the sample already has ``out``'s dtype and row shape;
anything else is handed back to the general implementation, leaf by leaf.
"""

cimport numpy as cnp
import builtins

from cpython.dict cimport PyDict_Next
from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport PyObject, PyTypeObject, Py_TYPE
from cpython.ref cimport Py_XDECREF, Py_XINCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy
from numpy cimport npy_intp

from gymspaces._attrs cimport PyDict_GetItemWithError, sample_item
from gymspaces._nesting cimport MAX_KERNEL_DEPTH
from gymspaces._registry cimport Registry, is_array_leaf, space_class

import numpy as np

from gymspaces import _registry

cnp.import_array()

# Columns of up to this many samples are gathered on the stack.
cdef enum:
    STACK_ROWS = 64

# The space classes, the alias table and the switches (see _registry.pxd).
cdef Registry registry = _registry.REGISTRY


cdef inline bint raw_copyable(int type_num) noexcept:
    """Whether elements of ``type_num`` may be copied as raw bytes.

    Only fixed-size numeric types: object dtypes hold references that a byte
    copy would not take, and flexible (``S``/``U``/``V``) or structured dtypes
    carry a size, fields or references that ``type_num`` alone does not fix.
    Long doubles are left out too: their padding bytes are not part of the
    value, and numpy's copy decides what they hold. Everything else is left
    to ``np.stack``, which copies reference-safely.
    """
    if type_num == cnp.NPY_LONGDOUBLE or type_num == cnp.NPY_CLONGDOUBLE:
        return False
    return (cnp.PyTypeNum_ISBOOL(type_num) or cnp.PyTypeNum_ISINTEGER(type_num)
            or cnp.PyTypeNum_ISFLOAT(type_num) or cnp.PyTypeNum_ISCOMPLEX(type_num))


cdef bint copy_rows(PyObject **column, npy_intp n, cnp.ndarray out):
    """Copy the ``n`` samples of ``column`` into their rows of ``out``; ``False``
    (nothing written) unless each sample already has ``out``'s dtype and row
    shape, and that dtype is a fixed-size numeric one (see ``raw_copyable``).

    ``column`` holds owned references (see :func:`gather_column`): the numpy
    calls below may allocate, and a garbage collection started by an
    allocation may run code that edits the containers the samples came from.
    """
    cdef npy_intp row_bytes, i
    cdef int j
    cdef int type_num = cnp.PyArray_TYPE(out)
    cdef int ndim = cnp.PyArray_NDIM(out)
    cdef npy_intp itemsize = cnp.PyArray_ITEMSIZE(out)
    cdef cnp.dtype out_descr = <cnp.dtype> cnp.PyArray_DESCR(out)
    cdef PyTypeObject *scalar_type = <PyTypeObject *> out_descr.typeobj
    cdef cnp.ndarray item_array
    cdef cnp.dtype item_descr
    cdef object item
    cdef char *data
    cdef char *begin
    cdef char *end
    if (n == 0 or ndim < 1 or cnp.PyArray_DIM(out, 0) != n or not raw_copyable(type_num)
            or not cnp.PyArray_IS_C_CONTIGUOUS(out) or not cnp.PyArray_ISNOTSWAPPED(out)
            or not cnp.PyArray_ISWRITEABLE(out)):
        return False
    row_bytes = cnp.PyArray_NBYTES(out) // n
    begin = <char *> cnp.PyArray_DATA(out)
    end = begin + cnp.PyArray_NBYTES(out)
    for i in range(n):
        item = <object> column[i]
        if cnp.PyArray_Check(item):
            item_array = <cnp.ndarray> item
            if (cnp.PyArray_TYPE(item_array) != type_num
                    or cnp.PyArray_ITEMSIZE(item_array) != itemsize
                    or not cnp.PyArray_IS_C_CONTIGUOUS(item_array)
                    or not cnp.PyArray_ISNOTSWAPPED(item_array)
                    or cnp.PyArray_NDIM(item_array) != ndim - 1
                    or cnp.PyArray_NBYTES(item_array) != row_bytes):
                return False
            for j in range(ndim - 1):
                if cnp.PyArray_DIM(item_array, j) != cnp.PyArray_DIM(out, j + 1):
                    return False
            # A sample that is a view of ``out`` itself (overlapping memcpy is
            # undefined behaviour): np.stack handles the overlap.
            if (row_bytes > 0 and <char *> cnp.PyArray_DATA(item_array) < end
                    and <char *> cnp.PyArray_DATA(item_array) + row_bytes > begin):
                return False
        elif Py_TYPE(item) == scalar_type:
            # Exactly ``out``'s scalar type (np.int64 for an int64 batch): same
            # type number and size, without looking up a descriptor.
            if ndim != 1:
                return False
        elif isinstance(item, np.generic):
            if ndim != 1:
                return False
            item_descr = cnp.PyArray_DescrFromScalar(item)
            if item_descr.type_num != type_num or item_descr.itemsize != itemsize:
                return False
        else:
            return False
    data = begin
    for i in range(n):
        item = <object> column[i]
        if cnp.PyArray_Check(item):
            memcpy(data + i * row_bytes, cnp.PyArray_DATA(<cnp.ndarray> item), row_bytes)
        else:
            cnp.PyArray_ScalarAsCtype(item, data + i * row_bytes)
    return True


cdef void release(PyObject **column, Py_ssize_t count) noexcept:
    """Drop the first ``count`` references of ``column``."""
    cdef Py_ssize_t i
    for i in range(count):
        Py_XDECREF(column[i])


cdef bint copy_list(list items, cnp.ndarray out) except -1:
    """``copy_rows`` of a list of samples."""
    cdef npy_intp n = len(items)
    cdef npy_intp i
    cdef PyObject *stack[STACK_ROWS]
    cdef PyObject **column = stack
    if n > STACK_ROWS:
        column = <PyObject **> malloc(n * sizeof(PyObject *))
        if column == NULL:
            raise MemoryError()
    for i in range(n):
        column[i] = PyList_GET_ITEM(items, i)
        Py_XINCREF(column[i])
    try:
        return copy_rows(column, n, out)
    finally:
        release(column, n)
        if column != stack:
            free(column)


cdef bint gather_column(list items, object key, bint by_key, PyObject **column, Py_ssize_t *taken) except -1:
    """Owned ``item[key]`` of every item into ``column`` (``taken``: how many, for the
    caller to release); ``False`` when an item is not an exact dict (``by_key``)
    or tuple, or lacks the entry.

    Only ``str`` keys of exact dicts and indices of exact tuples are looked up
    here. Anything else, including the error of a missing entry, is left to
    the general code, which raises as Gymnasium does.
    """
    cdef Py_ssize_t i, n = len(items), index = 0
    cdef PyObject *found
    if not by_key:
        index = key
    for i in range(n):
        sample = <object> PyList_GET_ITEM(items, i)  # owned: a key's __eq__ may edit ``items``
        found = sample_item(sample, key, index, by_key)
        if found == NULL:
            return False
        Py_XINCREF(found)
        column[i] = found
        taken[0] = i + 1
    return True


cdef object concatenate_leaf_column(object child, list items, object key, bint by_key, object out_part):
    """The leaf ``child``'s column copied straight from the items into
    ``out_part`` (returned), or ``None`` when the kernel does not cover it."""
    cdef npy_intp n = len(items)
    cdef PyObject *stack[STACK_ROWS]
    cdef PyObject **column = stack
    cdef Py_ssize_t taken = 0
    cdef object copied = None
    if n == 0 or not cnp.PyArray_Check(out_part) or not is_array_leaf(registry, space_class(registry, child)):
        return None
    if by_key and type(key) is not str:
        return None
    if n > STACK_ROWS:
        column = <PyObject **> malloc(n * sizeof(PyObject *))
        if column == NULL:
            raise MemoryError()
    try:
        if gather_column(items, key, by_key, column, &taken) and copy_rows(column, n, <cnp.ndarray> out_part):
            copied = out_part
    finally:
        release(column, taken)
        if column != stack:
            free(column)
    return copied


# What concatenate_node returns for a tree deeper than MAX_KERNEL_DEPTH.
cdef object TOO_DEEP = object()


cdef object concatenate_node(object space, list items, object out, object fallback, int depth):
    """``concatenate`` of the node ``space`` at ``depth`` (0 at the root): Dict and
    Tuple nodes walked here, leaves copied, anything else by ``fallback``, the
    general rule; ``TOO_DEEP`` past ``MAX_KERNEL_DEPTH`` levels."""
    cdef type cls = space_class(registry, space)
    cdef Py_ssize_t pos = 0
    cdef PyObject *key_ptr
    cdef PyObject *child_ptr
    cdef PyObject *found
    cdef dict result
    if depth > MAX_KERNEL_DEPTH:
        return TOO_DEEP
    if cls is registry.Dict:
        children = space.spaces
        result = {}
        if type(children) is dict and type(out) is dict:
            # Gymnasium reads the column, then ``out[key]``: a leaf whose column
            # and destination are found without running Python code is copied
            # directly; anything else takes the general steps below.
            while PyDict_Next(<dict> children, &pos, &key_ptr, &child_ptr):
                key = <object> key_ptr
                child = <object> child_ptr
                found = PyDict_GetItemWithError(out, key) if type(key) is str else NULL
                if found != NULL:
                    part = <object> found  # owned: the copy below may run code that edits ``out``
                    copied = concatenate_leaf_column(child, items, key, True, part)
                    if copied is not None:
                        result[key] = copied
                        continue
                value = concatenate_node(child, [item[key] for item in items], out[key], fallback, depth + 1)
                if value is TOO_DEEP:
                    return TOO_DEEP
                result[key] = value
            return result
        for key, child in space.items():
            value = concatenate_node(child, [item[key] for item in items], out[key], fallback, depth + 1)
            if value is TOO_DEEP:
                return TOO_DEEP
            result[key] = value
        return result
    if cls is registry.Tuple:
        parts = []
        for index, child in enumerate(space.spaces):
            if type(out) is tuple and index < PyTuple_GET_SIZE(out):
                # (borrowed from ``out``, a tuple this call holds: it cannot lose it)
                copied = concatenate_leaf_column(child, items, index, False,
                                                 <object> PyTuple_GET_ITEM(out, index))
                if copied is not None:
                    parts.append(copied)
                    continue
            value = concatenate_node(child, [item[index] for item in items], out[index], fallback, depth + 1)
            if value is TOO_DEEP:
                return TOO_DEEP
            parts.append(value)
        return as_tuple(parts)
    if is_array_leaf(registry, cls) and cnp.PyArray_Check(out):
        if copy_list(items, <cnp.ndarray> out):
            return out
    # Any other child (or a leaf sample the copy does not cover): the general rule.
    return fallback(space, items, out)


# Called on a generator, never inlined by Cython (see as_tuple).
cdef object _tuple_of_iterable = builtins.tuple


cpdef tuple as_tuple(list parts):
    """``tuple(parts)``, built as Gymnasium builds its tuples: from a generator.

    That matters only for an empty one: a generator has no length hint, and
    CPython 3.10 then makes a new empty tuple where ``tuple([])`` returns the
    ``()`` singleton. The identity is observable (``concatenate(space, items,
    out) is out`` for an empty Tuple), so it follows Gymnasium's.
    """
    if parts:
        return tuple(parts)
    return _tuple_from_generator(parts)


def _tuple_from_generator(list parts):
    return _tuple_of_iterable(part for part in parts)


cpdef object concatenate_tree(space, items, out, fallback):
    """``concatenate`` of an exact Tuple/Dict/fundamental space whose samples come as
    a list or tuple; ``None`` when the kernel is off or the call is not covered.

    ``fallback(space, items, out)`` -- the general ``concatenate`` -- handles
    the children and leaf samples the kernel does not copy itself.
    """
    cdef type cls = space_class(registry, space)
    if not registry.concatenate_enabled or type(items) not in (list, tuple):
        return None
    if cls is not registry.Dict and cls is not registry.Tuple and not is_array_leaf(registry, cls):
        return None
    result = concatenate_node(space, list(items), out, fallback, 0)
    # Too deep a tree is left whole to the general rule, which recurses in
    # Python frames (RecursionError where Gymnasium's would). It writes what the
    # walk wrote, in the same order, so starting over changes nothing.
    return None if result is TOO_DEEP else result


# ----------------------------------------------------------------------------
# iterate
# ----------------------------------------------------------------------------
#
# ``iterate`` of a batched Dict yields, per row ``i``, the dict of its children's
# ``i``-th items, where an array leaf's item is ``leaf[i]`` (what iterating the
# array gives: a row view, or a numpy scalar for a 1-D array) and a Tuple child's
# item is the tuple of its children's items. ``DictRows`` produces those rows
# one at a time from a plan of the tree made when iteration starts; any tree,
# batch or registration it does not cover (other spaces or containers, 0-d
# arrays, leaves of unequal length...) is left to the general implementation.

from cpython.dict cimport PyDict_SetItem
from cpython.sequence cimport PySequence_GetItem
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF

cdef extern from "numpy/arrayobject.h":
    # Steals the reference to ``descr``.
    object PyArray_NewFromDescr(PyTypeObject *subtype, cnp.PyArray_Descr *descr, int nd,
                                npy_intp *dims, npy_intp *strides, void *data, int flags,
                                PyObject *obj)
    object PyArray_Scalar(void *data, cnp.PyArray_Descr *descr, object base)
    bint PyDataType_HASSUBARRAY(cnp.PyArray_Descr *descr)


cdef inline bint iterates_rows(type cls) noexcept:
    """Whether batches of ``cls`` (an exact type) iterate as their array's rows."""
    return cls is registry.Box or cls is registry.MultiDiscrete or cls is registry.MultiBinary


cdef class Node:
    """A Dict (``keys`` set) or Tuple (``keys`` is ``None``) of the plan; each
    child is a ``Node`` or the batch array of a leaf."""
    cdef tuple keys
    cdef list children


cdef object make_plan(object space, object items, npy_intp *length, int depth):
    """The plan of ``space``'s rows in ``items`` (a ``Node`` or a leaf's array),
    or ``None`` if not covered (nodes deeper than ``MAX_KERNEL_DEPTH`` included;
    ``depth`` is 0 at the root). ``length`` collects the common length of every
    leaf (-1 before the first)."""
    cdef type cls = space_class(registry, space)
    cdef Node node
    cdef PyObject *found
    cdef npy_intp n
    cdef Py_ssize_t index
    if depth > MAX_KERNEL_DEPTH:
        return None
    if iterates_rows(cls):
        if type(items) is not cnp.ndarray or cnp.PyArray_NDIM(<cnp.ndarray> items) < 1:
            return None
        n = cnp.PyArray_DIM(<cnp.ndarray> items, 0)
        if length[0] >= 0 and length[0] != n:
            return None
        length[0] = n
        return items
    if cls is registry.Dict:
        children = space.spaces
        if type(items) is not dict or type(children) is not dict or len(<dict> children) == 0:
            return None
        node = Node.__new__(Node)
        node.keys = tuple(<dict> children)
        node.children = []
        for key in node.keys:
            found = PyDict_GetItemWithError(items, key)
            if found == NULL:
                return None
            child_items = <object> found  # owned: planning the child may run code that edits ``items``
            child = make_plan((<dict> children)[key], child_items, length, depth + 1)
            if child is None:
                return None
            node.children.append(child)
        return node
    if cls is registry.Tuple:
        children = space.spaces
        if (type(items) is not tuple or type(children) is not tuple or len(<tuple> children) == 0
                or len(<tuple> items) < len(<tuple> children)):
            return None
        node = Node.__new__(Node)
        node.keys = None
        node.children = []
        for index in range(len(<tuple> children)):
            child = make_plan((<tuple> children)[index], (<tuple> items)[index], length, depth + 1)
            if child is None:
                return None
            node.children.append(child)
        return node
    return None


cdef object array_item(cnp.ndarray array, Py_ssize_t i):
    """``array[i]``, as iterating ``array`` (an exact ndarray) yields it.

    Like numpy's own ``array[i]``: a scalar read at row ``i`` of a 1-D array,
    else a view of the row whose base is ``array`` and whose flags follow from
    ``array``'s. Dtypes with a sub-array (which reshape views) use numpy's path.
    """
    cdef cnp.PyArray_Descr *descr = cnp.PyArray_DESCR(array)
    cdef char *data
    if i >= cnp.PyArray_DIM(array, 0) or PyDataType_HASSUBARRAY(descr):
        return PySequence_GetItem(array, i)
    data = cnp.PyArray_BYTES(array) + i * cnp.PyArray_STRIDE(array, 0)
    if cnp.PyArray_NDIM(array) == 1:
        return PyArray_Scalar(data, descr, array)
    Py_INCREF(<object> descr)
    view = PyArray_NewFromDescr(
        <PyTypeObject *> cnp.ndarray, descr, cnp.PyArray_NDIM(array) - 1,
        cnp.PyArray_DIMS(array) + 1, cnp.PyArray_STRIDES(array) + 1, data,
        cnp.PyArray_FLAGS(array), NULL)
    cnp.set_array_base(view, array)
    return view


cdef object row_of(object plan, Py_ssize_t i):
    cdef Py_ssize_t index, count
    cdef object value
    cdef dict result
    cdef tuple parts
    cdef Node node
    if type(plan) is not Node:
        return array_item(<cnp.ndarray> plan, i)
    node = <Node> plan
    count = len(node.children)
    if node.keys is not None:
        result = {}
        for index in range(count):
            PyDict_SetItem(result, node.keys[index], row_of(node.children[index], i))
        return result
    parts = PyTuple_New(count)
    for index in range(count):
        value = row_of(node.children[index], i)
        Py_INCREF(value)
        PyTuple_SET_ITEM(parts, index, value)
    return parts


cdef class DictRows:
    """Iterator over the rows of a planned batch."""
    cdef object root
    cdef Py_ssize_t length
    cdef Py_ssize_t position

    def __iter__(self):
        return self

    def __next__(self):
        if self.position >= self.length:
            raise StopIteration
        item = row_of(self.root, self.position)
        self.position += 1
        return item


def iterate_rows(space, items):
    """An iterator over the rows of the batch ``items`` of the batched Dict/Tuple
    ``space``, or ``None`` when the kernel is off or does not cover the call."""
    cdef npy_intp length = -1
    if not registry.iterate_enabled:
        return None
    root = make_plan(space, items, &length, 0)
    if type(root) is not Node:  # not covered (a bare leaf is not a Dict/Tuple batch)
        return None
    cdef DictRows rows = DictRows.__new__(DictRows)
    rows.root = root
    rows.length = length
    rows.position = 0
    return rows
