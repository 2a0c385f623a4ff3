"""Kernels of the flatten family: one-hot encoding and Tuple/Dict trees.

Each function handles the common case in C and returns ``None`` for anything
unusual (other dtypes, shapes, overflowing arithmetic...), in which case the
caller in :mod:`gymspaces.utils` runs the general numpy implementation, so
results and errors always match Gymnasium's.

``flatten_tree`` walks a Tuple/Dict tree whose leaves are Box, MultiBinary,
Discrete or MultiDiscrete spaces, gathers every leaf's data, then writes all of
it into one zero-initialised output of the promoted dtype -- no per-leaf
temporary arrays and no concatenation.
"""

cimport numpy as cnp
from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, INT32_MAX
from libc.float cimport FLT_MAX, FLT_MIN
from libc.math cimport fabs, isinf, ldexp
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from numpy cimport npy_intp

from gymspaces._arrays cimport as_c_array, same_dims
from gymspaces._attrs cimport PyDict_GetItemWithError, attr, instance_dict
from gymspaces._dtypes cimport (
    EL_BOOL, EL_DOUBLE, EL_FLOAT, EL_HALF, EL_INT8, EL_INT16, EL_INT32, EL_INT64, EL_UINT8, EL_UINT16, EL_UINT32,
    EL_UINT64, NO_KERNEL, NOT_NUMERIC, Element, array_element, as_bits, as_double, bool_t, element_bits, element_of,
    half_t, is_integer, no_kernel, numeric_t, unsigned_of,
)
from gymspaces._nesting cimport MAX_KERNEL_DEPTH
from gymspaces._registry cimport Registry, is_array_leaf, kind_of, space_class
from gymspaces._scalars cimport (
    add_overflows, int_bits, integer_scalar_bits, is_numpy_integer, make_scalar, native_integer_descr, store_bits,
    truncate_signed,
)

import threading
import warnings

from gymspaces import _registry
from gymspaces._sub_spaces import sub_spaces
from gymspaces._warnings import scalar_overflow_message

import numpy as np

cnp.import_array()

cdef extern from "numpy/halffloat.h" nogil:
    uint16_t npy_double_to_half(double d)

cdef extern from "numpy/arrayobject.h":
    # Steals the reference to ``descr``.
    object PyArray_NewFromDescr(PyTypeObject *subtype, cnp.PyArray_Descr *descr, int nd,
                                npy_intp *dims, npy_intp *strides, void *data, int flags,
                                PyObject *obj)

# The space classes, the generic dispatchers, the alias table and the switch (see _registry.pxd).
cdef Registry registry = _registry.REGISTRY


# ----------------------------------------------------------------------------
# Element access helpers
# ----------------------------------------------------------------------------

cdef inline bint is_signed_kind(cnp.dtype descr):
    return descr.kind == b'i'


cdef inline bint read_integer(cnp.dtype descr, object x, int64_t *value):
    """The value of ``x`` if it is an integer of ``descr``'s own type that fits int64."""
    cdef uint64_t bits
    cdef object x_type = type(x)
    if <void *> x_type == <void *> descr.typeobj:
        if not integer_scalar_bits(x, &bits):
            return False
        if not is_signed_kind(descr) and bits > <uint64_t> 0x7FFFFFFFFFFFFFFF:
            return False
        value[0] = <int64_t> bits
        return True
    if type(x) is int and descr.kind == b'i' and descr.itemsize == 8:
        try:
            value[0] = x
        except OverflowError:
            return False
        return True
    return False


cdef inline bint difference_in_dtype(cnp.dtype descr, int64_t a, int64_t b, int64_t *out):
    """``a - b`` as numpy computes it in ``descr`` -- only when nothing wraps."""
    cdef int64_t d
    if is_signed_kind(descr):
        if descr.itemsize == 8:
            if (b < 0 and a > 0x7FFFFFFFFFFFFFFF + b) or (b > 0 and a < (-0x7FFFFFFFFFFFFFFF - 1) + b):
                return False
            out[0] = a - b
            return True
        d = a - b
        if d != truncate_signed(<uint64_t> d, <int> descr.itemsize):
            return False
        out[0] = d
        return True
    if a < b:  # unsigned subtraction would wrap
        return False
    out[0] = a - b
    return True


cdef int store_one(char *data, Element element, npy_intp index) except -1:
    """``1`` at ``index`` of an array of ``element``."""
    if element == EL_DOUBLE: (<double *> data)[index] = 1.0
    elif element == EL_FLOAT: (<float *> data)[index] = 1.0
    elif element == EL_HALF: (<uint16_t *> data)[index] = 0x3C00  # float16 1.0
    elif element == EL_BOOL or element == EL_INT8 or element == EL_UINT8: (<uint8_t *> data)[index] = 1
    elif element == EL_INT16 or element == EL_UINT16: (<uint16_t *> data)[index] = 1
    elif element == EL_INT32 or element == EL_UINT32: (<uint32_t *> data)[index] = 1
    elif element == EL_INT64 or element == EL_UINT64: (<uint64_t *> data)[index] = 1
    else:
        no_kernel("one-hot", element)
    return 0


cdef int cast_into(const numeric_t *src, npy_intp count, char *dst, Element dst_element, int dst_size) noexcept nogil:
    """Copy ``count`` elements converting them as a numpy safe cast does: floats
    through double, integers as 64-bit patterns (exact for the casts numpy deems
    safe); ``NO_KERNEL`` for a float into an integer output (never safe)."""
    cdef npy_intp i
    if dst_element == EL_DOUBLE:
        for i in range(count):
            (<double *> dst)[i] = as_double(src[i])
    elif dst_element == EL_FLOAT:
        for i in range(count):
            (<float *> dst)[i] = <float> as_double(src[i])
    elif dst_element == EL_HALF:
        for i in range(count):
            (<uint16_t *> dst)[i] = npy_double_to_half(as_double(src[i]))
    elif numeric_t is double or numeric_t is float or numeric_t is half_t or numeric_t is bool_t:
        return NO_KERNEL  # (bool is cast as uint8, see copy_cast)
    else:
        for i in range(count):
            store_bits(dst, dst_size, i, as_bits(src[i]))
    return 0


