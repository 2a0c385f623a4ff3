# Array attributes of a space (Box bounds, MultiDiscrete nvec and start) as
# the kernels' C loops read them.

cimport numpy as cnp

import numpy as np


cdef inline cnp.ndarray as_c_array(object values, int type_num):
    """``values`` as an aligned C-contiguous native array of ``type_num``, without copying if it is one."""
    if (cnp.PyArray_Check(values) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> values)
            and cnp.PyArray_ISALIGNED(<cnp.ndarray> values) and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> values)
            and cnp.PyArray_TYPE(<cnp.ndarray> values) == type_num):
        return <cnp.ndarray> values
    # (ascontiguousarray keeps an unaligned array as it is: require copies it.)
    return np.require(values, dtype=cnp.PyArray_DescrFromType(type_num), requirements="CA")


cdef inline bint same_shape(cnp.ndarray x, object shape) except -1:
    """``x.shape == shape``, compared in C when ``shape`` is a tuple of ints."""
    cdef Py_ssize_t i
    cdef int ndim = cnp.PyArray_NDIM(x)
    if type(shape) is not tuple:
        return (<object> x).shape == shape
    if len(<tuple> shape) != ndim:
        return False
    for i in range(ndim):
        item = (<tuple> shape)[i]
        if type(item) is int:
            if item != cnp.PyArray_DIM(x, i):
                return False
        elif not (cnp.PyArray_DIM(x, i) == item):  # as the tuples compare: x's entry first
            return False
    return True


cdef inline bint same_dims(cnp.ndarray a, cnp.ndarray b) noexcept:
    """Whether ``a`` and ``b`` have the same shape (both arrays: no shape tuple is built)."""
    cdef int i
    if cnp.PyArray_NDIM(a) != cnp.PyArray_NDIM(b):
        return False
    for i in range(cnp.PyArray_NDIM(a)):
        if cnp.PyArray_DIM(a, i) != cnp.PyArray_DIM(b, i):
            return False
    return True
