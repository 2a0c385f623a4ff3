"""Kernel of ``concatenate`` for Tuple/Dict trees of fundamental spaces.

``concatenate`` stacks single samples into a batch array (``np.stack(items,
out=out)`` per leaf). For trees of Box, Discrete, MultiDiscrete and MultiBinary
spaces this module walks the tree in C and copies each sample straight into
its row of ``out`` when the sample already has ``out``'s dtype and row shape;
anything else is handed back to the general implementation, leaf by leaf.
"""

cimport numpy as cnp
from libc.string cimport memcpy
from numpy cimport npy_intp

import numpy as np

cnp.import_array()

cdef object TupleSpace = None
cdef object DictSpace = None
cdef tuple LEAF_SPACES = ()
cdef bint ENABLED = False


def configure(tuple_space, dict_space, tuple leaf_spaces, bint enabled=True):
    """Register the composite and leaf classes this kernel handles (exact types only)."""
    global TupleSpace, DictSpace, LEAF_SPACES, ENABLED
    TupleSpace, DictSpace, LEAF_SPACES, ENABLED = tuple_space, dict_space, leaf_spaces, enabled


def set_enabled(bint enabled):
    """Turn the kernel off, e.g. when a user re-registers a built-in rule."""
    global ENABLED
    ENABLED = enabled


cdef bint copy_rows(list column, cnp.ndarray out):
    """Copy every sample into its row of ``out``; ``False`` (nothing written) unless
    each sample already has ``out``'s dtype and row shape."""
    cdef npy_intp n = len(column)
    cdef npy_intp row_bytes, i
    cdef int type_num = cnp.PyArray_TYPE(out)
    cdef int ndim = cnp.PyArray_NDIM(out)
    cdef cnp.ndarray item_array
    cdef char *data
    if (n == 0 or ndim < 1 or cnp.PyArray_DIM(out, 0) != n
            or not cnp.PyArray_IS_C_CONTIGUOUS(out) or not cnp.PyArray_ISNOTSWAPPED(out)
            or not cnp.PyArray_ISWRITEABLE(out)):
        return False
    row_bytes = cnp.PyArray_NBYTES(out) // n
    for item in column:
        if cnp.PyArray_Check(item):
            item_array = <cnp.ndarray> item
            if (cnp.PyArray_TYPE(item_array) != type_num
                    or not cnp.PyArray_IS_C_CONTIGUOUS(item_array)
                    or not cnp.PyArray_ISNOTSWAPPED(item_array)
                    or cnp.PyArray_NDIM(item_array) != ndim - 1
                    or cnp.PyArray_NBYTES(item_array) != row_bytes):
                return False
            for i in range(ndim - 1):
                if cnp.PyArray_DIM(item_array, i) != cnp.PyArray_DIM(out, i + 1):
                    return False
        elif isinstance(item, np.generic):
            if ndim != 1 or cnp.PyArray_DescrFromScalar(item).type_num != type_num:
                return False
        else:
            return False
    data = <char *> cnp.PyArray_DATA(out)
    i = 0
    for item in column:
        if cnp.PyArray_Check(item):
            memcpy(data + i * row_bytes, cnp.PyArray_DATA(<cnp.ndarray> item), row_bytes)
        else:
            cnp.PyArray_ScalarAsCtype(item, data + i * row_bytes)
        i += 1
    return True


cdef object concatenate_node(object space, object items, object out, object fallback):
    cdef type cls = type(space)
    if cls is DictSpace:
        result = {}
        for key, child in space.items():
            result[key] = concatenate_node(child, [item[key] for item in items], out[key], fallback)
        return result
    if cls is TupleSpace:
        parts = []
        for index, child in enumerate(space.spaces):
            parts.append(concatenate_node(child, [item[index] for item in items], out[index], fallback))
        return tuple(parts)
    if cls in LEAF_SPACES and cnp.PyArray_Check(out):
        if copy_rows(<list> items, <cnp.ndarray> out):
            return out
    # Any other child (or a leaf sample the copy does not cover): the general rule.
    return fallback(space, items, out)


def concatenate_tree(space, items, out, fallback):
    """``concatenate`` of an exact Tuple/Dict/fundamental space whose samples come as
    a list or tuple; ``None`` when the kernel is off or the call is not covered.

    ``fallback(space, items, out)`` -- the general ``concatenate`` -- handles
    the children and leaf samples the kernel does not copy itself.
    """
    cdef type cls = type(space)
    if not ENABLED or type(items) not in (list, tuple):
        return None
    if cls is not DictSpace and cls is not TupleSpace and cls not in LEAF_SPACES:
        return None
    return concatenate_node(space, list(items), out, fallback)
