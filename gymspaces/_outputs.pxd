# Output arrays of batched kernels (``sample_batch``): allocated here, or the
# caller's ``out`` after checking that a kernel may write into it directly.

cimport numpy as cnp
from numpy cimport npy_intp


cdef inline cnp.ndarray batch_array(cnp.ndarray like, npy_intp n, int type_num, object out):
    """An ``(n, *like.shape)`` array of ``type_num``: ``out`` once checked, or a new one.

    ``out`` must be a writeable, aligned, C-contiguous, native-order ndarray of exactly
    that shape, whose dtype has the kind and width of ``type_num``.
    """
    cdef int ndim = cnp.PyArray_NDIM(like)
    cdef npy_intp dims[33]
    cdef int i
    cdef cnp.dtype own, expected_descr
    if ndim > 31:
        raise ValueError("a batch supports at most 31 dimensions per sample")
    dims[0] = n
    for i in range(ndim):
        dims[i + 1] = cnp.PyArray_DIM(like, i)
    if out is None:
        return cnp.PyArray_EMPTY(ndim + 1, dims, type_num, 0)
    if not cnp.PyArray_Check(out):
        raise TypeError(f"out must be a numpy.ndarray, actual type: {type(out)}")
    expected = tuple([dims[i] for i in range(ndim + 1)])
    if (<object> out).shape != expected:
        raise ValueError(f"out must have shape {expected}, actual shape: {(<object> out).shape}")
    own = <cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> out)
    expected_descr = cnp.PyArray_DescrFromType(type_num)
    if (own.kind != expected_descr.kind or own.itemsize != expected_descr.itemsize
            or not cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> out)):
        raise ValueError(f"out must have dtype {expected_descr}, actual dtype: {own}")
    if not (cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> out) and cnp.PyArray_ISALIGNED(<cnp.ndarray> out)
            and cnp.PyArray_ISWRITEABLE(<cnp.ndarray> out)):
        raise ValueError("out must be C-contiguous, aligned and writeable")
    return <cnp.ndarray> out