cdef int copy_cast(char *dst, Element dst_element, int dst_size, const char *src, Element src_element,
                   npy_intp count) except -1:
    """``count`` elements of ``src_element`` copied into an array of ``dst_element``,
    the promotion of the parts' dtypes (so the cast is a safe one)."""
    cdef int done
    if src_element == dst_element:
        memcpy(dst, src, count * dst_size)
        return 0
    if src_element == EL_BOOL:  # its bytes are 0 or 1: cast as uint8
        src_element = EL_UINT8
    if src_element == EL_DOUBLE: done = cast_into(<const double *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_FLOAT: done = cast_into(<const float *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_HALF: done = cast_into(<const half_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_INT8: done = cast_into(<const int8_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_INT16: done = cast_into(<const int16_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_INT32: done = cast_into(<const int32_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_INT64: done = cast_into(<const int64_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_UINT8: done = cast_into(<const uint8_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_UINT16: done = cast_into(<const uint16_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_UINT32: done = cast_into(<const uint32_t *> src, count, dst, dst_element, dst_size)
    elif src_element == EL_UINT64: done = cast_into(<const uint64_t *> src, count, dst, dst_element, dst_size)
    else:
        done = NO_KERNEL
    if done == NO_KERNEL:
        no_kernel("flatten cast", (src_element, dst_element))
    return 0


# ----------------------------------------------------------------------------
# Discrete and MultiDiscrete one-hot encoding
# ----------------------------------------------------------------------------

cdef npy_intp discrete_index(space, dict namespace, object x, npy_intp *size) except -2:
    """Position of the 1 in Discrete's one-hot vector of ``x``; -1 means "not handled"."""
    cdef cnp.dtype descr = native_integer_descr(attr(namespace, space, "dtype"))
    cdef int64_t value = 0, start = 0, index  # set before use on every path; gcc cannot tell
    cdef uint64_t n = int_bits(attr(namespace, space, "n"))
    start_obj = attr(namespace, space, "start")
    if not read_integer(descr, x, &value):
        return -1
    if not read_integer(descr, start_obj, &start):
        return -1
    if n > <uint64_t> 0x7FFFFFFFFFFFFFFF or not difference_in_dtype(descr, value, start, &index):
        return -1
    size[0] = <npy_intp> n
    # numpy indexing: negative indices count from the end (quirk Q23, docs/quirks.md).
    if index < 0:
        index += <int64_t> n
        if index < 0:
            raise IndexError(f"index {index - <int64_t> n} is out of bounds for axis 0 with size {n}")
    elif index >= <int64_t> n:
        raise IndexError(f"index {index} is out of bounds for axis 0 with size {n}")
    return <npy_intp> index


cdef object one_hot(space, x):
    cdef dict namespace = instance_dict(space)
    cdef npy_intp size = 0
    cdef npy_intp index = discrete_index(space, namespace, x, &size)
    if index < 0:
        return None
    cdef cnp.dtype descr = native_integer_descr(attr(namespace, space, "dtype"))
    cdef cnp.ndarray out = cnp.PyArray_ZEROS(1, &size, descr.type_num, 0)
    store_one(<char *> cnp.PyArray_DATA(out), element_of(descr), index)
    return out


def discrete_one_hot(space, x):
    """``flatten(Discrete, x)`` for an integer ``x`` of the space's dtype, else ``None``."""
    return one_hot(space, x)


cdef object INT64_DESCR = np.dtype(np.int64)
cdef object INT64_TYPE = np.int64


cdef object int64_one_hot(space, x):
    """``one_hot`` for the default Discrete: int64 dtype, ``n``, ``start`` and ``x``
    all numpy int64 scalars, ``x`` in range; ``None`` for anything else."""
    cdef dict namespace = instance_dict(space)
    cdef PyObject *dtype
    cdef PyObject *n_obj
    cdef PyObject *start_obj
    cdef uint64_t bits
    cdef int64_t n, start, value, index
    if namespace is None or type(x) is not INT64_TYPE:
        return None
    # Borrowed, and read into C integers before anything can run code.
    dtype = PyDict_GetItemWithError(namespace, "dtype")
    n_obj = PyDict_GetItemWithError(namespace, "n")
    start_obj = PyDict_GetItemWithError(namespace, "start")
    if (dtype == NULL or n_obj == NULL or start_obj == NULL or <object> dtype is not INT64_DESCR
            or type(<object> n_obj) is not INT64_TYPE or type(<object> start_obj) is not INT64_TYPE):
        return None
    integer_scalar_bits(<object> n_obj, &bits)
    n = <int64_t> bits
    integer_scalar_bits(<object> start_obj, &bits)
    start = <int64_t> bits
    integer_scalar_bits(x, &bits)
    value = <int64_t> bits
    # In range without wrapping: start <= value < start + n (n > 0).
    if n <= 0 or value < start or <uint64_t> value - <uint64_t> start >= <uint64_t> n:
        return None
    index = <int64_t> (<uint64_t> value - <uint64_t> start)
    cdef npy_intp size = <npy_intp> n
    cdef cnp.ndarray out = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT64, 0)
    (<int64_t *> cnp.PyArray_DATA(out))[index] = 1
    return out


cdef inline object discrete_flat(space, x):
    """``flatten(Discrete, x)`` in C: the default int64 Discrete first, then any
    integer dtype; ``None`` for an input left to numpy."""
    result = int64_one_hot(space, x)
    return result if result is not None else one_hot(space, x)


# ``gymspaces.utils.flatten`` is this function: an exact Discrete (the most
# frequent flatten of a single value, e.g. a discrete action) is one-hot encoded
# here without going through the generic dispatcher (``registry.flatten``);
# every other call, and any Discrete input the kernel does not cover, goes to
# the registered rules.
def flatten(space, x, out=None):
    if out is not None:
        return flatten_into(space, x, out)
    return flatten_value(space, x)


cdef object flatten_value(space, x):
    cdef object result
    cdef type cls = space_class(registry, space)
    if registry.flatten_enabled:
        if cls is registry.Discrete:
            result = discrete_flat(space, x)
            if result is not None:
                return result
        elif cls is registry.Dict or cls is registry.Tuple:
            # What the built-in Dict/Tuple rules try first, without the dispatcher.
            result = flatten_tree(space, x)
            if result is not None:
                return result
    return registry.flatten(space, x)


cdef object flatten_into(space, x, out):
    """``flatten(space, x)`` written into ``out``.

    Tuple/Dict trees of fundamental spaces are encoded straight into ``out``;
    any other space is flattened as usual and the result copied. ``out`` must
    be a writeable 1-D array of the result's length and exact dtype.
    """
    cdef type cls = space_class(registry, space)
    if registry.flatten_enabled and (cls is registry.Dict or cls is registry.Tuple):
        written = flatten_tree(space, x, out)
        if written is not None:
            return written
    result = flatten(space, x)
    if not cnp.PyArray_Check(result):
        raise TypeError(f"out= needs a space that flattens to an array; {space} flattens to {type(result)}")
    if not cnp.PyArray_Check(out):
        raise TypeError(f"out must be a numpy.ndarray, actual type: {type(out)}")
    if (<object> out).shape != (<object> result).shape:
        raise ValueError(f"out must have shape {(<object> result).shape}, actual shape: {(<object> out).shape}")
    if not cnp.PyArray_EquivTypes(<cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> out),
                                  <cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> result)):
        raise ValueError(f"out must have dtype {(<object> result).dtype}, actual dtype: {(<object> out).dtype}")
    if not cnp.PyArray_ISWRITEABLE(<cnp.ndarray> out):
        raise ValueError("out must be writeable")
    np.copyto(out, result)
    return out


cdef inline bint is_native_numeric_vector(object x):
    """A 1-D, aligned, native array of a numeric type handled here."""
    return (cnp.PyArray_Check(x) and cnp.PyArray_NDIM(<cnp.ndarray> x) == 1
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> x)
            and cnp.PyArray_ISALIGNED(<cnp.ndarray> x)
            and array_element(<cnp.ndarray> x) != NOT_NUMERIC)


cdef npy_intp next_nonzero_in(const numeric_t *data, npy_intp stride, npy_intp begin, npy_intp end) noexcept nogil:
    """The first ``i`` in ``[begin, end)`` whose element (``stride`` bytes apart) is not zero, else ``end``."""
    cdef npy_intp i
    for i in range(begin, end):
        # Exact: only zeros (either sign) convert to 0.0; NaN is not zero.
        if as_double((<const numeric_t *> (<const char *> data + i * stride))[0]) != 0:
            return i
    return end


cdef npy_intp next_nonzero(cnp.ndarray x, npy_intp begin, npy_intp end) except -1:
    """:func:`next_nonzero_in` of the 1-D numeric array ``x``."""
    cdef const char *data = <const char *> cnp.PyArray_DATA(x)
    cdef npy_intp stride = cnp.PyArray_STRIDE(x, 0)
    cdef Element element = unsigned_of(array_element(x))  # zero whatever the sign
    if element == EL_DOUBLE: return next_nonzero_in(<const double *> data, stride, begin, end)
    if element == EL_FLOAT: return next_nonzero_in(<const float *> data, stride, begin, end)
    if element == EL_HALF: return next_nonzero_in(<const half_t *> data, stride, begin, end)
    if element == EL_UINT8: return next_nonzero_in(<const uint8_t *> data, stride, begin, end)
    if element == EL_UINT16: return next_nonzero_in(<const uint16_t *> data, stride, begin, end)
    if element == EL_UINT32: return next_nonzero_in(<const uint32_t *> data, stride, begin, end)
    if element == EL_UINT64: return next_nonzero_in(<const uint64_t *> data, stride, begin, end)
    no_kernel("one-hot decoding", x.dtype)


cdef npy_intp first_nonzero(cnp.ndarray x, npy_intp begin, npy_intp end) except -2:
    """The position of the first non-zero of ``x[begin:end]``, else -1."""
    cdef npy_intp i = next_nonzero(x, begin, end)
    return i - begin if i < end else -1


cdef object discrete_value(space, dict namespace, npy_intp position):
    """``start + dtype(position)`` with numpy scalar semantics."""
    descr = native_integer_descr(attr(namespace, space, "dtype"))
    cdef uint64_t start = int_bits(attr(namespace, space, "start"))
    if add_overflows(start, <uint64_t> position, (<cnp.dtype> descr).kind == b'i',
                     <int> (<cnp.dtype> descr).itemsize):
        warnings.warn(scalar_overflow_message(descr), RuntimeWarning, stacklevel=3)
    return make_scalar(descr, start + <uint64_t> position)


def discrete_from_one_hot(space, x):
    """``unflatten(Discrete, x)`` for a native, aligned 1-D numeric array, else ``None``."""
    if not is_native_numeric_vector(x):
        return None
    cdef dict namespace = instance_dict(space)
    cdef npy_intp position = first_nonzero(<cnp.ndarray> x, 0, cnp.PyArray_DIM(<cnp.ndarray> x, 0))
    if position < 0:
        raise ValueError(
            f"{x} is not a valid one-hot encoded vector and can not be unflattened to space "
            f"{space}. Not all valid samples in a flattened space can be unflattened.")
    return discrete_value(space, namespace, position)


cdef int multi_discrete_offsets(cnp.ndarray nvec, cnp.dtype descr, int64_t *total) except -1:
    """Total one-hot length; ``False`` if numpy's int32 running sums would overflow."""
    cdef const char *data = <const char *> cnp.PyArray_DATA(nvec)
    cdef npy_intp i
    cdef int64_t running = 0, entry
    cdef Element element = element_of(descr)
    for i in range(cnp.PyArray_SIZE(nvec)):
        entry = <int64_t> element_bits(data, element, i)
        if entry > INT32_MAX:  # (the sum would pass it: and adding could overflow int64)
            return False
        running += entry
        if running > INT32_MAX or running < 0:
            return False
    total[0] = running
    return True


cdef int64_t multi_discrete_positions(space, dict namespace, object x, int64_t *out,
                                      npy_intp capacity) except -2:
    """Fill ``out`` (room for ``capacity`` values) with the one-hot positions of ``x``,
    one per entry of ``nvec``.

    Returns the one-hot length, or -1 when the case is left to numpy.
    """
    cdef cnp.dtype descr = native_integer_descr(attr(namespace, space, "dtype"))
    cdef cnp.ndarray nvec, start, values
    cdef int64_t total, offset = 0, diff, index
    cdef npy_intp i, size
    cdef int type_num = descr.type_num
    cdef Element element = element_of(descr)
    if not is_integer(element) or element == EL_UINT64:
        return -1  # (int32 offsets + uint64 promote to float64 indices: numpy raises)
    nvec = as_c_array(attr(namespace, space, "nvec"), descr.type_num)
    start = as_c_array(attr(namespace, space, "start"), descr.type_num)
    if not (cnp.PyArray_Check(x) and cnp.PyArray_TYPE(<cnp.ndarray> x) == type_num
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x) and cnp.PyArray_ISALIGNED(<cnp.ndarray> x)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> x)):
        return -1
    values = <cnp.ndarray> x
    size = cnp.PyArray_SIZE(nvec)
    if not same_dims(values, nvec) or cnp.PyArray_SIZE(start) != size or capacity < size:
        return -1
    if not multi_discrete_offsets(nvec, descr, &total):
        return -1
    cdef const char *xv = <const char *> cnp.PyArray_DATA(values)
    cdef const char *sv = <const char *> cnp.PyArray_DATA(start)
    cdef const char *nv = <const char *> cnp.PyArray_DATA(nvec)
    for i in range(size):
        if not difference_in_dtype(descr, <int64_t> element_bits(xv, element, i),
                                   <int64_t> element_bits(sv, element, i), &diff):
            return -1
        index = offset + diff
        if index < 0:
            index += total
            if index < 0:
                raise IndexError(f"index {index - total} is out of bounds for axis 0 with size {total}")
        elif index >= total:
            raise IndexError(f"index {index} is out of bounds for axis 0 with size {total}")
        out[i] = index
        offset += <int64_t> element_bits(nv, element, i)
    return total


def multi_discrete_one_hot(space, x):
    """``flatten(MultiDiscrete, x)`` for an array of the space's dtype and shape, else ``None``."""
    cdef dict namespace = instance_dict(space)
    cdef npy_intp size = cnp.PyArray_SIZE(<cnp.ndarray> attr(namespace, space, "nvec")) \
        if cnp.PyArray_Check(attr(namespace, space, "nvec")) else 0
    cdef cnp.ndarray positions = cnp.PyArray_EMPTY(1, &size, cnp.NPY_INT64, 0)
    cdef int64_t total = multi_discrete_positions(space, namespace, x,
                                                  <int64_t *> cnp.PyArray_DATA(positions), size)
    if total < 0:
        return None
    descr = native_integer_descr(attr(namespace, space, "dtype"))
    cdef npy_intp length = <npy_intp> total
    cdef cnp.ndarray out = cnp.PyArray_ZEROS(1, &length, (<cnp.dtype> descr).type_num, 0)
    cdef char *data = <char *> cnp.PyArray_DATA(out)
    cdef int64_t *p = <int64_t *> cnp.PyArray_DATA(positions)
    cdef Element element = element_of(descr)
    cdef npy_intp i
    for i in range(size):
        store_one(data, element, p[i])
    return out


cdef object multi_discrete_decode(space, dict namespace, cnp.ndarray x, npy_intp begin, npy_intp end):
    """``unflatten(MultiDiscrete, x[begin:end])`` in C, or ``None`` to defer to numpy."""
    cdef cnp.dtype descr = native_integer_descr(attr(namespace, space, "dtype"))
    cdef cnp.ndarray nvec, start, out
    cdef npy_intp i, found = 0, size
    cdef int64_t offset = 0, value
    cdef Element element = element_of(descr)
    if not is_integer(element) or element == EL_UINT64:
        return None  # (int64 - uint64 positions promote to float64 in numpy)
    nvec = as_c_array(attr(namespace, space, "nvec"), descr.type_num)
    start = as_c_array(attr(namespace, space, "start"), descr.type_num)
    size = cnp.PyArray_SIZE(nvec)
    if cnp.PyArray_SIZE(start) != size:
        return None
    out = cnp.PyArray_EMPTY(cnp.PyArray_NDIM(nvec), cnp.PyArray_DIMS(nvec), descr.type_num, 0)
    cdef char *o = <char *> cnp.PyArray_DATA(out)
    cdef const char *nv = <const char *> cnp.PyArray_DATA(nvec)
    cdef const char *sv = <const char *> cnp.PyArray_DATA(start)
    cdef int itemsize = <int> descr.itemsize
    i = next_nonzero(x, begin, end)
    while i < end:
        if found == size:
            return None  # more non-zeros than entries: numpy raises its own error
        if found:
            offset += <int64_t> element_bits(nv, element, found - 1)
            # numpy's cumsum runs in the space's dtype: defer if it would wrap.
            if offset != truncate_signed(<uint64_t> offset, itemsize) and descr.kind == b'i':
                return None
        value = (i - begin) - offset
        # asarray(..., dtype) then + start: both wrap in the dtype's width.
        store_bits(o, itemsize, found, <uint64_t> value + element_bits(sv, element, found))
        found += 1
        i = next_nonzero(x, i + 1, end)
    if found == 0:
        raise ValueError(
            f"{x[begin:end] if begin or end != x.shape[0] else x} is not a concatenation of "
            f"one-hot encoded vectors and can not be unflattened to space {space}. Not all "
            "valid samples in a flattened space can be unflattened.")
    if found != size:
        return None
    if cnp.PyArray_NDIM(out) == 0:
        return out[()]  # numpy's 0-d ``array + start`` is a numpy scalar
    return out


def multi_discrete_from_one_hot(space, x):
    """``unflatten(MultiDiscrete, x)`` for a native, aligned 1-D numeric array, else ``None``."""
    if not is_native_numeric_vector(x):
        return None
    return multi_discrete_decode(space, instance_dict(space), <cnp.ndarray> x, 0,
                                 cnp.PyArray_DIM(<cnp.ndarray> x, 0))


# ----------------------------------------------------------------------------
# Tuple / Dict trees
# ----------------------------------------------------------------------------

cdef enum:
    PART_ARRAY = 0
    PART_ONE_HOTS = 1
    # Parts, one-hot positions and dtypes of a small tree (or of a 64-row batch of a
    # few discrete leaves) are kept inline, without allocating.
    INLINE_PARTS = 16
    INLINE_POSITIONS = 512
    INLINE_DTYPES = 16
    # The promotion memo's size (see ``promote``).
    PROMOTION_SLOTS = 256


cdef struct Part:
    int kind
    npy_intp size         # elements of the flat output this leaf fills
    npy_intp first        # PART_ONE_HOTS: its first position in ``positions``...
    npy_intp count        # ...and how many a row holds (one per Discrete, per MultiDiscrete entry)
    PyObject *array       # PART_ARRAY: an owned reference to a C-contiguous native array...
    Element element       # ...of this element type
    int itemsize


cdef struct Gathered:
    # The leaves of one ``flatten_tree`` call as C records, and a stack of the
    # dtypes of the nodes being gathered, in storage on the caller's stack
    # (grown on the heap for large trees). ``release`` drops the references
    # held: the arrays of the array parts (the caller's samples or their
    # converted copies, so their data stays alive while it is read) and the
    # dtypes. Building no Python containers keeps the garbage collector out.
    Part *parts
    Py_ssize_t count, capacity
    Part *inline_parts
    int64_t *positions
    npy_intp position_count, position_capacity
    int64_t *inline_positions
    PyObject **dtypes
    Py_ssize_t dtype_count, dtype_capacity
    PyObject **inline_dtypes


cdef void start_gathering(Gathered *g, Part *inline_parts, int64_t *inline_positions,
                          PyObject **inline_dtypes) noexcept:
    """Empty gathering storage over the caller's inline arrays (``INLINE_PARTS`` parts,
    ``INLINE_POSITIONS`` positions, ``INLINE_DTYPES`` dtypes)."""
    g.parts = g.inline_parts = inline_parts
    g.count = 0
    g.capacity = INLINE_PARTS
    g.positions = g.inline_positions = inline_positions
    g.position_count = 0
    g.position_capacity = INLINE_POSITIONS
    g.dtypes = g.inline_dtypes = inline_dtypes
    g.dtype_count = 0
    g.dtype_capacity = INLINE_DTYPES


cdef void release(Gathered *g) noexcept:
    cdef Py_ssize_t i
    for i in range(g.count):
        Py_XDECREF(g.parts[i].array)
    for i in range(g.dtype_count):
        Py_XDECREF(g.dtypes[i])
    if g.parts != g.inline_parts:
        free(g.parts)
    if g.positions != g.inline_positions:
        free(g.positions)
    if g.dtypes != g.inline_dtypes:
        free(g.dtypes)


cdef void *grown(void *current, void *inline_storage, Py_ssize_t used, Py_ssize_t capacity,
                 size_t item) except NULL:
    """A heap block of ``capacity`` items holding the first ``used`` of ``current``
    (freed unless it is the inline storage)."""
    cdef void *block = malloc(capacity * item)
    if block == NULL:
        raise MemoryError()
    memcpy(block, current, used * item)
    if current != inline_storage:
        free(current)
    return block


cdef Part *add_part(Gathered *g, int kind, npy_intp size) except NULL:
    if g.count == g.capacity:
        g.parts = <Part *> grown(g.parts, g.inline_parts, g.count, 2 * g.capacity, sizeof(Part))
        g.capacity *= 2
    cdef Part *part = &g.parts[g.count]
    g.count += 1
    memset(part, 0, sizeof(Part))
    part.kind = kind
    part.size = size
    return part


cdef int64_t *reserve_positions(Gathered *g, npy_intp count) except NULL:
    """Room for ``count`` more one-hot positions (at ``position_count``)."""
    cdef npy_intp capacity = g.position_capacity
    if g.position_count + count > capacity:
        while capacity < g.position_count + count:
            capacity *= 2
        g.positions = <int64_t *> grown(g.positions, g.inline_positions, g.position_count,
                                        capacity, sizeof(int64_t))
        g.position_capacity = capacity
    return g.positions + g.position_count


cdef int push_dtype(Gathered *g, object dtype) except -1:
    if g.dtype_count == g.dtype_capacity:
        g.dtypes = <PyObject **> grown(g.dtypes, g.inline_dtypes, g.dtype_count,
                                       2 * g.dtype_capacity, sizeof(PyObject *))
        g.dtype_capacity *= 2
    Py_INCREF(dtype)
    g.dtypes[g.dtype_count] = <PyObject *> dtype
    g.dtype_count += 1
    return 0


cdef void pop_dtypes(Gathered *g, Py_ssize_t base) noexcept:
    while g.dtype_count > base:
        g.dtype_count -= 1
        Py_XDECREF(g.dtypes[g.dtype_count])


cdef Part *add_array(Gathered *g, cnp.ndarray arr) except NULL:
    cdef Part *part = add_part(g, PART_ARRAY, cnp.PyArray_SIZE(arr))
    Py_INCREF(arr)
    part.array = <PyObject *> arr
    part.element = array_element(arr)
    part.itemsize = <int> cnp.PyArray_ITEMSIZE(arr)
    return part


cdef const char *part_data(Part *part, npy_intp rows) except NULL:
    """The data of an array part of ``rows`` rows, checked to still hold what was gathered."""
    cdef cnp.ndarray arr = <cnp.ndarray> part.array
    # Python code may run between gathering and copying (an allocation can
    # start the garbage collector): never trust a stale pointer or size.
    if (cnp.PyArray_SIZE(arr) != part.size * rows or array_element(arr) != part.element
            or not cnp.PyArray_IS_C_CONTIGUOUS(arr)):
        raise RuntimeError("a sample changed while it was being flattened")
    return <const char *> cnp.PyArray_DATA(arr)


cdef object written_dtype(object dtype):
    """The gathered tree's flat ``dtype`` if the parts can be written to it in C
    (numeric, native byte order), else None."""
    if (dtype is None or element_of(<cnp.dtype> dtype) == NOT_NUMERIC
            or not cnp.PyArray_ISNBO((<cnp.dtype> dtype).byteorder)):
        return None
    return dtype


cdef npy_intp row_width(Gathered *parts) noexcept:
    """The elements one flat row of the gathered parts holds."""
    cdef npy_intp width = 0, i
    for i in range(parts.count):
        width += parts.parts[i].size
    return width


cdef int fill_rows(cnp.ndarray out, Gathered *parts, npy_intp rows, npy_intp width) except -1:
    """Write ``rows`` rows of ``width`` elements of the gathered parts into ``out``
    (zeroed, C-contiguous): array parts copied and cast, one-hot positions set."""
    cdef cnp.dtype descr = <cnp.dtype> cnp.PyArray_DESCR(out)
    cdef Element element = element_of(descr)
    cdef int size = <int> descr.itemsize
    cdef npy_intp offset = 0, i, j, r
    cdef char *row
    cdef const char *src
    cdef int64_t *positions
    cdef Part *part
    for i in range(parts.count):
        part = &parts.parts[i]
        row = <char *> cnp.PyArray_DATA(out) + offset * size
        if part.kind == PART_ARRAY:
            src = part_data(part, rows)
            for r in range(rows):
                copy_cast(row, element, size, src, part.element, part.size)
                row += width * size
                src += part.size * part.itemsize
        else:
            positions = parts.positions + part.first
            for r in range(rows):
                for j in range(part.count):
                    store_one(row, element, <npy_intp> positions[j])
                positions += part.count
                row += width * size
        offset += part.size
    return 0


# Memo of ``np.result_type``, keyed by the identities of the dtypes: hashing
# a dtype walks its fields and costs more than the flatten of a small space.
# A direct-mapped table: slot ``hash(identities) % PROMOTION_SLOTS`` holds the
# first ``(dtypes, result)`` seen there (a collision is computed, not stored);
# the entry holds its dtypes, so the identities it is compared by stay theirs.
# Entries are written once, under a lock, and never replaced: a slot read
# without a lock (a borrowed read, even on a free-threaded build) never
# meets an entry that is being freed.
cdef list PROMOTIONS = [None] * PROMOTION_SLOTS
cdef object PROMOTIONS_LOCK = threading.Lock()


cdef cnp.dtype promote(PyObject **dtypes, Py_ssize_t n):
    """``np.result_type`` of a node's children, memoised (it is pure and costly)."""
    cdef Py_ssize_t i
    cdef uint64_t h = <uint64_t> n
    cdef object entry
    cdef tuple known
    for i in range(n):
        h = (h ^ <uint64_t> <size_t> dtypes[i]) * <uint64_t> 0x100000001B3ULL
    cdef Py_ssize_t slot = <Py_ssize_t> ((h ^ (h >> 29)) % PROMOTION_SLOTS)
    entry = PROMOTIONS[slot]
    if entry is not None:
        known = <tuple> (<tuple> entry)[0]
        if len(known) == n:
            for i in range(n):
                if <PyObject *> known[i] != dtypes[i]:
                    break
            else:
                return <cnp.dtype> (<tuple> entry)[1]
    known = PyTuple_New(n)
    for i in range(n):
        Py_INCREF(<object> dtypes[i])
        PyTuple_SET_ITEM(known, i, <object> dtypes[i])
    result = np.result_type(*known)
    if entry is None:
        with PROMOTIONS_LOCK:
            if PROMOTIONS[slot] is None:
                PROMOTIONS[slot] = (known, result)
    return <cnp.dtype> result


cdef object node_dtype(Gathered *parts, Py_ssize_t base):
    """The promoted dtype of the children's dtypes pushed since ``base`` (popped)."""
    if parts.dtype_count == base:
        return None  # an empty Dict/Tuple: left to numpy
    dtype = promote(parts.dtypes + base, parts.dtype_count - base)
    pop_dtypes(parts, base)
    return dtype


cdef object gather_dict(object children, object x, Gathered *parts, npy_intp *n, int depth, bint checked):
    """``gather`` of a Dict node's children; the node's dtype or ``None``."""
    cdef Py_ssize_t pos = 0, base, count
    cdef PyObject *key_ptr
    cdef PyObject *child_ptr
    cdef PyObject *found
    # Checked or batched, the value is read without running the caller's code
    # (another mapping's lookup might edit anything): an answer of None then
    # leaves no trace for the general rule to see.
    if type(children) is not dict or ((checked or n != NULL) and type(x) is not dict):
        return None
    base = parts.dtype_count
    count = len(<dict> children)
    while PyDict_Next(<dict> children, &pos, &key_ptr, &child_ptr):
        # Owned before anything runs: x[key] and the gathering may run code that
        # edits the space's dict or the batch.
        key = <object> key_ptr
        child = <object> child_ptr
        if n == NULL:
            value = x[key]
        else:
            found = PyDict_GetItemWithError(<dict> x, key)
            if found == NULL:
                return None
            value = <object> found
        dtype = gather(child, value, parts, n, depth + 1, checked)
        if len(<dict> children) != count:  # as iterating ``spaces.items()`` would
            raise RuntimeError("dictionary changed size during iteration")
        if dtype is None:
            return None
        push_dtype(parts, dtype)
    return node_dtype(parts, base)


cdef object gather(space, object x, Gathered *parts, npy_intp *n, int depth, bint checked=False):
    """Record every leaf under ``space`` in ``parts``; return the node's flat dtype,
    or ``None`` if the tree holds anything this kernel leaves to the general rule
    (nodes deeper than ``MAX_KERNEL_DEPTH`` included; ``depth`` is 0 at the root).

    ``n`` is ``NULL`` when ``x`` is one sample; otherwise ``x`` is a batch (Tuple
    nodes as tuples, Dict nodes as dicts) whose leaves all hold ``n[0]`` rows,
    ``-1`` until the first leaf sets it.

    ``checked``: a Gymnasium space under patch mode (see ``flatten_checked``):
    each node must pass the registry's ``node_reason``, a Dict's value must be
    an exact dict, and a leaf value is taken only where no cast can warn."""
    cdef type cls = space_class(registry, space)
    cdef Py_ssize_t base
    if depth > MAX_KERNEL_DEPTH:
        return None
    if checked and registry.node_reason(space) is not None:
        return None
    if cls is registry.Dict:
        return gather_dict(space.spaces, x, parts, n, depth, checked)
    if cls is registry.Tuple:
        children = space.spaces
        # One sample's Tuple value may be a list, as flatten's general rule allows.
        if (type(children) is not tuple or (type(x) is not tuple and (n != NULL or type(x) is not list))
                or len(x) != len(children)):
            return None
        base = parts.dtype_count
        for child, value in zip(children, x):
            dtype = gather(child, value, parts, n, depth + 1, checked)
            if dtype is None:
                return None
            push_dtype(parts, dtype)
        return node_dtype(parts, base)
    if n == NULL:
        return gather_leaf(cls, space, x, parts, checked)
    return gather_leaf_rows(cls, space, x, parts, n)


cdef object gather_leaf(type cls, space, object x, Gathered *parts, bint checked):
    """``gather`` of one sample of a fundamental leaf."""
    cdef dict namespace = instance_dict(space)
    cdef npy_intp size = 0, index, count
    cdef int64_t total
    cdef int64_t *positions
    cdef cnp.ndarray arr
    cdef Part *part
    if cls is registry.Box or cls is registry.MultiBinary:
        descr = attr(namespace, space, "dtype")
        if not (cnp.PyArray_Check(x)
                and cnp.PyArray_EquivTypes(<cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> x), <cnp.dtype> descr)):
            if checked and not (quiet_cast(x, <cnp.dtype> descr) or (
                    cnp.PyArray_Check(x) and cnp.PyArray_NDIM(<cnp.ndarray> x) == 1
                    and floats_fit(<cnp.ndarray> x, 0, cnp.PyArray_DIM(<cnp.ndarray> x, 0), <cnp.dtype> descr))):
                return None
            x = np.asarray(x, dtype=descr)
        if element_of(<cnp.dtype> descr) == NOT_NUMERIC:  # (before any copy: object, structured, S/U/V)
            return None
        arr = as_c_array(x, (<cnp.dtype> descr).type_num)
        add_array(parts, arr)
        return descr
    if cls is registry.Discrete:
        index = discrete_index(space, namespace, x, &size)
        if index < 0:
            return None
        reserve_positions(parts, 1)[0] = index
        part = add_part(parts, PART_ONE_HOTS, size)
        part.first = parts.position_count
        part.count = 1
        parts.position_count += 1
        return attr(namespace, space, "dtype")
    if cls is registry.MultiDiscrete:
        nvec = attr(namespace, space, "nvec")
        if not cnp.PyArray_Check(nvec):
            return None
        count = cnp.PyArray_SIZE(<cnp.ndarray> nvec)
        positions = reserve_positions(parts, count)
        total = multi_discrete_positions(space, namespace, x, positions, count)
        if total < 0:
            return None
        part = add_part(parts, PART_ONE_HOTS, <npy_intp> total)
        part.first = parts.position_count
        part.count = count
        parts.position_count += count
        return attr(namespace, space, "dtype")
    return None


cdef cnp.ndarray checked_target(object target, npy_intp size, cnp.dtype descr):
    """``target`` if it can receive a flat result of ``size`` elements of ``descr``."""
    if not cnp.PyArray_Check(target):
        raise TypeError(f"out must be a numpy.ndarray, actual type: {type(target)}")
    cdef cnp.ndarray array = <cnp.ndarray> target
    if cnp.PyArray_NDIM(array) != 1 or cnp.PyArray_DIM(array, 0) != size:
        raise ValueError(f"out must have shape ({size},), actual shape: {(<object> array).shape}")
    if not cnp.PyArray_EquivTypes(<cnp.dtype> cnp.PyArray_DESCR(array), descr):
        raise ValueError(f"out must have dtype {descr}, actual dtype: {(<object> array).dtype}")
    if not (cnp.PyArray_IS_C_CONTIGUOUS(array) and cnp.PyArray_ISALIGNED(array) and cnp.PyArray_ISWRITEABLE(array)):
        raise ValueError("out must be C-contiguous, aligned and writeable")
    return array


cdef int detach_parts(Gathered *parts, cnp.ndarray target) except -1:
    """Copy every array part whose memory overlaps ``target``.

    ``target`` is zeroed and then filled part by part: a part that is a view
    of ``target`` would otherwise be read after it was overwritten.
    """
    cdef char *begin = <char *> cnp.PyArray_DATA(target)
    cdef char *end = begin + cnp.PyArray_NBYTES(target)
    cdef cnp.ndarray arr
    cdef const char *data
    cdef object copy
    cdef Py_ssize_t i
    for i in range(parts.count):
        if parts.parts[i].kind != PART_ARRAY:
            continue
        arr = <cnp.ndarray> parts.parts[i].array
        # Parts are C-contiguous (see ``gather_leaf`` and ``gather_leaf_rows``): one byte range each.
        data = <const char *> cnp.PyArray_DATA(arr)
        if data < end and data + cnp.PyArray_NBYTES(arr) > begin:
            copy = cnp.PyArray_NewCopy(arr, cnp.NPY_CORDER)
            Py_INCREF(copy)
            Py_XDECREF(parts.parts[i].array)
            parts.parts[i].array = <PyObject *> copy
    return 0


cpdef object flatten_tree(space, x, target=None):
    """``flatten`` of a Tuple/Dict tree of fundamental spaces in one pass, else ``None``.

    With ``target`` (a writeable, C-contiguous 1-D array of the result's
    length and exact dtype) the result is written there instead of a new array;
    ``ValueError`` if ``target`` does not fit.
    """
    return gathered_write(False, space, x, target)


cdef object gathered_write(bint rows, space, x, target, bint checked=False):
    """``write_rows`` (``rows``) or ``write_parts`` with gathering storage on this frame."""
    if not registry.flatten_enabled:
        return None
    cdef Part inline_parts[INLINE_PARTS]
    cdef int64_t inline_positions[INLINE_POSITIONS]
    cdef PyObject *inline_dtypes[INLINE_DTYPES]
    cdef Gathered parts
    start_gathering(&parts, inline_parts, inline_positions, inline_dtypes)
    try:
        return write_rows(space, x, target, &parts) if rows else write_parts(space, x, target, &parts, checked)
    finally:
        release(&parts)


cdef object write_parts(space, x, target, Gathered *parts, bint checked):
    """``flatten_tree``'s work, with the gathering storage set up by it."""
    out_dtype = written_dtype(gather(space, x, parts, NULL, 0, checked))
    if out_dtype is None:
        return None
    cdef cnp.dtype out_descr = <cnp.dtype> out_dtype
    cdef npy_intp total = row_width(parts)
    cdef cnp.ndarray out
    if target is None:
        out = cnp.PyArray_ZEROS(1, &total, out_descr.type_num, 0)
    else:
        out = checked_target(target, total, out_descr)
        detach_parts(parts, out)
        memset(cnp.PyArray_DATA(out), 0, total * out_descr.itemsize)
    fill_rows(out, parts, 1, total)
    return out


# ----------------------------------------------------------------------------
# flatten_batch of Tuple / Dict trees and leaves: one row per batch item
# ----------------------------------------------------------------------------

cdef enum:
    # Larger outputs are left to numpy (which raises its own errors for impossible sizes).
    MAX_ROWS_ELEMENTS = 1 << 28

cdef object INT64_MAX_OBJ = 0x7FFFFFFFFFFFFFFF
cdef object INT64_MIN_OBJ = -0x7FFFFFFFFFFFFFFF - 1


cdef inline bint batch_rows(cnp.ndarray arr, npy_intp *n) noexcept:
    """Whether ``arr`` has ``n`` rows (``n`` set by the first leaf: ``-1`` until then)."""
    if cnp.PyArray_NDIM(arr) < 1:
        return False
    if n[0] < 0:
        n[0] = cnp.PyArray_DIM(arr, 0)
    return cnp.PyArray_DIM(arr, 0) == n[0]


cdef inline bint trailing_shape_is(cnp.ndarray arr, object shape):
    """``arr.shape[1:] == shape`` for a tuple of Python/numpy integers."""
    if type(shape) is not tuple or cnp.PyArray_NDIM(arr) != 1 + len(<tuple> shape):
        return False
    cdef Py_ssize_t i
    for i in range(len(<tuple> shape)):
        if cnp.PyArray_DIM(arr, i + 1) != (<tuple> shape)[i]:
            return False
    return True


cdef inline bint native_numeric(cnp.ndarray arr) noexcept:
    cdef char kind = (<cnp.dtype> cnp.PyArray_DESCR(arr)).kind
    return kind == b'b' or kind == b'i' or kind == b'u' or kind == b'f'


cdef cnp.ndarray integer_rows(cnp.ndarray arr):
    """An aligned C-contiguous native copy of an integer batch unless it is one already."""
    return as_c_array(arr, cnp.PyArray_TYPE(arr))


cdef bint python_int64(object value, int64_t *out):
    """``int(value)`` as int64, or ``False`` if it does not fit."""
    value = int(value)
    if value > INT64_MAX_OBJ or value < INT64_MIN_OBJ:
        return False
    out[0] = value
    return True


cdef object gather_leaf_rows(type cls, space, object batch, Gathered *parts, npy_intp *n):
    """``gather`` of a batch of a fundamental leaf: the leaf's rows (one-hot
    positions of every row included), or ``None`` when the general rule decides
    (and raises what it raises)."""
    cdef dict namespace
    cdef cnp.ndarray arr, nvec, start
    cdef cnp.dtype descr
    cdef Part *part
    cdef int64_t first, width, value, total
    cdef int64_t *positions
    cdef npy_intp i, j, rows, count
    cdef const char *data
    cdef const char *nv
    cdef const char *sv
    cdef Element element, md_element
    cdef int64_t *entries
    if type(batch) is not np.ndarray or not native_numeric(<cnp.ndarray> batch):
        return None
    arr = <cnp.ndarray> batch
    if not batch_rows(arr, n):
        return None
    rows = n[0]
    namespace = instance_dict(space)
    if cls is registry.Box or cls is registry.MultiBinary:
        dtype = attr(namespace, space, "dtype")
        if not trailing_shape_is(arr, attr(namespace, space, "shape")):
            return None
        # flatten casts to the leaf's dtype first, then concatenation to the tree's.
        if element_of(<cnp.dtype> dtype) == NOT_NUMERIC:  # (before any copy: object, structured, S/U/V)
            return None
        arr = as_c_array(arr, (<cnp.dtype> dtype).type_num)
        part = add_array(parts, arr)
        # One row's elements.
        part.size = <npy_intp> (cnp.PyArray_MultiplyList(cnp.PyArray_DIMS(arr) + 1, cnp.PyArray_NDIM(arr) - 1))
        return dtype
    # One-hot leaves: integer batches only, every value in range (else the general rule).
    if (<cnp.dtype> cnp.PyArray_DESCR(arr)).kind == b'f' or (<cnp.dtype> cnp.PyArray_DESCR(arr)).kind == b'b':
        return None
    if (<cnp.dtype> cnp.PyArray_DESCR(arr)).kind == b'u' and cnp.PyArray_ITEMSIZE(arr) == 8:
        return None  # (uint64 - int64 start would go through float64)
    if cls is registry.Discrete:
        if cnp.PyArray_NDIM(arr) != 1:
            return None
        if not python_int64(attr(namespace, space, "start"), &first):
            return None
        if not python_int64(attr(namespace, space, "n"), &width) or width > MAX_ROWS_ELEMENTS:
            return None
        arr = integer_rows(arr)
        data = <const char *> cnp.PyArray_DATA(arr)
        element = array_element(arr)
        positions = reserve_positions(parts, rows)
        for i in range(rows):
            value = <int64_t> element_bits(data, element, i)
            # value - first in [0, width), without overflowing int64.
            if value < first or (first >= 0 and value - first >= width) or (first < 0 and value >= first + width):
                return None
            positions[i] = value - first
        part = add_part(parts, PART_ONE_HOTS, <npy_intp> width)
        part.first = parts.position_count
        part.count = 1
        parts.position_count += rows
        return attr(namespace, space, "dtype")
    if cls is registry.MultiDiscrete:
        dtype = attr(namespace, space, "dtype")
        descr = native_integer_descr(dtype)
        md_element = element_of(descr)
        if not is_integer(md_element) or md_element == EL_UINT64:
            return None
        nvec_obj = attr(namespace, space, "nvec")
        start_obj = attr(namespace, space, "start")
        if not cnp.PyArray_Check(nvec_obj) or not cnp.PyArray_Check(start_obj):
            return None
        nvec = as_c_array(nvec_obj, descr.type_num)
        start = as_c_array(start_obj, descr.type_num)
        count = cnp.PyArray_SIZE(nvec)
        if cnp.PyArray_SIZE(start) != count or not trailing_shape_is(arr, (<object> nvec).shape):
            return None
        if not multi_discrete_offsets(nvec, descr, &total):
            return None
        arr = integer_rows(arr)
        data = <const char *> cnp.PyArray_DATA(arr)
        element = array_element(arr)
        nv = <const char *> cnp.PyArray_DATA(nvec)
        sv = <const char *> cnp.PyArray_DATA(start)
        positions = reserve_positions(parts, rows * count)
        # Per entry: start, nvec and the offset of its one-hot block, read once.
        entries = <int64_t *> malloc(3 * count * sizeof(int64_t) + 1)
        if entries == NULL:
            raise MemoryError()
        try:
            width = 0
            for j in range(count):
                entries[3 * j] = <int64_t> element_bits(sv, md_element, j)
                entries[3 * j + 1] = <int64_t> element_bits(nv, md_element, j)
                if entries[3 * j + 1] <= 0:  # (no value is in range: the general rule raises)
                    return None
                entries[3 * j + 2] = width
                width += entries[3 * j + 1]
            for i in range(rows):
                for j in range(count):
                    if element == EL_INT64:
                        value = (<int64_t *> data)[i * count + j]
                    else:
                        value = <int64_t> element_bits(data, element, i * count + j)
                    # start <= value <= start + nvec - 1. value - start may not fit an
                    # int64 (a negative start): it is exact in uint64 once value >= start.
                    if value < entries[3 * j] or (
                            <uint64_t> value - <uint64_t> entries[3 * j] >= <uint64_t> entries[3 * j + 1]):
                        return None
                    positions[i * count + j] = entries[3 * j + 2] + (value - entries[3 * j])
        finally:
            free(entries)
        part = add_part(parts, PART_ONE_HOTS, <npy_intp> total)
        part.first = parts.position_count
        part.count = count
        parts.position_count += rows * count
        return dtype
    return None


cpdef object flatten_rows(space, batch, target=None):
    """``flatten_batch`` of a batch of a Tuple/Dict tree of fundamental spaces (or of one
    such leaf) in one pass, else ``None``: the caller then runs the general rule.

    Row ``i`` holds ``flatten(space, item_i)``. With ``target`` the rows are
    written there -- only a C-contiguous, writeable, native 2-D array of the
    exact shape and dtype; anything else is also left to the caller.
    """
    return gathered_write(True, space, batch, target)


cdef object write_rows(space, batch, target, Gathered *parts):
    """``flatten_rows``'s work, with the gathering storage set up by it."""
    cdef npy_intp n = -1
    out_dtype = written_dtype(gather(space, batch, parts, &n, 0))
    if out_dtype is None or n < 0:
        return None
    cdef cnp.dtype out_descr = <cnp.dtype> out_dtype
    cdef npy_intp width = row_width(parts)
    if width > MAX_ROWS_ELEMENTS or (width and n > MAX_ROWS_ELEMENTS // width):
        return None
    cdef npy_intp dims[2]
    dims[0] = n
    dims[1] = width
    cdef cnp.ndarray out
    if target is None:
        out = cnp.PyArray_ZEROS(2, dims, out_descr.type_num, 0)
    else:
        if type(target) is not np.ndarray:
            return None
        out = <cnp.ndarray> target
        if (cnp.PyArray_NDIM(out) != 2 or cnp.PyArray_DIM(out, 0) != n or cnp.PyArray_DIM(out, 1) != width
                or not cnp.PyArray_EquivTypes((<cnp.dtype> cnp.PyArray_DESCR(out)), out_descr)
                or not cnp.PyArray_ISNOTSWAPPED(out) or not cnp.PyArray_IS_C_CONTIGUOUS(out)
                or not cnp.PyArray_ISALIGNED(out) or not cnp.PyArray_ISWRITEABLE(out)):
            return None
        # Leaves are read after ``out`` is zeroed: a leaf viewing ``out`` is copied first.
        detach_parts(parts, out)
        memset(cnp.PyArray_DATA(out), 0, n * width * out_descr.itemsize)
    fill_rows(out, parts, n, width)
    return out


# ----------------------------------------------------------------------------
# unflatten of Tuple / Dict trees
# ----------------------------------------------------------------------------

cdef bint is_fast_node(object space, int depth, bint checked=False) except -1:
    """A Tuple/Dict whose subtree holds only fundamental spaces (hence flattenable),
    none deeper than ``MAX_KERNEL_DEPTH`` (``depth`` is 0 at the root); ``checked``:
    each node also passes its judge (see ``unflatten_checked``)."""
    cdef type cls = space_class(registry, space)
    if depth > MAX_KERNEL_DEPTH:
        return False
    if checked and registry.node_reason(space) is not None:
        return False
    if cls is registry.Box or cls is registry.MultiBinary or cls is registry.Discrete:
        return True
    if cls is registry.MultiDiscrete:  # (``flat_size`` reads its nvec as integers)
        dtype = attr(instance_dict(space), space, "dtype")
        return cnp.PyArray_DescrCheck(dtype) and is_integer(element_of(<cnp.dtype> dtype))
    if cls is not registry.Dict and cls is not registry.Tuple:
        return False
    children = space.spaces
    if type(children) is not (dict if cls is registry.Dict else tuple) or not children:
        return False
    for child in ((<dict> children).values() if cls is registry.Dict else children):
        if not is_fast_node(child, depth + 1, checked):
            return False
    return True


cdef npy_intp flat_size(object space) except -1:
    """``flatdim`` of a fast node."""
    cdef type cls = space_class(registry, space)
    cdef npy_intp total = 1
    cdef cnp.ndarray nvec
    cdef cnp.dtype descr
    cdef npy_intp i
    cdef dict namespace
    cdef Element element
    cdef const char *data
    if cls is registry.Box or cls is registry.MultiBinary:
        # Exact built-in classes: their ``shape`` property returns ``_shape``.
        for dim in attr(instance_dict(space), space, "_shape"):
            total *= <npy_intp> dim
        return total
    if cls is registry.Discrete:
        return <npy_intp> int_bits(attr(instance_dict(space), space, "n"))
    if cls is registry.MultiDiscrete:
        namespace = instance_dict(space)
        descr = native_integer_descr(attr(namespace, space, "dtype"))
        nvec = as_c_array(attr(namespace, space, "nvec"), descr.type_num)
        element = element_of(descr)
        data = <const char *> cnp.PyArray_DATA(nvec)
        total = 0
        for i in range(cnp.PyArray_SIZE(nvec)):
            total += <npy_intp> <int64_t> element_bits(data, element, i)
        return total
    total = 0
    children = space.spaces.values() if cls is registry.Dict else space.spaces
    for child in children:
        total += flat_size(child)
    return total


cdef object segment_view(cnp.ndarray x, npy_intp begin, npy_intp end):
    """``x[begin:end]`` as a view (``np.split`` clips bounds past the end)."""
    cdef npy_intp length = cnp.PyArray_DIM(x, 0)
    if begin > length:
        begin = length
    if end > length:
        end = length
    if end < begin:
        end = begin
    return x[begin:end]


cdef object segment_as_vector(cnp.ndarray x, npy_intp begin, npy_intp end):
    """``x[begin:end].reshape((end - begin,))`` of an exact 1-D ndarray in one step.

    numpy's slice and same-shape reshape give a view with ``x``'s dtype and
    stride whose base is the first owner of the data (numpy collapses chains
    of views): exactly what this builds, without the two intermediate objects.
    """
    cdef npy_intp length = end - begin
    cdef npy_intp stride = cnp.PyArray_STRIDE(x, 0)
    cdef cnp.PyArray_Descr *descr = cnp.PyArray_DESCR(x)
    Py_INCREF(<object> descr)
    view = PyArray_NewFromDescr(<PyTypeObject *> cnp.ndarray, descr, 1, &length, &stride,
                                cnp.PyArray_BYTES(x) + begin * stride,
                                cnp.PyArray_FLAGS(x) & cnp.NPY_ARRAY_WRITEABLE, NULL)
    cnp.set_array_base(view, x)
    return view


cdef object float_segment_as_vector(cnp.ndarray x, npy_intp begin, npy_intp end, cnp.dtype descr):
    """``np.asarray(x[begin:end], dtype=descr).reshape((end - begin,))`` between
    float32 and float64, or ``None`` for any other case.

    numpy's result is a view of the cast copy (the same-shape reshape makes
    one). A value that would make numpy report a floating-point error under
    ``np.errstate`` -- a finite double overflowing float32 or underflowing it,
    any NaN (a signalling one raises "invalid") -- leaves the segment to
    numpy, warnings and errors included.
    """
    cdef int src_type = cnp.PyArray_TYPE(x)
    cdef int dst_type = descr.type_num
    cdef npy_intp length = end - begin, i
    cdef npy_intp stride = cnp.PyArray_STRIDE(x, 0)
    cdef const char *src
    cdef double value
    cdef float narrowed
    if ((src_type != cnp.NPY_DOUBLE and src_type != cnp.NPY_FLOAT)
            or (dst_type != cnp.NPY_DOUBLE and dst_type != cnp.NPY_FLOAT)
            or not cnp.PyArray_ISNBO(descr.byteorder) or not cnp.PyArray_ISNOTSWAPPED(x)
            or not cnp.PyArray_ISALIGNED(x)):
        return None
    cdef cnp.ndarray owner = cnp.PyArray_EMPTY(1, &length, dst_type, 0)
    cdef char *dst = <char *> cnp.PyArray_DATA(owner)
    src = <const char *> cnp.PyArray_BYTES(x) + begin * stride
    for i in range(length):
        if src_type == cnp.NPY_DOUBLE:
            value = (<const double *> (src + i * stride))[0]
        else:
            value = (<const float *> (src + i * stride))[0]
        if value != value:
            return None
        if dst_type == cnp.NPY_DOUBLE:
            (<double *> dst)[i] = value
        else:
            narrowed = <float> value
            # Overflow, or a result below float32's normal range (underflow):
            # numpy reports either through np.errstate.
            if (isinf(narrowed) and not isinf(value)) or (value != 0 and fabs(value) < FLT_MIN):
                return None
            (<float *> dst)[i] = narrowed
    return segment_as_vector(owner, 0, length)


cdef object unflatten_leaf(object space, cnp.ndarray x, npy_intp begin, npy_intp end, object fallback):
    cdef type cls = space_class(registry, space)
    cdef npy_intp length = cnp.PyArray_DIM(x, 0)
    cdef npy_intp position
    cdef dict namespace
    if end > length:
        end = length
    if begin > end:
        begin = end
    if cls is registry.Discrete and is_native_numeric_vector(x):
        namespace = instance_dict(space)
        position = first_nonzero(x, begin, end)
        # Checked: a segment longer than ``n`` (the last child's, of a long x)
        # could put ``start + position`` past the dtype, where numpy warns.
        if position >= 0 and (fallback is not REFUSE
                              or <uint64_t> (end - begin) == int_bits(attr(namespace, space, "n"))):
            return discrete_value(space, namespace, position)
    elif cls is registry.MultiDiscrete and is_native_numeric_vector(x):
        found = multi_discrete_decode(space, instance_dict(space), x, begin, end)
        if found is not None:
            return found
    elif cls is registry.Box or cls is registry.MultiBinary:
        namespace = instance_dict(space)
        descr = attr(namespace, space, "dtype")
        shape = attr(namespace, space, "_shape")
        if (type(x) is cnp.ndarray and type(shape) is tuple and len(<tuple> shape) == 1
                and type((<tuple> shape)[0]) is int and (<tuple> shape)[0] == end - begin):
            if cnp.PyArray_EquivTypes(<cnp.dtype> cnp.PyArray_DESCR(x), <cnp.dtype> descr):
                return segment_as_vector(x, begin, end)
            cast = float_segment_as_vector(x, begin, end, <cnp.dtype> descr)
            if cast is not None:
                return cast
        part = segment_view(x, begin, end)
        if not cnp.PyArray_EquivTypes(<cnp.dtype> cnp.PyArray_DESCR(x), <cnp.dtype> descr):
            if (fallback is REFUSE and not quiet_cast(x, <cnp.dtype> descr)
                    and not floats_fit(x, begin, end, <cnp.dtype> descr)):
                raise Refused()
            if cnp.PyArray_ISNBO((<cnp.dtype> descr).byteorder) and element_of(<cnp.dtype> descr) != NOT_NUMERIC:
                # np.asarray(part, dtype): a cast copy (unsafe casting allowed)
                part = cnp.PyArray_FROMANY(part, (<cnp.dtype> descr).type_num, 0, 0,
                                           cnp.NPY_ARRAY_FORCECAST)
            else:
                part = np.asarray(part, dtype=descr)
        # ``shape`` of the exact built-in classes is their ``_shape``.
        return cnp.PyArray_Reshape(<cnp.ndarray> part, attr(namespace, space, "_shape"))
    # Errors and unusual inputs: Gymnasium's own rules on the same segment.
    if fallback is REFUSE:
        raise Refused()
    return fallback(space, segment_view(x, begin, end))


cdef object unflatten_node(object space, cnp.ndarray x, npy_intp begin, npy_intp end, object fallback):
    cdef type cls = space_class(registry, space)
    if cls is registry.Dict or cls is registry.Tuple:
        return unflatten_children(space, cls is registry.Dict, x, begin, end, fallback)
    return unflatten_leaf(space, x, begin, end, fallback)


cdef object unflatten_children(object space, bint is_dict, cnp.ndarray x, npy_intp begin, npy_intp end,
                               object fallback):
    """A Dict's dict or a Tuple's tuple of its children's segments: each child
    takes ``flatdim`` values, the last one whatever is left (``np.split``)."""
    cdef npy_intp inline_sizes[INLINE_PARTS]
    cdef npy_intp *sizes = inline_sizes
    cdef npy_intp offset = begin, stop
    cdef Py_ssize_t i = 0, count, pos = 0
    cdef PyObject *key_ptr
    cdef PyObject *child_ptr
    cdef dict result
    cdef tuple values
    children = space.spaces
    if type(children) is not (dict if is_dict else tuple):  # changed since is_fast_node
        if fallback is REFUSE:
            raise Refused()
        return fallback(space, segment_view(x, begin, end))
    count = len(children)
    if count > INLINE_PARTS:
        sizes = <npy_intp *> malloc(count * sizeof(npy_intp))
        if sizes == NULL:
            raise MemoryError()
    try:
        if is_dict:
            while PyDict_Next(<dict> children, &pos, NULL, &child_ptr):
                child = <object> child_ptr  # owned: flat_size may run code (a property)
                sizes[i] = flat_size(child)
                i += 1
            result = {}
            pos = i = 0
            while PyDict_Next(<dict> children, &pos, &key_ptr, &child_ptr):
                stop = end if i == count - 1 else offset + sizes[i]
                # (a child's rule may run Python code: keep a reference and
                # stop as dict iteration would if the space's dict changes size)
                key = <object> key_ptr
                child = <object> child_ptr
                result[key] = unflatten_node(child, x, offset, stop, fallback)
                if len(<dict> children) != count:
                    raise RuntimeError("dictionary changed size during iteration")
                offset = stop
                i += 1
            return result
        for i in range(count):
            sizes[i] = flat_size((<tuple> children)[i])
        values = PyTuple_New(count)
        for i in range(count):
            stop = end if i == count - 1 else offset + sizes[i]
            value = unflatten_node((<tuple> children)[i], x, offset, stop, fallback)
            Py_INCREF(value)
            PyTuple_SET_ITEM(values, i, value)
            offset = stop
        return values
    finally:
        if sizes != inline_sizes:
            free(sizes)


def unflatten(space, x):
    cdef object out
    cdef type cls = space_class(registry, space)
    if registry.flatten_enabled and (cls is registry.Dict or cls is registry.Tuple):
        # What the built-in Dict/Tuple rules try first, without the dispatcher.
        out = unflatten_tree(space, x, registry.unflatten)
        if out is not None:
            return out
    return registry.unflatten(space, x)


cpdef object unflatten_tree(space, x, fallback):
    """``unflatten`` of a Tuple/Dict tree of fundamental spaces from a 1-D array, else ``None``.

    Segments are cut exactly as ``np.split`` at the running flat sizes cuts them
    (the last child takes the rest); Box leaves come back as views of ``x`` when
    the dtypes agree. ``fallback(space, segment)`` handles anything unusual.
    """
    if not registry.flatten_enabled or not cnp.PyArray_Check(x) or cnp.PyArray_NDIM(<cnp.ndarray> x) != 1:
        return None
    if not is_fast_node(space, 0):
        return None
    return unflatten_node(space, <cnp.ndarray> x, 0, cnp.PyArray_DIM(<cnp.ndarray> x, 0), fallback)


def flatdim_tree(space):
    """``flatdim`` of a MultiDiscrete or a Tuple/Dict tree of fundamental spaces,
    summed in C, else ``None`` (as ``unflatten_tree`` sizes its segments)."""
    if not registry.flatten_enabled or not is_fast_node(space, 0):
        return None
    cdef npy_intp total = flat_size(space)
    return total if total >= 0 else None  # (a sum past int64: numpy's own wrap decides)


# ----------------------------------------------------------------------------
# Checked entries: Gymnasium's spaces under patch mode
# ----------------------------------------------------------------------------
# Patch mode's rules for Gymnasium's ``flatten``, ``unflatten`` and ``flatdim``
# call these first. Each decides while it walks: every node it visits must
# pass the registry's ``node_reason`` (the Gymnasium layer's judge: the
# class, the instance's attributes, remembered by identity), and a value is
# read only where Gymnasium's own code could not warn or take another path
# (no float cast that may overflow or meet a NaN, no fallback to the Python
# rules). Anything else answers ``None`` -- nothing has been drawn or
# written -- and the rule runs its general path, which decides call by call.

cdef object REFUSE = object()  # the ``fallback`` of a checked unflatten: refuse instead


class Refused(Exception):
    """A checked unflatten met what it leaves to the general path."""


cdef bint quiet_cast(object x, cnp.dtype target):
    """Whether ``np.asarray(x, dtype=target)`` of an array ``x`` cannot warn:
    bool or integer values into an integer, bool, float32 or float64 dtype
    (numpy checks no overflow in integer casts, and no integer overflows
    float32). A float or complex source may meet a NaN, an infinity or a value
    out of range, and float16 may overflow: those are left to the general path."""
    if not cnp.PyArray_Check(x):
        return False
    cdef cnp.dtype descr = <cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> x)
    cdef char source = descr.kind
    cdef char kind = target.kind
    if source == b'f':  # widening is exact
        return kind == b'f' and target.itemsize > descr.itemsize
    if source != b'b' and source != b'i' and source != b'u':
        return False
    return kind == b'b' or kind == b'i' or kind == b'u' or (kind == b'f' and target.itemsize >= 4)


cdef bint floats_fit(cnp.ndarray x, npy_intp begin, npy_intp end, cnp.dtype target):
    """Whether casting ``x[begin:end]``, 1-D float32 or float64 values, into
    ``target`` cannot warn: into an integer dtype, every value finite and
    within its range (as ``int(value)`` would not overflow it); into float32,
    every value finite and within float32's normal range or zero (no overflow,
    no underflow). Other targets: False."""
    cdef int source = cnp.PyArray_TYPE(x)
    cdef char kind = target.kind
    cdef npy_intp i, stride = cnp.PyArray_STRIDE(x, 0)
    cdef const char *data
    cdef double value, floor, ceiling
    cdef int bits = 8 * <int> target.itemsize
    if ((source != cnp.NPY_DOUBLE and source != cnp.NPY_FLOAT) or not cnp.PyArray_ISNOTSWAPPED(x)
            or not cnp.PyArray_ISALIGNED(x) or cnp.PyArray_NDIM(x) != 1):
        return False
    if kind == b'i':
        floor, ceiling = -ldexp(1.0, bits - 1), ldexp(1.0, bits - 1) - 1
    elif kind == b'u':
        floor, ceiling = 0.0, ldexp(1.0, bits) - 1
    elif kind == b'f' and target.itemsize == 4:
        floor, ceiling = -FLT_MAX, FLT_MAX
    else:
        return False
    # For 64-bit integers the ceiling rounds up to 2**63 (2**64) as a double,
    # past the dtype: only doubles strictly below it fit.
    data = <const char *> cnp.PyArray_BYTES(x)
    for i in range(begin, end):
        if source == cnp.NPY_DOUBLE:
            value = (<const double *> (data + i * stride))[0]
        else:
            value = (<const float *> (data + i * stride))[0]
        if not (floor <= value <= ceiling) or (bits == 64 and kind != b'f' and value >= ceiling):
            return False  # (a NaN fails every comparison)
        if kind == b'f' and value != 0 and fabs(value) < FLT_MIN:
            return False
    return True


cpdef bint cast_is_quiet(object x, object target) except -1:
    """Whether ``np.asarray(x, dtype=target)`` of an ndarray ``x`` cannot warn, nor
    report anything through ``np.errstate`` (overflow, underflow, invalid), nor
    refuse complex values: the one rule patch mode decides numpy's casts by, in
    the checked kernels above and in the general rule's may-warn checks
    (``gymspaces.gymnasium._guard``). It errs towards "may warn": any array it
    cannot read through (not aligned, byte-swapped, not C-contiguous beyond 1-D)
    and any cast it does not cover are left to Gymnasium's own code."""
    if not cnp.PyArray_Check(x) or not isinstance(target, cnp.dtype):
        return False
    cdef cnp.ndarray array = <cnp.ndarray> x
    if cnp.PyArray_EquivTypes(<cnp.dtype> cnp.PyArray_DESCR(array), <cnp.dtype> target):
        return True
    if quiet_cast(array, <cnp.dtype> target):
        return True
    if cnp.PyArray_NDIM(array) != 1:
        if not cnp.PyArray_IS_C_CONTIGUOUS(array):
            return False
        array = cnp.PyArray_Ravel(array, cnp.NPY_CORDER)  # a view: the array is C-contiguous
    return floats_fit(array, 0, cnp.PyArray_DIM(array, 0), <cnp.dtype> target)


cdef object flat_copy(cnp.ndarray x):
    """``x.flatten()``: for a C-contiguous array of bools or numbers one allocation
    (with ``x``'s own descriptor, as numpy's) and a ``memcpy``; numpy's copy for
    any other layout or dtype."""
    cdef cnp.PyArray_Descr *descr = cnp.PyArray_DESCR(x)
    cdef char kind = (<cnp.dtype> descr).kind
    cdef npy_intp size = cnp.PyArray_SIZE(x)
    if not cnp.PyArray_IS_C_CONTIGUOUS(x) or not (
            kind == b'b' or kind == b'i' or kind == b'u' or kind == b'f' or kind == b'c'):
        return cnp.PyArray_Flatten(x, cnp.NPY_CORDER)
    Py_INCREF(<object> descr)
    flat = PyArray_NewFromDescr(<PyTypeObject *> cnp.ndarray, descr, 1, &size, NULL, NULL, 0, NULL)
    memcpy(cnp.PyArray_DATA(<cnp.ndarray> flat), cnp.PyArray_DATA(x), cnp.PyArray_NBYTES(x))
    return flat


cpdef object flatten_checked(space, x):
    """Gymnasium's ``flatten(space, x)``, computed only where it provably is; else ``None``."""
    cdef type cls = space_class(registry, space)
    cdef object result
    if not registry.flatten_enabled:
        return None
    if cls is registry.Dict or cls is registry.Tuple:
        return gathered_write(False, space, x, None, True)
    if cls is registry.Box or cls is registry.MultiBinary:
        # np.asarray(x, dtype=space.dtype).flatten(): ``x`` itself when its dtype
        # is the space's. It reads the dtype only: the class verdict and that
        # attribute's own check decide.
        if type(x) is cnp.ndarray and registry.class_passes(space):
            dtype = attr(instance_dict(space), space, "dtype")
            if cnp.PyArray_DescrCheck(dtype) and cnp.PyArray_EquivTypes(
                    <cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> x), <cnp.dtype> dtype):
                return flat_copy(<cnp.ndarray> x)
        return None
    if registry.node_reason(space) is not None:
        return None
    if cls is registry.Discrete:
        return discrete_flat(space, x)
    if cls is registry.MultiDiscrete:
        return multi_discrete_one_hot(space, x)
    return None


cpdef object unflatten_checked(space, x):
    """Gymnasium's ``unflatten(space, x)``, computed only where it provably is; else ``None``."""
    cdef type cls = space_class(registry, space)
    cdef dict namespace
    if not registry.flatten_enabled or type(x) is not cnp.ndarray:
        return None
    if cls is registry.Box or cls is registry.MultiBinary:
        # np.asarray(x, dtype=space.dtype).reshape(space.shape), of an x of any
        # shape: it reads the dtype and the shape only (the class verdict and
        # their own checks decide).
        if not registry.class_passes(space):
            return None
        namespace = instance_dict(space)
        dtype = attr(namespace, space, "dtype")
        if not cnp.PyArray_DescrCheck(dtype) or not cnp.PyArray_EquivTypes(
                <cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> x), <cnp.dtype> dtype):
            return None
        return cnp.PyArray_Reshape(<cnp.ndarray> x, attr(namespace, space, "_shape"))
    # Any other root, leaf or tree, as a node of a tree: the same walk, refusing
    # whatever it would leave to the Python rules.
    if cnp.PyArray_NDIM(<cnp.ndarray> x) != 1 or not is_fast_node(space, 0, True):
        return None
    try:
        return unflatten_node(space, <cnp.ndarray> x, 0, cnp.PyArray_DIM(<cnp.ndarray> x, 0), REFUSE)
    except Refused:
        return None


