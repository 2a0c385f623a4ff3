# Generator.choice as the kernels reproduce it: the checks and sums of ``p``,
# its cdf and search (exact numpy arithmetic, below), and the two forms Discrete
# and MultiDiscrete draw with -- ``choice(valid_indices)`` under a mask and
# ``choice(a, p=p)`` under a probability vector.

cimport numpy as cnp
from libc.stdint cimport int8_t, uint64_t
from numpy cimport npy_intp

from gymspaces._distributions cimport random_bounded_uint64_fill
from gymspaces._rng cimport RNGHandle

cdef enum ChoiceCheck:
    CHOICE_OK = 0
    CHOICE_NAN = 1
    CHOICE_NEGATIVE = 2
    CHOICE_NOT_NORMALISED = 3

cdef double pairwise_sum(const double *a, npy_intp n) noexcept nogil
cdef bint isclose_to_one(double value) noexcept nogil
cdef ChoiceCheck check_choice_probabilities(const double *p, npy_intp n, double atol) noexcept nogil
cdef double choice_tolerance(object p) except -1.0
cdef double CHOICE_ATOL
cdef ChoiceCheck check_unit_probabilities(const double *p, npy_intp n, double atol,
                                          double pairwise_total) noexcept nogil
cdef void normalised_cdf(const double *p, npy_intp n, double *cdf) noexcept nogil
cdef void cumulative_sum(const double *p, npy_intp n, double *cdf) noexcept nogil
cdef npy_intp search_right_normalised(const double *cdf, npy_intp n, double u) noexcept nogil
cdef npy_intp search_right(const double *cdf, npy_intp n, double u) noexcept nogil
cdef object choice_error(ChoiceCheck code)


# ``choice`` as Discrete and MultiDiscrete call it (in _categorical.pyx).
cdef object masked_choice(RNGHandle handle, object mask)
cdef npy_intp probability_choice(RNGHandle handle, object probability,
                                 npy_intp expected=*, double unit_total=*) except -1
cdef double probability_sum(object probability) except? -1.0
cdef double contiguous_sum(cnp.ndarray values) except? -1.0
cdef bint all_in_unit_interval(object probability)


# Small helpers of the masked paths, inline where they are called: the draw of
# ``choice`` without ``p`` (the caller must not hold the bit generator's lock)
# and reads of 1-D int8 masks and float64 probability vectors.

cdef inline uint64_t draw_index(RNGHandle handle, uint64_t count):
    """One bounded int64 draw in ``[0, count)``: ``choice`` of ``count`` items without ``p``, or ``integers(count)``."""
    cdef uint64_t value
    cdef bint locked = handle.lock_draws(False)
    try:
        random_bounded_uint64_fill(handle.bitgen, 0, count - 1, 1, False, &value)
    finally:
        handle.unlock_draws(locked)
    return value


cdef inline npy_intp count_ones(cnp.ndarray mask, bint *only_binary) noexcept:
    """Count entries equal to 1 of a 1-D int8 array; flag any value outside {0, 1}."""
    cdef char *data = <char *> cnp.PyArray_DATA(mask)
    cdef npy_intp stride = cnp.PyArray_STRIDE(mask, 0)
    cdef npy_intp length = cnp.PyArray_DIM(mask, 0)
    cdef npy_intp i, ones = 0
    cdef int8_t v
    only_binary[0] = True
    for i in range(length):
        v = (<int8_t *> (data + i * stride))[0]
        if v == 1:
            ones += 1
        elif v != 0:
            only_binary[0] = False
    return ones


cdef inline npy_intp nth_one(cnp.ndarray mask, npy_intp rank) noexcept:
    """Position of the ``rank``-th (0-based) entry equal to 1 of a 1-D int8 array."""
    cdef char *data = <char *> cnp.PyArray_DATA(mask)
    cdef npy_intp stride = cnp.PyArray_STRIDE(mask, 0)
    cdef npy_intp length = cnp.PyArray_DIM(mask, 0)
    cdef npy_intp i
    for i in range(length):
        if (<int8_t *> (data + i * stride))[0] == 1:
            if rank == 0:
                return i
            rank -= 1
    return -1


cdef inline bint is_1d_int8(object x):
    return (cnp.PyArray_Check(x) and cnp.PyArray_NDIM(<cnp.ndarray> x) == 1
            and cnp.PyArray_TYPE(<cnp.ndarray> x) == cnp.NPY_INT8)


cdef inline bint is_native_float64(object x):
    return (cnp.PyArray_Check(x) and cnp.PyArray_TYPE(<cnp.ndarray> x) == cnp.NPY_DOUBLE
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> x))


cdef inline int require_typed_array(object x, str noun, bint probability) except -1:
    """Gymnasium's first two assertions on a mask (int8) or a probability (native float64)."""
    if not cnp.PyArray_Check(x):
        raise AssertionError(f"The expected type of the {noun} is np.ndarray, actual type: {type(x)}")
    if not is_native_float64(x) if probability else cnp.PyArray_TYPE(<cnp.ndarray> x) != cnp.NPY_INT8:
        expected = "np.float64" if probability else "np.int8"
        raise AssertionError(f"The expected dtype of the {noun} is {expected}, actual dtype: {x.dtype}")
    return 0
