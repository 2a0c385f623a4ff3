"""Kernels of the jsonable conversions: ``to_jsonable`` of batches.

``Box.to_jsonable`` and ``MultiDiscrete.to_jsonable`` are ``[s.tolist() for s
in samples]`` and ``Discrete.to_jsonable`` is ``[int(x) for x in samples]``.
For a 1-D, aligned, native ndarray of bool/integer/float32/float64 the list
``tolist`` returns is built here from the same C conversions numpy's getitem
uses (float32 widened to double, integers as Python ints, bools as the
singletons); any other sample goes through ``tolist()``/``int()`` itself.

``Dict.to_jsonable`` and ``Tuple.to_jsonable`` build the column of each such
child straight from the samples (no per-child list of samples first) while the
child's ``to_jsonable`` is the built-in one; other children convert their own
column.
"""

cimport numpy as cnp
from cpython.float cimport PyFloat_FromDouble
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromLong, PyLong_FromLongLong, PyLong_FromUnsignedLong, PyLong_FromUnsignedLongLong
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from numpy cimport npy_intp

from gymspaces._attrs cimport instance_dict, sample_item
from gymspaces._dtypes cimport (
    EL_BOOL, EL_DOUBLE, EL_FLOAT, EL_HALF, EL_INT8, EL_INT16, EL_INT32, EL_INT64, EL_UINT8, EL_UINT16, EL_UINT32,
    EL_UINT64, Element, array_element, as_double, bool_t, half_t, numeric_t,
)
from gymspaces._registry cimport Registry, space_class
from gymspaces._scalars cimport integer_scalar_bits

import numpy as np

from gymspaces import _registry

cnp.import_array()

cdef object INT64_SCALAR = np.int64
# The leaf classes whose built-in ``to_jsonable`` the Dict/Tuple kernels apply
# themselves, those methods, and the alias table (see _registry.pxd).
cdef Registry registry = _registry.REGISTRY

cdef enum:
    CONVERT_NONE = 0
    CONVERT_ROWS = 1
    CONVERT_INTS = 2


cdef inline object py_value(numeric_t value):
    """One element as ``tolist`` gives it, from the C conversion numpy's getitem
    uses: a Python float (float16/32 widened), int or bool."""
    if numeric_t is bool_t:
        return value.value != 0
    elif numeric_t is half_t or numeric_t is float or numeric_t is double:
        return PyFloat_FromDouble(as_double(value))
    elif numeric_t is int64_t:
        return PyLong_FromLongLong(value)
    elif numeric_t is uint64_t:
        return PyLong_FromUnsignedLongLong(value)
    elif numeric_t is uint32_t:
        return PyLong_FromUnsignedLong(value)
    else:
        return PyLong_FromLong(value)


cdef list row_list(const numeric_t *data, npy_intp stride, npy_intp n):
    """The ``n`` elements ``stride`` bytes apart from ``data`` as a list of Python values."""
    cdef list out = PyList_New(n)
    cdef npy_intp i
    cdef object item
    for i in range(n):
        item = py_value((<const numeric_t *> (<const char *> data + i * stride))[0])
        Py_INCREF(item)
        PyList_SET_ITEM(out, i, item)
    return out


cdef object fast_row(object sample):
    """``sample.tolist()`` for a covered 1-D ndarray, else ``None``."""
    if type(sample) is not cnp.ndarray:
        return None
    cdef cnp.ndarray a = <cnp.ndarray> sample
    if cnp.PyArray_NDIM(a) != 1 or not cnp.PyArray_ISNOTSWAPPED(a) or not cnp.PyArray_ISALIGNED(a):
        return None
    cdef npy_intp n = cnp.PyArray_DIM(a, 0)
    cdef npy_intp stride = cnp.PyArray_STRIDE(a, 0)
    cdef const char *data = <const char *> cnp.PyArray_DATA(a)
    cdef Element element = array_element(a)
    if element == EL_FLOAT: return row_list(<const float *> data, stride, n)
    if element == EL_DOUBLE: return row_list(<const double *> data, stride, n)
    if element == EL_INT64: return row_list(<const int64_t *> data, stride, n)
    if element == EL_HALF: return row_list(<const half_t *> data, stride, n)
    if element == EL_BOOL: return row_list(<const bool_t *> data, stride, n)
    if element == EL_INT8: return row_list(<const int8_t *> data, stride, n)
    if element == EL_INT16: return row_list(<const int16_t *> data, stride, n)
    if element == EL_INT32: return row_list(<const int32_t *> data, stride, n)
    if element == EL_UINT8: return row_list(<const uint8_t *> data, stride, n)
    if element == EL_UINT16: return row_list(<const uint16_t *> data, stride, n)
    if element == EL_UINT32: return row_list(<const uint32_t *> data, stride, n)
    if element == EL_UINT64: return row_list(<const uint64_t *> data, stride, n)
    return None  # long double, complex, objects...: numpy's own ``tolist``