cpdef object flatdim_checked(space):
    """Gymnasium's ``flatdim(space)``, computed only where it provably is; else ``None``."""
    cdef type cls = space_class(registry, space)
    cdef npy_intp total
    if cls is registry.Dict or cls is registry.Tuple:
        if not registry.flatten_enabled or not is_fast_node(space, 0, True):
            return None
        total = flat_size(space)
        return total if total >= 0 else None
    if cls is registry.Box or cls is registry.MultiBinary:
        # functools.reduce(operator.mul, space.shape, 1): the shape only.
        if not registry.class_passes(space):
            return None
        shape = attr(instance_dict(space), space, "_shape")
        if type(shape) is not tuple:
            return None
        product = 1
        for dim in <tuple> shape:
            if type(dim) is not int:
                return None
            product = product * dim
        return product
    if cls is registry.MultiDiscrete:
        # int(np.sum(space.nvec)): an integer array of the space's dtype (the judge), summed in C.
        if registry.node_reason(space) is not None or not is_fast_node(space, 0, False):
            return None
        total = flat_size(space)
        return total if total >= 0 else None
    return None


# ----------------------------------------------------------------------------
# May a cast warn: patch mode's QUIET_CAST check of flatten and unflatten
# ----------------------------------------------------------------------------
# The general rule's answer where the checked entries above answered None: may
# Gymnasium's helper warn casting this value (numpy's "invalid value" or
# "overflow encountered in cast", an underflow under np.errstate)? Then
# Gymnasium's own code runs. Both walk a tree every node of which its judge
# has admitted (the TREE check runs first), by ``cast_is_quiet``, the one rule
# of which casts are quiet. A value that is not what the kernels read through
# (not an exact ndarray where one is cast) may warn: numpy's casts decide.

