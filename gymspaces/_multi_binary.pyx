"""Kernels of MultiBinary sampling.

Unmasked and masked samples are ``integers(0, 2, size=n, dtype=int8)``: numpy's
8-bit bounded fill, which for a range of one takes bit 7 of successive bytes of
``next_uint32`` words. Probability samples are ``random(n) <= p``. Membership
of an array of a numeric dtype is decided in one pass over its memory.
"""

import sys
from collections.abc import Sequence

cimport numpy as cnp
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t
from numpy cimport npy_intp

from gymspaces._arrays cimport as_c_array, same_shape
from gymspaces._attrs cimport attr, instance_dict
from gymspaces._box cimport space_shape
from gymspaces._dtypes cimport (
    NOT_NUMERIC, EL_DOUBLE, EL_FLOAT, EL_HALF, EL_UINT8, EL_UINT16, EL_UINT32, EL_UINT64, Element, array_element, as_double,
    half_t, unsigned_of,
)
from gymspaces._categorical cimport is_native_float64, require_typed_array
from gymspaces._distributions cimport random_bounded_uint8_fill, random_standard_uniform
from gymspaces._outputs cimport batch_array
from gymspaces._rng cimport NOGIL_THRESHOLD, RNGHandle, rng_handle, rng_handle_from

import numpy as np

from gymspaces._arguments import mask_and_probability_error

cnp.import_array()

cdef bint ASSERTS = not sys.flags.optimize


cdef cnp.ndarray empty_int8(object n):
    """An int8 array shaped like ``integers(..., size=n)`` would be."""
    cdef npy_intp dim
    if type(n) is int:
        dim = n
        return cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT8, 0)
    return np.empty(n, dtype=np.int8)


cdef int fill_bits(RNGHandle handle, cnp.ndarray out) except -1:
    cdef npy_intp size = cnp.PyArray_SIZE(out)
    cdef uint8_t *data = <uint8_t *> cnp.PyArray_DATA(out)
    cdef bint bulk = size > NOGIL_THRESHOLD
    cdef bint locked = handle.lock_draws(bulk)
    try:
        if bulk:
            with nogil:
                random_bounded_uint8_fill(handle.bitgen, 0, 1, size, False, data)
        else:
            random_bounded_uint8_fill(handle.bitgen, 0, 1, size, False, data)
    finally:
        handle.unlock_draws(locked)
    return 0


def multi_binary_sample(self, mask=None, probability=None):
    """Sample of a :class:`~gymspaces.MultiBinary` space (bound as ``MultiBinary.sample``).

    Parameters
    ----------
    mask : numpy.ndarray of int8, optional
        Same shape as the space: 0 or 1 fixes the entry, 2 leaves it random.
    probability : numpy.ndarray of float64, optional
        Same shape as the space: probability of each entry being 1.

    Returns
    -------
    numpy.ndarray
        An int8 array of the space's shape.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import MultiBinary
    >>> space = MultiBinary(4, seed=0)
    >>> space.sample()
    array([0, 1, 1, 1], dtype=int8)
    >>> space.sample(mask=np.array([1, 0, 2, 2], dtype=np.int8))  # entries 0 and 1 fixed
    array([1, 0, 0, 1], dtype=int8)
    >>> space.sample(probability=np.array([0.0, 1.0, 0.5, 0.5]))
    array([0, 1, 1, 0], dtype=int8)
    """
    cdef RNGHandle handle
    cdef cnp.ndarray out, drawn, m, u, p
    cdef npy_intp i, size
    cdef int8_t *o
    cdef const int8_t *mv
    cdef double *uv
    cdef const double *pv
    cdef dict namespace
    if mask is None and probability is None:
        namespace = instance_dict(self)
        handle = rng_handle_from(namespace, self)
        out = empty_int8(attr(namespace, self, "n"))
        fill_bits(handle, out)
        return out
    if mask is not None and probability is not None:
        raise mask_and_probability_error(mask, probability)
    if mask is not None:
        if ASSERTS:
            require_typed_array(mask, "mask", False)
            if mask.shape != self.shape:
                raise AssertionError(
                    f"The expected shape of the mask is {self.shape}, actual shape: {mask.shape}")
            if not np.all((mask == 0) | (mask == 1) | (mask == 2)):
                raise AssertionError(
                    f"All values of a mask should be 0, 1 or 2, actual values: {mask}")
        handle = rng_handle(self)
        drawn = empty_int8(self.n)
        fill_bits(handle, drawn)
        if not (cnp.PyArray_Check(mask) and cnp.PyArray_TYPE(<cnp.ndarray> mask) == cnp.NPY_INT8
                and mask.shape == (<object> drawn).shape):
            # Only reachable with assertions off: let numpy broadcast (or raise) as it would.
            return np.where(mask == 2, drawn, mask.astype(np.int8))
        m = np.ascontiguousarray(mask)
        mv = <const int8_t *> cnp.PyArray_DATA(m)
        o = <int8_t *> cnp.PyArray_DATA(drawn)
        for i in range(cnp.PyArray_SIZE(drawn)):
            if mv[i] != 2:
                o[i] = mv[i]
        return drawn
    if ASSERTS:
        require_typed_array(probability, "probability", True)
        if probability.shape != self.shape:
            raise AssertionError(
                f"The expected shape of the probability is {self.shape}, actual shape: {probability}")
        if not np.all(np.logical_and(probability >= 0, probability <= 1)):
            raise AssertionError(
                "All values of the sample probability should be between 0 and 1, "
                f"actual values: {probability}")
    handle = rng_handle(self)
    u = np.empty(self.shape, dtype=np.float64)
    size = cnp.PyArray_SIZE(u)
    uv = <double *> cnp.PyArray_DATA(u)
    cdef bint locked = handle.lock_draws(False)
    try:
        for i in range(size):
            uv[i] = random_standard_uniform(handle.bitgen)
    finally:
        handle.unlock_draws(locked)
    if not (is_native_float64(probability) and probability.shape == (<object> u).shape):
        return (u <= probability).astype(np.int8)
    p = as_c_array(probability, cnp.NPY_DOUBLE)
    pv = <const double *> cnp.PyArray_DATA(p)
    out = cnp.PyArray_EMPTY(cnp.PyArray_NDIM(u), cnp.PyArray_DIMS(u), cnp.NPY_INT8, 0)
    o = <int8_t *> cnp.PyArray_DATA(out)
    for i in range(size):
        o[i] = uv[i] <= pv[i]
    return out