cdef object fast_int(object x):
    """``int(x)`` for a Python int or a numpy int64 scalar, else ``None``."""
    cdef uint64_t bits
    if type(x) is int:
        return x
    if type(x) is INT64_SCALAR and integer_scalar_bits(x, &bits):
        return PyLong_FromLongLong(<int64_t> bits)
    return None


def rows_tolist(sample_n):
    """``[sample.tolist() for sample in sample_n]``."""
    cdef list out = []
    for sample in sample_n:
        row = fast_row(sample)
        out.append(sample.tolist() if row is None else row)
    return out


cdef int column_conversion(object space):
    """Which conversion ``space.to_jsonable`` is, when it is a built-in one."""
    cdef object cls = space_class(registry, space)
    cdef int conversion
    cdef object expected
    if cls is registry.Box:
        conversion, expected = CONVERT_ROWS, registry.box_to_jsonable
    elif cls is registry.MultiDiscrete:
        conversion, expected = CONVERT_ROWS, registry.multi_discrete_to_jsonable
    elif cls is registry.Discrete:
        conversion, expected = CONVERT_INTS, registry.discrete_to_jsonable
    else:
        return CONVERT_NONE
    if getattr(cls, "to_jsonable") is not expected:
        return CONVERT_NONE
    cdef dict namespace = instance_dict(space)
    if namespace is not None and "to_jsonable" in namespace:
        return CONVERT_NONE
    return conversion


cdef object fused_column(object samples, object key, bint by_key, int conversion):
    """The JSON column of ``key`` built straight from a list/tuple of samples, or
    ``None`` when a sample is not an exact dict/tuple holding a covered value."""
    cdef Py_ssize_t count = len(samples)
    cdef Py_ssize_t i, index = 0
    cdef PyObject *found
    cdef list out = PyList_New(count)
    if not by_key:
        index = key
    i = 0
    for sample in samples:
        if i >= count:  # the list grew meanwhile (a key's __eq__, say)
            return None
        found = sample_item(sample, key, index, by_key)
        if found == NULL:
            return None
        # Owned before anything allocates: a collection run by an allocation may
        # call code that removes the entry from the sample.
        entry = <object> found
        value = fast_row(entry) if conversion == CONVERT_ROWS else fast_int(entry)
        if value is None:
            return None
        Py_INCREF(value)
        PyList_SET_ITEM(out, i, value)
        i += 1
    if i != count:
        return None
    return out


cdef object child_column(object child, object samples, object key, bint by_key, bint sequence):
    """``child.to_jsonable([s[key] for s in samples])``, built here when the child's conversion is a built-in one."""
    cdef int conversion
    if sequence:
        conversion = column_conversion(child)
        if conversion != CONVERT_NONE:
            column = fused_column(samples, key, by_key, conversion)
            if column is not None:
                return column
    return child.to_jsonable([sample[key] for sample in samples])


def dict_to_jsonable(dict spaces, sample_n):
    """``{key: space.to_jsonable([s[key] for s in sample_n]) for key, space in spaces.items()}``."""
    cdef dict result = {}
    cdef bint sequence = type(sample_n) is list or type(sample_n) is tuple
    for key, child in spaces.items():
        result[key] = child_column(child, sample_n, key, True, sequence)
    return result


def tuple_to_jsonable(tuple spaces, sample_n):
    """``[space.to_jsonable([s[i] for s in sample_n]) for i, space in enumerate(spaces)]``."""
    cdef list result = []
    cdef Py_ssize_t index
    cdef bint sequence = type(sample_n) is list or type(sample_n) is tuple
    for index in range(len(spaces)):
        # A Python int: samples are indexed with Python's checks.
        result.append(child_column(spaces[index], sample_n, <object> index, False, sequence))
    return result