cpdef bint flatten_may_warn(space, x) except -1:
    """Whether Gymnasium's ``flatten(space, x)`` may warn in a cast."""
    return value_may_warn(space, x, 0)


cdef bint value_may_warn(space, x, int depth) except -1:
    cdef type cls = kind_of(registry, space)
    cdef dict namespace = instance_dict(space)
    cdef npy_intp size = 0
    if depth > MAX_KERNEL_DEPTH or namespace is None:
        return True
    if cls is registry.Box or cls is registry.MultiBinary:
        return type(x) is not cnp.ndarray or not cast_is_quiet(x, namespace.get("dtype"))
    if cls is registry.Discrete:
        # Its rule takes an integer of the space's dtype in range; numpy indexes
        # any other input, and its scalar arithmetic may warn.
        return discrete_index(space, namespace, x, &size) < 0
    if cls is registry.Dict:
        if type(x) is not dict:
            return True
        for key, child in (<dict> namespace["spaces"]).items():
            if key in x and value_may_warn(child, (<dict> x)[key], depth + 1):
                return True
        return False
    if cls is registry.Tuple:
        if type(x) is not tuple:
            return True
        for child, item in zip(namespace["spaces"], <tuple> x):
            if value_may_warn(child, item, depth + 1):
                return True
        return False
    if cls is registry.OneOf:
        if type(x) is not tuple or len(<tuple> x) != 2:
            return True
        try:
            child = namespace["spaces"][(<tuple> x)[0]]
        except (IndexError, TypeError):
            return True
        return value_may_warn(child, (<tuple> x)[1], depth + 1)
    if cls is registry.Sequence:
        if type(x) is not tuple:
            return True
        for item in <tuple> x:
            if value_may_warn(namespace["feature_space"], item, depth + 1):
                return True
        return False
    if cls is registry.Graph:
        for part, child in ((getattr(x, "nodes", None), namespace["node_space"]),
                            (getattr(x, "edges", None), namespace.get("edge_space"))):
            if child is None or part is None:
                continue
            if type(part) is not cnp.ndarray or array_may_warn(child, <cnp.ndarray> part, depth + 1):
                return True
        return False
    return False  # (MultiDiscrete's one-hot indexes; Text flattens no array)