def multi_binary_sample_batch(self, npy_intp n, out=None):
    """``n`` successive unmasked samples stacked into an ``(n, *shape)`` int8 array.

    Each sample is its own 8-bit fill, as ``n`` calls of ``sample()`` make them
    (the fill's bit buffer starts afresh on every call).

    Parameters
    ----------
    n : int
        Number of samples (``>= 0``).
    out : numpy.ndarray, optional
        C-contiguous, writeable int8 array of shape ``(n, *shape)``.
    """
    if n < 0:
        raise ValueError(f"the number of samples must be non-negative, got {n}")
    cdef dict namespace = instance_dict(self)
    cdef cnp.ndarray one = empty_int8(attr(namespace, self, "n"))
    cdef npy_intp size = cnp.PyArray_SIZE(one)
    cdef cnp.ndarray result = batch_array(one, n, cnp.NPY_INT8, out)
    cdef uint8_t *data = <uint8_t *> cnp.PyArray_DATA(result)
    cdef RNGHandle handle = rng_handle_from(namespace, self)
    cdef npy_intp r
    cdef bint bulk = size * n > NOGIL_THRESHOLD
    cdef bint locked = handle.lock_draws(bulk)
    try:
        if bulk:
            with nogil:
                for r in range(n):
                    random_bounded_uint8_fill(handle.bitgen, 0, 1, size, False, data + r * size)
        else:
            for r in range(n):
                random_bounded_uint8_fill(handle.bitgen, 0, 1, size, False, data + r * size)
    finally:
        handle.unlock_draws(locked)
    return result