cpdef bint unflatten_may_warn(space, x) except -1:
    """Whether Gymnasium's ``unflatten(space, x)`` may warn in a cast: some array
    anywhere in ``x`` (nested tuples, lists and dicts, a graph's nodes and edges)
    cast into some dtype of ``space``'s tree. A value nested deeper than
    ``MAX_VALUE_DEPTH`` may: it is left to Gymnasium's code."""
    arrays = []
    if not collect_arrays(x, arrays, 0):
        return True
    for array in arrays:
        if array_may_warn(space, <cnp.ndarray> array, 0):
            return True
    return False


cdef enum:
    # How deep ``collect_arrays`` follows a value: the caller's value, not a
    # space, so the C stack must not follow it as far as it goes (Python's
    # default recursion limit, where the Python walk this replaces stopped).
    MAX_VALUE_DEPTH = 1000


cdef bint collect_arrays(x, list found, int depth) except -1:
    """Append the arrays in ``x`` to ``found``; False when ``x`` is nested too deep to walk."""
    cdef type kind = type(x)
    if depth > MAX_VALUE_DEPTH:
        return False
    if kind is cnp.ndarray:
        found.append(x)
    elif kind is tuple or kind is list:
        for item in x:
            if not collect_arrays(item, found, depth + 1):
                return False
    elif kind is dict:
        for item in (<dict> x).values():
            if not collect_arrays(item, found, depth + 1):
                return False
    elif x is not None:
        for name in ("nodes", "edges"):
            part = getattr(x, name, None)
            if part is not None and part is not x and not collect_arrays(part, found, depth + 1):
                return False
    return True


cdef bint array_may_warn(space, cnp.ndarray array, int depth) except -1:
    """Whether casting ``array`` into a dtype of ``space``'s tree may warn: Box and
    MultiBinary leaves cast it into theirs, OneOf its index into int64 and a
    slice into its child's flat dtype (an integer one for Discrete and
    MultiDiscrete). A complex array always may (into any real dtype)."""
    cdef type cls = kind_of(registry, space)
    if (<cnp.dtype> cnp.PyArray_DESCR(array)).kind == b'c' or depth > MAX_KERNEL_DEPTH:
        return True
    if is_array_leaf(registry, cls):
        target = getattr(space, "__dict__", {}).get("dtype")
        return isinstance(target, np.dtype) and not cast_is_quiet(array, target)
    if cls is registry.OneOf and not cast_is_quiet(array, INT64_DESCR):
        return True
    for child in sub_spaces(space):
        if array_may_warn(child, array, depth + 1):
            return True
    return False