def multi_binary_masked_batch(self, npy_intp n, mask, out=None):
    """``n`` successive masked samples stacked; ``None`` if the mask is not covered here.

    ``mask`` is an int8 array of shape ``(n, *shape)`` (row ``r`` masks
    sample ``r``) or ``shape`` (every sample): 0 and 1 fix an entry, 2 leaves
    it to the draw. Each sample draws its own full fill, then applies its row,
    after checking that row as ``sample`` checks its mask.
    """
    if not ASSERTS or not cnp.PyArray_Check(mask) or cnp.PyArray_TYPE(<cnp.ndarray> mask) != cnp.NPY_INT8:
        return None
    if not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> mask):
        return None
    cdef dict namespace = instance_dict(self)
    cdef cnp.ndarray one = empty_int8(attr(namespace, self, "n"))
    shape = (<object> one).shape
    cdef bint per_row
    if (<object> mask).shape == shape:
        per_row = False
    elif (<object> mask).shape == (n,) + shape:
        per_row = True
    else:
        return None
    cdef npy_intp size = cnp.PyArray_SIZE(one)
    cdef cnp.ndarray result = batch_array(one, n, cnp.NPY_INT8, out)
    cdef int8_t *data = <int8_t *> cnp.PyArray_DATA(result)
    cdef const int8_t *m = <const int8_t *> cnp.PyArray_DATA(<cnp.ndarray> mask)
    cdef const int8_t *row
    cdef RNGHandle handle = rng_handle_from(namespace, self)
    cdef npy_intp r, i
    cdef bint locked
    for r in range(n):
        row = m + (r * size if per_row else 0)
        for i in range(size):
            if row[i] != 0 and row[i] != 1 and row[i] != 2:
                shown = mask[r] if per_row else mask
                raise AssertionError(f"All values of a mask should be 0, 1 or 2, actual values: {shown}")
        locked = handle.lock_draws(False)
        try:
            random_bounded_uint8_fill(handle.bitgen, 0, 1, size, False, <uint8_t *> (data + r * size))
        finally:
            handle.unlock_draws(locked)
        for i in range(size):
            if row[i] != 2:
                data[r * size + i] = row[i]
    return result


# ----------------------------------------------------------------------------
# Membership
# ----------------------------------------------------------------------------

# What a membership test reads: floats, and integers and bools as unsigned.
ctypedef fused binary_t:
    double
    float
    half_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t


cdef bint all_binary(const binary_t *data, npy_intp size) noexcept nogil:
    """Whether each of ``size`` values is 0 or 1 (``x == 0 or x == 1`` as numpy
    compares them: -0.0 is 0, NaN is neither)."""
    cdef npy_intp i
    cdef double value
    for i in range(size):
        if binary_t is double or binary_t is float or binary_t is half_t:
            value = as_double(data[i])
            if value != 0 and value != 1:
                return False
        elif data[i] > 1:  # unsigned: 0 and 1 only
            return False
    return True


cdef object binary_array_contains(space, object x):
    """``MultiBinary.contains(x)`` of a C-contiguous native ndarray of a real
    numeric dtype; ``None`` for anything else (numpy's comparisons decide)."""
    cdef cnp.ndarray arr
    cdef Element element
    cdef const void *data
    cdef npy_intp size
    cdef bint inside
    if (type(x) is not cnp.ndarray or not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x)
            or not cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> x) or not cnp.PyArray_ISALIGNED(<cnp.ndarray> x)):
        return None
    arr = <cnp.ndarray> x
    # Integers and bools are tested sign-blind: -1 is not 1 in any width.
    element = unsigned_of(array_element(arr))
    if element == NOT_NUMERIC:
        return None
    if not same_shape(arr, space_shape(space, instance_dict(space))):
        return False
    data = cnp.PyArray_DATA(arr)
    size = cnp.PyArray_SIZE(arr)
    with nogil:
        if element == EL_DOUBLE: inside = all_binary(<const double *> data, size)
        elif element == EL_FLOAT: inside = all_binary(<const float *> data, size)
        elif element == EL_HALF: inside = all_binary(<const half_t *> data, size)
        elif element == EL_UINT8: inside = all_binary(<const uint8_t *> data, size)
        elif element == EL_UINT16: inside = all_binary(<const uint16_t *> data, size)
        elif element == EL_UINT32: inside = all_binary(<const uint32_t *> data, size)
        elif element == EL_UINT64: inside = all_binary(<const uint64_t *> data, size)
        else:
            inside = False
    return inside


def multi_binary_contains(self, x):
    """Whether ``x`` (an array, or a sequence converted to one) has the space's
    shape and only 0s and 1s (bound as ``MultiBinary.contains``).

    The dtype is not checked: any array of 0s and 1s of the right shape belongs.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import MultiBinary
    >>> space = MultiBinary(3)
    >>> space.contains(np.array([1, 0, 1], dtype=np.int8)), space.contains([1.0, 0.0, 1.0])
    (True, True)
    >>> space.contains(np.array([1, 0, 2])), space.contains(np.array([1, 0]))  # a 2; wrong shape
    (False, False)
    """
    inside = binary_array_contains(self, x)
    if inside is not None:
        return inside
    if isinstance(x, Sequence):
        x = np.array(x)
    return bool(isinstance(x, np.ndarray) and self.shape == x.shape and np.all(np.logical_or(x == 0, x == 1)))
