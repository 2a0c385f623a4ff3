"""Kernels of Discrete and MultiDiscrete sampling.

Each function reproduces the Generator calls Gymnasium 1.4.0 makes:

* ``Discrete`` plain: ``integers(n, dtype=dtype)`` -> numpy's bounded fill of the
  dtype's width (8/16-bit fills use a buffer local to the call).
* ``Discrete``/``MultiDiscrete`` mask: ``choice(valid_indices)`` -> one bounded
  int64 draw over the number of valid entries (none when there is one).
* probability: ``choice(a, p=p)`` -> one ``next_double`` mapped through the cdf.
* ``MultiDiscrete`` plain: ``trunc(random(shape) * nvec) + start``.
"""

import sys
import warnings

from gymspaces._arguments import mask_and_probability_error

from gymspaces._warnings import scalar_overflow_message

from libc.math cimport NAN, isnan

cimport numpy as cnp
from cpython.bool cimport PyBool_Check
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_CheckExact
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from numpy cimport npy_intp
from numpy.random cimport bitgen_t

from gymspaces._categorical cimport (
    CHOICE_OK, ChoiceCheck, check_choice_probabilities, choice_error, choice_tolerance, isclose_to_one,
    check_unit_probabilities, cumulative_sum, normalised_cdf, pairwise_sum, search_right,
    search_right_normalised,
)
from gymspaces._distributions cimport (
    random_bounded_uint8_fill, random_bounded_uint16_fill, random_bounded_uint32_fill,
    random_bounded_uint64_fill, random_standard_uniform,
)
from gymspaces._attrs cimport attr, instance_dict
from gymspaces._outputs cimport batch_array
from gymspaces._rng cimport (
    NOGIL_THRESHOLD, RNGHandle, any_bitgen, clone_pcg64, double_source, gs_pcg128_t, inline_pcg64, pcg64_clone,
    rng_handle, rng_handle_from, source_double,
)
from gymspaces._scalars cimport (
    add_overflows, element_bits, int_bits, is_numpy_integer, make_scalar, native_integer_descr,
    truncate_signed,
)

import numpy as np

cnp.import_array()

# Gymnasium validates masks with ``assert``; mirror ``python -O`` skipping them.
cdef bint ASSERTS = not sys.flags.optimize
cdef enum:
    # Probability vectors up to this length keep their cdf on the stack.
    STACK_CDF = 64
    # Discrete spaces up to this size keep a table of their possible results.
    SCALAR_TABLE_MAX = 256

ctypedef fused integral:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t


# ----------------------------------------------------------------------------
# Draw primitives (caller holds the bit generator's lock)
# ----------------------------------------------------------------------------

cdef inline uint64_t bounded_draw(bitgen_t *bitgen, uint64_t rng, int itemsize) noexcept nogil:
    """One ``integers(0, rng + 1)`` draw with the routine of the given width."""
    cdef uint8_t v8
    cdef uint16_t v16
    cdef uint32_t v32
    cdef uint64_t v64
    if itemsize == 1:
        random_bounded_uint8_fill(bitgen, 0, <uint8_t> rng, 1, False, &v8)
        return v8
    if itemsize == 2:
        random_bounded_uint16_fill(bitgen, 0, <uint16_t> rng, 1, False, &v16)
        return v16
    if itemsize == 4:
        random_bounded_uint32_fill(bitgen, 0, <uint32_t> rng, 1, False, &v32)
        return v32
    random_bounded_uint64_fill(bitgen, 0, rng, 1, False, &v64)
    return v64


cdef inline uint64_t draw_index(RNGHandle handle, uint64_t count):
    """``choice`` over ``count`` items without ``p``: one bounded int64 draw."""
    cdef uint64_t value
    cdef bint locked = handle.lock_draws(False)
    try:
        random_bounded_uint64_fill(handle.bitgen, 0, count - 1, 1, False, &value)
    finally:
        handle.unlock_draws(locked)
    return value


cdef object add_start(cnp.dtype descr, uint64_t start, uint64_t value):
    """``start + dtype(value)`` with numpy scalar semantics (wrap plus RuntimeWarning)."""
    if add_overflows(start, value, descr.kind == b'i', descr.itemsize):
        warnings.warn(scalar_overflow_message(descr), RuntimeWarning, stacklevel=3)
    return make_scalar(descr, start + value)


cdef npy_intp count_ones(cnp.ndarray mask, bint *only_binary) noexcept:
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


cdef npy_intp nth_one(cnp.ndarray mask, npy_intp rank) noexcept:
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


cdef object masked_choice(RNGHandle handle, object mask):
    """Index chosen uniformly among the entries of ``mask`` equal to 1, or ``None``.

    Mirrors ``choice(np.where(mask == 1)[0])``; masks that are not 1-D int8
    arrays (reachable only with assertions disabled) take numpy's route.
    """
    cdef bint only_binary
    cdef npy_intp ones
    if is_1d_int8(mask):
        ones = count_ones(<cnp.ndarray> mask, &only_binary)
        if ones == 0:
            return None
        return nth_one(<cnp.ndarray> mask, <npy_intp> draw_index(handle, ones))
    allowed = mask == 1
    if not np.any(allowed):
        return None
    valid = np.where(allowed)[0]
    return int(valid[draw_index(handle, valid.shape[0])])


cdef npy_intp probability_choice(RNGHandle handle, object probability,
                                 npy_intp expected=-1, double unit_total=NAN) except -1:
    """``choice(a, p=p)`` over ``expected`` items (``-1``: as many as ``p`` has).

    numpy's validation of ``p`` in numpy's order, its cdf, one double.
    ``unit_total`` is ``np.sum(p)`` when the caller has checked that ``p`` is a
    float64 array with every entry in [0, 1] (NaN otherwise): then most of
    the validation is already settled (see ``check_unit_probabilities``).
    """
    cdef cnp.ndarray p
    cdef npy_intp n, index
    cdef double stack_cdf[STACK_CDF]
    cdef double *cdf
    cdef double u
    cdef ChoiceCheck code
    cdef double atol = choice_tolerance(probability)
    p = cnp.PyArray_FROMANY(probability, cnp.NPY_DOUBLE, 0, 0,
                            cnp.NPY_ARRAY_ALIGNED | cnp.NPY_ARRAY_C_CONTIGUOUS)
    if cnp.PyArray_NDIM(p) != 1:
        raise ValueError("p must be 1-dimensional")
    n = cnp.PyArray_DIM(p, 0)
    if expected >= 0 and n != expected:
        raise ValueError("a and p must have same size")
    if n == 0:
        raise ValueError("a cannot be empty unless no samples are taken")
    if isnan(unit_total):
        code = check_choice_probabilities(<double *> cnp.PyArray_DATA(p), n, atol)
    else:
        code = check_unit_probabilities(<double *> cnp.PyArray_DATA(p), n, atol, unit_total)
    if code != CHOICE_OK:
        raise choice_error(code)
    cdef bint locked
    if n <= STACK_CDF:
        cdf = stack_cdf
    else:
        cdf = <double *> PyMem_Malloc(n * sizeof(double))
        if cdf == NULL:
            raise MemoryError()
    try:
        cumulative_sum(<double *> cnp.PyArray_DATA(p), n, cdf)
        locked = handle.lock_draws(False)
        try:
            u = random_standard_uniform(handle.bitgen)
        finally:
            handle.unlock_draws(locked)
        index = search_right_normalised(cdf, n, u)
    finally:
        if cdf != stack_cdf:
            PyMem_Free(cdf)
    return index


cdef inline cnp.ndarray contiguous(object values):
    if cnp.PyArray_Check(values) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> values):
        return <cnp.ndarray> values
    return np.ascontiguousarray(values)


cdef double probability_sum(object probability):
    """``np.sum(p)`` of a validated float64 array, bit for bit."""
    cdef cnp.ndarray p = contiguous(probability)
    return pairwise_sum(<double *> cnp.PyArray_DATA(p), cnp.PyArray_SIZE(p))


cdef bint all_in_unit_interval(object probability):
    cdef cnp.ndarray p = contiguous(probability)
    cdef double *data = <double *> cnp.PyArray_DATA(p)
    cdef npy_intp i
    for i in range(cnp.PyArray_SIZE(p)):
        if not (0.0 <= data[i] <= 1.0):
            return False
    return True


# ----------------------------------------------------------------------------
# Discrete
# ----------------------------------------------------------------------------

def discrete_sample(self, mask=None, probability=None):
    """Sample of a :class:`~gymspaces.Discrete` space (bound as ``Discrete.sample``).

    Parameters
    ----------
    mask : numpy.ndarray of int8, shape (n,), optional
        1 marks an allowed action; with no allowed action ``start`` is returned.
    probability : numpy.ndarray of float64, shape (n,), optional
        Weight of each action; must sum to one.

    Returns
    -------
    numpy.integer
        A scalar of the space's dtype.

    Raises
    ------
    ValueError
        If both ``mask`` and ``probability`` are given.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Discrete
    >>> space = Discrete(4, seed=0)
    >>> [int(space.sample(mask=np.array([0, 1, 0, 1], dtype=np.int8))) for _ in range(6)]
    [3, 3, 3, 1, 1, 1]
    >>> space.sample(mask=np.zeros(4, dtype=np.int8))  # nothing allowed: start
    np.int64(0)
    >>> [int(space.sample(probability=np.array([0.0, 0.0, 0.1, 0.9]))) for _ in range(6)]
    [2, 3, 3, 3, 3, 3]
    """
    cdef RNGHandle handle
    cdef cnp.dtype descr
    cdef uint64_t n, start, value
    cdef bint locked
    if mask is None and probability is None:
        namespace = instance_dict(self)
        handle = rng_handle_from(namespace, self)
        n_obj = attr(namespace, self, "n")
        start_obj = attr(namespace, self, "start")
        dtype = attr(namespace, self, "dtype")
        # n, start and dtype are immutable objects: identity means unchanged.
        if handle.key_a is not n_obj or handle.key_b is not start_obj or handle.key_c is not dtype:
            if not _cache_discrete_params(handle, n_obj, start_obj, dtype):
                # Reassigned with values of another type: numpy's own rules apply.
                return start_obj + handle.generator.integers(n_obj, dtype=dtype.type)
        descr = handle.descr
        locked = handle.lock_draws(False)
        try:
            value = bounded_draw(handle.bitgen, handle.value_a - 1, <int> descr.itemsize)
        finally:
            handle.unlock_draws(locked)
        if handle.results is not None:
            return handle.results[value]
        return add_start(descr, handle.value_b, value)
    if mask is not None and probability is not None:
        raise mask_and_probability_error(mask, probability)
    if mask is not None:
        return _discrete_masked(self, mask)
    return _discrete_weighted(self, probability)


cdef bint _cache_discrete_params(RNGHandle handle, n_obj, start_obj, dtype) except -1:
    """Cache the C parameters of a Discrete space; ``False`` if they are not plain
    scalars of the space's own dtype (then nothing is cached)."""
    if not cnp.PyArray_DescrCheck(dtype):
        return False
    if type(n_obj) is not dtype.type or type(start_obj) is not dtype.type:
        return False
    cdef cnp.dtype descr = native_integer_descr(dtype)
    cdef uint64_t n = int_bits(n_obj)
    if n == 0 or (descr.kind == b'i' and <int64_t> n < 0):
        raise ValueError("high <= 0")
    cdef uint64_t start = int_bits(start_obj)
    cdef uint64_t value
    handle.value_a = n
    handle.value_b = start
    handle.descr = descr
    # numpy scalars are immutable, so small spaces hand out prebuilt results
    # (unless some result would overflow: that path must warn on every call).
    handle.results = None
    if n <= SCALAR_TABLE_MAX:
        for value in range(n):
            if add_overflows(start, value, descr.kind == b'i', <int> descr.itemsize):
                break
        else:
            handle.results = tuple([make_scalar(descr, start + value) for value in range(n)])
    handle.key_a = n_obj
    handle.key_b = start_obj
    handle.key_c = dtype
    return True


cdef object _discrete_masked(space, mask):
    cdef bint only_binary = True
    cdef npy_intp ones = -1
    cdef dict namespace = instance_dict(space)
    cdef RNGHandle handle
    n_obj = attr(namespace, space, "n")
    if ASSERTS:
        if not cnp.PyArray_Check(mask):
            raise AssertionError(
                f"The expected type of the sample mask is np.ndarray, actual type: {type(mask)}")
        if cnp.PyArray_TYPE(<cnp.ndarray> mask) != cnp.NPY_INT8:
            raise AssertionError(
                f"The expected dtype of the sample mask is np.int8, actual dtype: {mask.dtype}")
        if (cnp.PyArray_NDIM(<cnp.ndarray> mask) != 1
                or <uint64_t> cnp.PyArray_DIM(<cnp.ndarray> mask, 0) != int_bits(n_obj)):
            raise AssertionError(
                f"The expected shape of the sample mask is {(int(n_obj),)}, "
                f"actual shape: {mask.shape}")
        ones = count_ones(<cnp.ndarray> mask, &only_binary)
        if not only_binary:
            raise AssertionError(
                f"All values of the sample mask should be 0 or 1, actual values: {mask}")
    handle = rng_handle_from(namespace, space)
    start_obj = attr(namespace, space, "start")
    if ones < 0:  # assertions off: numpy's rules for whatever was passed
        index = masked_choice(handle, mask)
        if index is None:
            return start_obj
        position = <npy_intp> index
    else:
        if ones == 0:
            return start_obj
        position = nth_one(<cnp.ndarray> mask, <npy_intp> draw_index(handle, ones))
    dtype = attr(namespace, space, "dtype")
    if (handle.key_a is n_obj and handle.key_b is start_obj and handle.key_c is dtype
            and handle.results is not None and position < len(handle.results)):
        return handle.results[position]
    return add_start(native_integer_descr(dtype), int_bits(start_obj), <uint64_t> position)


cdef object _discrete_weighted(space, probability):
    cdef npy_intp index
    cdef double total = NAN
    if ASSERTS:
        if not cnp.PyArray_Check(probability):
            raise AssertionError(
                "The expected type of the sample probability is np.ndarray, "
                f"actual type: {type(probability)}")
        if not is_native_float64(probability):
            raise AssertionError(
                "The expected dtype of the sample probability is np.float64, "
                f"actual dtype: {probability.dtype}")
        if (cnp.PyArray_NDIM(<cnp.ndarray> probability) != 1
                or <uint64_t> cnp.PyArray_DIM(<cnp.ndarray> probability, 0) != int_bits(space.n)):
            raise AssertionError(
                f"The expected shape of the sample probability is {(int(space.n),)}, "
                f"actual shape: {probability.shape}")
        if not all_in_unit_interval(probability):
            raise AssertionError(
                "All values of the sample probability should be between 0 and 1, "
                f"actual values: {probability}")
        total = probability_sum(probability)
        if not isclose_to_one(total):
            raise AssertionError(
                "The sum of the sample probability should be equal to 1, "
                f"actual sum: {np.sum(probability)}")
    handle = rng_handle(space)
    index = probability_choice(handle, probability, <npy_intp> int(space.n), total)
    descr = native_integer_descr(space.dtype)
    return add_start(descr, int_bits(space.start), <uint64_t> index)


# ----------------------------------------------------------------------------
# MultiDiscrete
# ----------------------------------------------------------------------------

cdef void _multi_discrete_fill(double_source *source, integral *out, const integral *nvec,
                               const integral *start, npy_intp size, npy_intp reps) noexcept nogil:
    """``reps`` successive samples (rows of ``out``), each ``trunc(u * nvec) + start``."""
    cdef double_source local = source[0]  # keeps an inline PCG64 state in registers
    cdef npy_intp i, r
    cdef integral drawn
    for r in range(reps):
        for i in range(size):
            drawn = <integral> (source_double(&local) * <double> nvec[i])
            # numpy array addition wraps silently; unsigned arithmetic keeps that defined.
            out[r * size + i] = <integral> (<uint64_t> drawn + <uint64_t> start[i])
    source[0] = local


cdef void _typed_fill(double_source *source, cnp.ndarray out, cnp.ndarray nvec,
                      cnp.ndarray start, npy_intp size, npy_intp reps, char kind,
                      int itemsize) noexcept nogil:
    cdef void *o = cnp.PyArray_DATA(out)
    cdef void *n = cnp.PyArray_DATA(nvec)
    cdef void *s = cnp.PyArray_DATA(start)
    if kind == b'i':
        if itemsize == 1:
            _multi_discrete_fill(source, <int8_t *> o, <int8_t *> n, <int8_t *> s, size, reps)
        elif itemsize == 2:
            _multi_discrete_fill(source, <int16_t *> o, <int16_t *> n, <int16_t *> s, size, reps)
        elif itemsize == 4:
            _multi_discrete_fill(source, <int32_t *> o, <int32_t *> n, <int32_t *> s, size, reps)
        else:
            _multi_discrete_fill(source, <int64_t *> o, <int64_t *> n, <int64_t *> s, size, reps)
    else:
        if itemsize == 1:
            _multi_discrete_fill(source, <uint8_t *> o, <uint8_t *> n, <uint8_t *> s, size, reps)
        elif itemsize == 2:
            _multi_discrete_fill(source, <uint16_t *> o, <uint16_t *> n, <uint16_t *> s, size, reps)
        elif itemsize == 4:
            _multi_discrete_fill(source, <uint32_t *> o, <uint32_t *> n, <uint32_t *> s, size, reps)
        else:
            _multi_discrete_fill(source, <uint64_t *> o, <uint64_t *> n, <uint64_t *> s, size, reps)


cdef void _dispatch_fill(bitgen_t *bitgen, gs_pcg128_t *pcg, cnp.ndarray out, cnp.ndarray nvec,
                         cnp.ndarray start, npy_intp size, char kind, int itemsize,
                         npy_intp reps=1) noexcept nogil:
    """``trunc(next_double() * nvec) + start`` per entry, inline when ``pcg`` is set."""
    cdef inline_pcg64 inline_source
    cdef any_bitgen numpy_source
    if pcg != NULL:
        inline_source.rng = pcg[0]
        _typed_fill(&inline_source, out, nvec, start, size, reps, kind, itemsize)
        pcg[0] = inline_source.rng
    else:
        numpy_source.bitgen = bitgen
        _typed_fill(&numpy_source, out, nvec, start, size, reps, kind, itemsize)


cdef inline cnp.ndarray as_c_array(object values, cnp.dtype descr):
    if (cnp.PyArray_Check(values) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> values)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> values)
            and cnp.PyArray_TYPE(<cnp.ndarray> values) == descr.type_num):
        return <cnp.ndarray> values
    return np.ascontiguousarray(values, dtype=descr)


cdef inline bint same_integer_type(object values, object dtype):
    """An ndarray whose dtype has ``dtype``'s kind and width."""
    cdef cnp.dtype own, expected
    if not cnp.PyArray_Check(values) or not cnp.PyArray_DescrCheck(dtype):
        return False
    own = <cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> values)
    expected = <cnp.dtype> dtype
    return own.kind == expected.kind and own.itemsize == expected.itemsize


def multi_discrete_sample_entry(self, mask=None, probability=None):
    """Draw an element, optionally under per-entry masks or probabilities.

    Parameters
    ----------
    mask : nested tuple of int8 arrays, optional
        Mirrors ``nvec``'s leading axes; each leaf has one 0/1 entry per
        choice. An entry with nothing allowed takes its ``start`` value.
    probability : nested tuple of float64 arrays, optional
        Same structure; each leaf sums to one.

    Returns
    -------
    numpy.ndarray
        Of the space's shape and dtype (a numpy scalar for a 0-d ``nvec``).

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import MultiDiscrete
    >>> space = MultiDiscrete([3, 2], seed=0)
    >>> space.sample()
    array([1, 0])
    >>> space.sample(mask=(np.array([0, 0, 1], dtype=np.int8), np.array([1, 1], dtype=np.int8)))
    array([2, 0])
    >>> space.sample(probability=(np.array([0.5, 0.5, 0.0]), np.array([0.0, 1.0])))
    array([0, 1])
    """
    if mask is None and probability is None:
        return plain_multi_discrete_sample(self)
    if probability is None and ASSERTS and type(mask) is tuple:
        result = flat_masked_multi_discrete_sample(self, <tuple> mask)
        if result is not None:
            return result
    return self._sample_masked(mask, probability)


cdef object flat_masked_multi_discrete_sample(space, tuple mask):
    """Masked sample of a 1-D MultiDiscrete whose mask is a tuple of 1-D int8 arrays.

    Does what the general leaf-by-leaf walk does -- per entry, Gymnasium's
    binary check, then one ``choice`` among the allowed actions (``start`` if
    none) -- without building a list of scalars first. Returns ``None``
    before drawing anything unless :func:`flat_mask_parts` covers the call
    (then the result is the same as ``np.array(values, dtype)``); the caller
    then takes the general walk.
    """
    parts = flat_mask_parts(space, mask, -1)
    if parts is None:
        return None
    namespace, descr, start = parts
    cdef npy_intp dims[1]
    dims[0] = len(mask)
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(1, dims, (<cnp.dtype> descr).type_num, 0)
    fill_masked_rows(rng_handle_from(namespace, space), <cnp.dtype> descr, <cnp.ndarray> start,
                     mask, 1, <char *> cnp.PyArray_DATA(out))
    return out


cdef tuple flat_mask_parts(space, tuple mask, npy_intp n):
    """``(namespace, dtype, start)`` if the compiled masked paths cover this call, else ``None``.

    Covered: a 1-D ``nvec``/``start`` of the space's native integer dtype (not
    uint64), one C-contiguous int8 leaf per entry -- of shape ``(k,)``, or
    also ``(n, k)`` for a batch (``n >= 0``) -- and values ``start ..
    start + k - 1`` that fit the dtype, so no cast or wrap is involved.
    Checked before any draw, so ``None`` leaves the generator untouched.
    """
    if not ASSERTS:
        return None
    cdef dict namespace = instance_dict(space)
    dtype = attr(namespace, space, "dtype")
    nvec_obj = attr(namespace, space, "nvec")
    start_obj = attr(namespace, space, "start")
    if not (cnp.PyArray_DescrCheck(dtype) and cnp.PyArray_Check(nvec_obj) and cnp.PyArray_Check(start_obj)):
        return None
    cdef cnp.dtype descr = <cnp.dtype> dtype
    cdef cnp.ndarray nvec = <cnp.ndarray> nvec_obj
    cdef cnp.ndarray start = <cnp.ndarray> start_obj
    cdef int type_num = descr.type_num
    cdef npy_intp size = len(mask)
    if not (cnp.PyArray_ISNBO(descr.byteorder) and (descr.kind == b'i' or (descr.kind == b'u' and descr.itemsize <= 4))
            and cnp.PyArray_NDIM(nvec) == 1 and cnp.PyArray_NDIM(start) == 1
            and cnp.PyArray_DIM(nvec, 0) == size and cnp.PyArray_DIM(start, 0) == size
            and cnp.PyArray_TYPE(nvec) == type_num and cnp.PyArray_TYPE(start) == type_num
            and cnp.PyArray_ISNOTSWAPPED(nvec) and cnp.PyArray_ISNOTSWAPPED(start)):
        return None
    cdef int64_t lowest, highest, count, first
    if descr.kind == b'i':
        highest = <int64_t> ((<uint64_t> 1 << (8 * descr.itemsize - 1)) - 1)
        lowest = -highest - 1
    else:
        lowest, highest = 0, <int64_t> ((<uint64_t> 1 << (8 * descr.itemsize)) - 1)
    cdef npy_intp i
    for i in range(size):
        leaf = mask[i]
        count = <int64_t> element_bits(<const char *> cnp.PyArray_DATA(nvec) + i * cnp.PyArray_STRIDE(nvec, 0), type_num, 0)
        first = <int64_t> element_bits(<const char *> cnp.PyArray_DATA(start) + i * cnp.PyArray_STRIDE(start, 0), type_num, 0)
        if not (cnp.PyArray_Check(leaf) and cnp.PyArray_TYPE(<cnp.ndarray> leaf) == cnp.NPY_INT8
                and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> leaf) and count >= 1
                and first >= lowest and first <= highest - (count - 1)):
            return None
        if cnp.PyArray_NDIM(<cnp.ndarray> leaf) == 1:
            if cnp.PyArray_DIM(<cnp.ndarray> leaf, 0) != count:
                return None
        elif not (n >= 0 and cnp.PyArray_NDIM(<cnp.ndarray> leaf) == 2 and cnp.PyArray_DIM(<cnp.ndarray> leaf, 0) == n
                  and cnp.PyArray_DIM(<cnp.ndarray> leaf, 1) == count):
            return None
    return namespace, descr, start


cdef int fill_masked_rows(RNGHandle handle, cnp.dtype descr, cnp.ndarray start, tuple mask,
                          npy_intp rows, char *out_data) except -1:
    """Draw ``rows`` masked samples (checked by :func:`flat_mask_parts`) into ``out_data``.

    Row by row, entry by entry: Gymnasium's binary check of the entry's mask
    row, then one ``choice`` among its ones (none drawn when nothing is
    allowed: the entry is ``start``). A failing check raises where the loop
    of single samples would.
    """
    cdef npy_intp size = len(mask)
    cdef int type_num = descr.type_num
    cdef const int8_t *row
    cdef npy_intp r, i, ones, k, j, rank
    cdef bint binary
    cdef int64_t value
    cdef int8_t v
    for r in range(rows):
        for i in range(size):
            leaf = mask[i]
            k = cnp.PyArray_DIM(<cnp.ndarray> leaf, cnp.PyArray_NDIM(<cnp.ndarray> leaf) - 1)
            row = <const int8_t *> cnp.PyArray_DATA(<cnp.ndarray> leaf)
            if cnp.PyArray_NDIM(<cnp.ndarray> leaf) == 2:
                row += r * k
            ones = 0
            binary = True
            for j in range(k):
                v = row[j]
                if v == 1:
                    ones += 1
                elif v != 0:
                    binary = False
            if not binary:
                shown = leaf if cnp.PyArray_NDIM(<cnp.ndarray> leaf) == 1 else leaf[r]
                raise AssertionError(f"Expects all masks values to 0 or 1, actual values: {shown}")
            value = <int64_t> element_bits(<const char *> cnp.PyArray_DATA(start) + i * cnp.PyArray_STRIDE(start, 0), type_num, 0)
            if ones:
                rank = <npy_intp> draw_index(handle, <uint64_t> ones)
                for j in range(k):
                    if row[j] == 1:
                        if rank == 0:
                            value += j
                            break
                        rank -= 1
            store_integer(out_data, descr.itemsize, r * size + i, value)
    return 0


cdef inline void store_integer(char *data, int itemsize, npy_intp i, int64_t value) noexcept:
    """Element ``i`` of a contiguous integer array of width ``itemsize`` (value fits)."""
    if itemsize == 1:
        (<int8_t *> data)[i] = <int8_t> value
    elif itemsize == 2:
        (<int16_t *> data)[i] = <int16_t> value
    elif itemsize == 4:
        (<int32_t *> data)[i] = <int32_t> value
    else:
        (<int64_t *> data)[i] = value


def multi_discrete_sample(space):
    """Unmasked sample of a :class:`~gymspaces.MultiDiscrete` space (see below)."""
    return plain_multi_discrete_sample(space)


cdef object plain_multi_discrete_sample(space):
    """Unmasked sample of a :class:`~gymspaces.MultiDiscrete` space.

    ``trunc(u * nvec) + start`` with one ``next_double`` per entry in C order;
    a 0-d ``nvec`` yields a numpy scalar, as numpy's 0-d arithmetic does.
    """
    cdef dict namespace = instance_dict(space)
    dtype = attr(namespace, space, "dtype")
    nvec_obj = attr(namespace, space, "nvec")
    start_obj = attr(namespace, space, "start")
    if not (same_integer_type(nvec_obj, dtype) and same_integer_type(start_obj, dtype)):
        # Reassigned with arrays of another dtype: numpy's promotions decide.
        return (space.np_random.random(nvec_obj.shape) * nvec_obj).astype(dtype) + start_obj
    cdef RNGHandle handle = rng_handle_from(namespace, space)
    cdef cnp.dtype descr = native_integer_descr(dtype)
    cdef cnp.ndarray nvec = as_c_array(nvec_obj, descr)
    cdef cnp.ndarray start = as_c_array(start_obj, descr)
    cdef npy_intp size = cnp.PyArray_SIZE(nvec)
    cdef char kind = descr.kind
    cdef int itemsize = descr.itemsize
    if cnp.PyArray_SIZE(start) != size:
        raise ValueError(
            f"operands could not be broadcast together with shapes {(<object> nvec).shape} {(<object> start).shape}")
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(cnp.PyArray_NDIM(nvec), cnp.PyArray_DIMS(nvec),
                                             descr.type_num, 0)
    cdef bint bulk = size > NOGIL_THRESHOLD
    cdef bint locked = handle.lock_draws(bulk)
    try:
        if bulk:
            with nogil:
                _dispatch_fill(handle.bitgen, handle.pcg, out, nvec, start, size, kind, itemsize)
        else:
            _dispatch_fill(handle.bitgen, handle.pcg, out, nvec, start, size, kind, itemsize)
    finally:
        handle.unlock_draws(locked)
    if cnp.PyArray_NDIM(out) == 0:
        return out[()]
    return out


def multi_discrete_sample_batch(space, npy_intp n, out=None):
    """``n`` successive unmasked samples stacked into an ``(n, *shape)`` array.

    Returns ``None`` (sample one by one instead) when the arrays are not of the
    space's own native integer dtype.
    """
    if n < 0:
        raise ValueError(f"the number of samples must be non-negative, got {n}")
    cdef dict namespace = instance_dict(space)
    dtype = attr(namespace, space, "dtype")
    nvec_obj = attr(namespace, space, "nvec")
    start_obj = attr(namespace, space, "start")
    if not (same_integer_type(nvec_obj, dtype) and same_integer_type(start_obj, dtype)):
        return None
    cdef cnp.dtype descr = <cnp.dtype> dtype
    if not cnp.PyArray_ISNBO(descr.byteorder):
        return None
    cdef cnp.ndarray nvec = as_c_array(nvec_obj, descr)
    cdef cnp.ndarray start = as_c_array(start_obj, descr)
    cdef npy_intp size = cnp.PyArray_SIZE(nvec)
    if cnp.PyArray_SIZE(start) != size:
        return None
    cdef cnp.ndarray result = batch_array(nvec, n, descr.type_num, out)
    cdef RNGHandle handle = rng_handle_from(namespace, space)
    cdef bint bulk = size * n > NOGIL_THRESHOLD
    cdef bint locked = handle.lock_draws(bulk)
    try:
        if bulk:
            with nogil:
                _dispatch_fill(handle.bitgen, handle.pcg, result, nvec, start, size, descr.kind,
                               descr.itemsize, n)
        else:
            _dispatch_fill(handle.bitgen, handle.pcg, result, nvec, start, size, descr.kind,
                           descr.itemsize, n)
    finally:
        handle.unlock_draws(locked)
    return result


def multi_discrete_masked_batch(space, npy_intp n, tuple mask, out=None):
    """``n`` successive masked samples of a 1-D MultiDiscrete, stacked; ``None`` if not covered.

    ``mask`` mirrors ``nvec``: entry ``i`` is an int8 array of shape
    ``(n, nvec[i])`` (row ``r`` masks sample ``r``) or ``(nvec[i],)`` (every
    sample). Rows are drawn in order, entry by entry, with the checks of the
    single-sample walk, so errors leave the generator where the equivalent
    loop of ``sample(mask=...)`` leaves it. Returns ``None`` before drawing
    anything when :func:`flat_mask_parts` does not cover the call (then the
    caller loops over ``sample``).
    """
    parts = flat_mask_parts(space, mask, n)
    if parts is None:
        return None
    namespace, descr, start = parts
    nvec = attr(namespace, space, "nvec")
    cdef cnp.ndarray result = batch_array(<cnp.ndarray> nvec, n, (<cnp.dtype> descr).type_num, out)
    fill_masked_rows(rng_handle_from(namespace, space), <cnp.dtype> descr, <cnp.ndarray> start,
                     mask, n, <char *> cnp.PyArray_DATA(result))
    return result


def discrete_sample_batch(space, npy_intp n, mask=None, probability=None, out=None):
    """``n`` successive :func:`discrete_sample` draws stacked into an ``(n,)`` array.

    Parameters
    ----------
    n : int
        Number of samples (``>= 0``).
    mask : numpy.ndarray of int8, shape (n, k) or (k,), optional
        Row ``i`` is the mask of sample ``i`` (a 1-D mask applies to every
        sample); a row with nothing allowed gives ``start``, without a draw.
    probability : numpy.ndarray of float64, shape (n, k) or (k,), optional
        Likewise, the probabilities of each sample.
    out : numpy.ndarray, optional
        C-contiguous, writeable ``(n,)`` array of the space's dtype.

    Returns
    -------
    numpy.ndarray or None
        ``None`` when the space holds values the kernel leaves to numpy
        (parameters of another type, results that overflow the dtype): the
        caller then samples one by one, which reproduces numpy's behaviour.
    """
    if n < 0:
        raise ValueError(f"the number of samples must be non-negative, got {n}")
    if mask is not None and probability is not None:
        raise mask_and_probability_error(mask, probability)
    cdef dict namespace = instance_dict(space)
    cdef RNGHandle handle = rng_handle_from(namespace, space)
    n_obj = attr(namespace, space, "n")
    start_obj = attr(namespace, space, "start")
    dtype = attr(namespace, space, "dtype")
    if handle.key_a is not n_obj or handle.key_b is not start_obj or handle.key_c is not dtype:
        if not _cache_discrete_params(handle, n_obj, start_obj, dtype):
            return None
    cdef cnp.dtype descr = handle.descr
    if descr is not dtype and descr != dtype:
        return None  # a non-native dtype
    if add_overflows(handle.value_b, handle.value_a - 1, descr.kind == b'i', <int> descr.itemsize):
        return None  # numpy warns on each overflowing sample: one by one
    cdef npy_intp dims[1]
    dims[0] = n
    cdef cnp.ndarray result = batch_array(cnp.PyArray_EMPTY(0, dims, descr.type_num, 0), n, descr.type_num, out)
    cdef char *data = <char *> cnp.PyArray_DATA(result)
    cdef int itemsize = descr.itemsize
    cdef npy_intp r
    cdef bint locked
    if mask is None and probability is None:
        locked = handle.lock_draws(False)
        try:
            for r in range(n):
                store_bits(data, itemsize, r,
                           handle.value_b + bounded_draw(handle.bitgen, handle.value_a - 1, itemsize))
        finally:
            handle.unlock_draws(locked)
        return result
    rows = batched_rows(mask if mask is not None else probability, n,
                        "mask" if mask is not None else "probability")
    for r in range(n):
        row = rows if cnp.PyArray_NDIM(<cnp.ndarray> rows) == 1 else rows[r]
        if mask is not None:
            value = _discrete_masked(space, row)
        else:
            value = _discrete_weighted(space, row)
        store_bits(data, itemsize, r, int_bits(value))
    return result


cdef cnp.ndarray batched_rows(object values, npy_intp n, str name):
    """A batched mask or probability: an array of shape ``(n, k)``, or ``(k,)`` for every row."""
    if not cnp.PyArray_Check(values):
        raise TypeError(f"the batched {name} must be a numpy.ndarray, actual type: {type(values)}")
    cdef cnp.ndarray array = <cnp.ndarray> values
    if not (cnp.PyArray_NDIM(array) == 1 or (cnp.PyArray_NDIM(array) == 2 and cnp.PyArray_DIM(array, 0) == n)):
        raise ValueError(
            f"the batched {name} must have shape ({n}, k) or (k,), actual shape: {values.shape}")
    return array


cdef inline void store_bits(char *data, int itemsize, npy_intp i, uint64_t value) noexcept:
    """Element ``i`` of a contiguous integer array: the low ``itemsize`` bytes of ``value``."""
    if itemsize == 1:
        (<uint8_t *> data)[i] = <uint8_t> value
    elif itemsize == 2:
        (<uint16_t *> data)[i] = <uint16_t> value
    elif itemsize == 4:
        (<uint32_t *> data)[i] = <uint32_t> value
    else:
        (<uint64_t *> data)[i] = value


def discrete_batch_sample_detached(space, npy_intp n):
    """``batch_space(space, n).sample()`` of a Discrete, from a private generator copy.

    That batched space is ``MultiDiscrete(full(n, space.n), start=full(n,
    space.start))`` seeded with a deep copy of ``space.np_random``; here its
    draws come from a copy of the PCG64 state, so ``space``'s generator does
    not move. Returns ``None`` (build the batched space instead) unless the
    generator is a PCG64 drawn inline, ``n >= 1``, the dtype is a native
    integer one and ``space.n > 0`` and ``space.start`` are integers that fit
    in it (then ``np.full`` stores them exactly).
    """
    cdef dict namespace = instance_dict(space)
    dtype = attr(namespace, space, "dtype")
    n_obj = attr(namespace, space, "n")
    start_obj = attr(namespace, space, "start")
    if n < 1 or not cnp.PyArray_DescrCheck(dtype) or (<cnp.dtype> dtype).kind not in (b'i', b'u'):
        return None
    if not cnp.PyArray_ISNBO((<cnp.dtype> dtype).byteorder):
        return None
    if not (type(n_obj) is int or is_numpy_integer(n_obj)) or not (
            type(start_obj) is int or is_numpy_integer(start_obj)):
        return None
    cdef cnp.dtype descr = <cnp.dtype> dtype
    bits = 8 * descr.itemsize
    lowest, highest = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if descr.kind == b'i' else (0, (1 << bits) - 1)
    count, first = int(n_obj), int(start_obj)
    if not (0 < count <= highest and lowest <= first <= highest):
        return None
    cdef pcg64_clone clone
    if not clone_pcg64(rng_handle_from(namespace, space), &clone):
        return None
    cdef npy_intp dims[1]
    dims[0] = n
    cdef cnp.ndarray nvec = cnp.PyArray_EMPTY(1, dims, descr.type_num, 0)
    cdef cnp.ndarray start = cnp.PyArray_EMPTY(1, dims, descr.type_num, 0)
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(1, dims, descr.type_num, 0)
    nvec.fill(count)
    start.fill(first)
    _dispatch_fill(&clone.bitgen, &clone.rng, out, nvec, start, n, descr.kind, descr.itemsize)
    return out


def multi_discrete_leaf(space, sub_mask, sub_nvec, sub_start, bint weighted):
    """Sample one scalar entry of a MultiDiscrete under a mask or probability leaf.

    Performs Gymnasium's per-leaf checks in its order, then the draw, and
    returns ``sub_start`` (nothing allowed) or ``np.int64(index) + sub_start``.
    """
    cdef bint only_binary
    if ASSERTS:
        if not np.issubdtype(type(sub_nvec), np.integer):
            raise AssertionError(
                f"Expects the sub_nvec to be an action, actually: {sub_nvec}, {type(sub_nvec)}")
        if not cnp.PyArray_Check(sub_mask):
            raise AssertionError(
                f"Expects the sub mask to be np.ndarray, actual type: {type(sub_mask)}")
        if len(sub_mask) != sub_nvec:
            raise AssertionError(
                "Expects the mask length to be equal to the number of actions, "
                f"mask length: {len(sub_mask)}, action: {sub_nvec}")
    handle = rng_handle(space)
    if not weighted:
        if ASSERTS:
            if cnp.PyArray_TYPE(<cnp.ndarray> sub_mask) != cnp.NPY_INT8:
                raise AssertionError(
                    f"Expects the mask dtype to be np.int8, actual dtype: {sub_mask.dtype}")
            if is_1d_int8(sub_mask):
                count_ones(<cnp.ndarray> sub_mask, &only_binary)
            else:
                only_binary = bool(np.all((sub_mask == 0) | (sub_mask == 1)))
            if not only_binary:
                raise AssertionError(
                    f"Expects all masks values to 0 or 1, actual values: {sub_mask}")
        index = masked_choice(handle, sub_mask)
        if index is None:
            return sub_start
        return np.int64(index) + sub_start

    if ASSERTS:
        if not is_native_float64(sub_mask):
            raise AssertionError(
                f"Expects the mask dtype to be np.float64, actual dtype: {sub_mask.dtype}")
        if not all_in_unit_interval(sub_mask):
            raise AssertionError(
                f"Expects all masks values to be between 0 and 1, actual values: {sub_mask}")
        if not isclose_to_one(probability_sum(sub_mask)):
            raise AssertionError(
                f"Expects the sum of all mask values to be 1, actual sum: {np.sum(sub_mask)}")
    if is_native_float64(sub_mask) and cnp.PyArray_NDIM(<cnp.ndarray> sub_mask) == 1:
        p = np.ascontiguousarray(sub_mask)
        valid = np.flatnonzero((p > 0) & (p <= 1))
        weights = (p / probability_sum(p))[valid]
    else:
        valid_mask = np.logical_and(sub_mask > 0, sub_mask <= 1)
        valid = np.where(valid_mask)[0]
        weights = (sub_mask / np.sum(sub_mask))[valid_mask]
    index = valid[probability_choice(handle, weights)]
    return index + sub_start


# ----------------------------------------------------------------------------
# Discrete membership
# ----------------------------------------------------------------------------

cdef extern from "numpy/arrayobject.h":
    bint PyArray_CanCastTypeTo(cnp.dtype from_descr, cnp.dtype to_descr, int casting)
    enum: NPY_SAFE_CASTING

cdef inline bint in_range(uint64_t value, uint64_t start, uint64_t n, bint is_signed) noexcept:
    """``start <= value < start + n`` for values of one integer type (as 64-bit patterns)."""
    if is_signed:
        if <int64_t> value < <int64_t> start:
            return False
    elif value < start:
        return False
    # value >= start, so the difference is exact in uint64 even past int64 max.
    return value - start < n


cdef object python_int_contained(space, x):
    """Membership of a Python int (or bool) as Gymnasium decides it: the value
    must fit the space's dtype and lie in range; ``None`` to defer (ints
    beyond 64 bits)."""
    cdef int overflow = 0
    cdef long long value = PyLong_AsLongLongAndOverflow(x, &overflow)
    if overflow:
        return None
    cdef dict namespace = instance_dict(space)
    cdef cnp.dtype descr = <cnp.dtype?> attr(namespace, space, "dtype")
    cdef int bits = 8 * <int> descr.itemsize
    cdef bint is_signed = descr.kind == b'i'
    if is_signed:
        if bits < 64 and not (-(1LL << (bits - 1)) <= value < (1LL << (bits - 1))):
            return False
    elif value < 0 or (bits < 64 and value >= (1LL << bits)):
        return False
    return in_range(<uint64_t> value, int_bits(attr(namespace, space, "start")),
                    int_bits(attr(namespace, space, "n")), is_signed)


def discrete_contains(self, x):
    """Whether ``x`` is an integer in range whose dtype casts safely to the space's.

    Python ints (and bools) are accepted when they fit the dtype; numpy
    integer scalars and 0-d integer arrays must be safely castable.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Discrete
    >>> space = Discrete(3, start=-1)  # -1, 0, 1
    >>> space.contains(-1), space.contains(np.int32(1)), space.contains(2)
    (True, True, False)
    >>> space.contains(1.0), space.contains(np.uint64(1))  # float; unsafe cast to int64
    (False, False)
    """
    verdict = discrete_contains_scalar(self, x)
    if verdict is None:
        return self._contains_general(x)
    return verdict


cdef object discrete_contains_scalar(space, x):
    """Membership of a numpy integer scalar in a Discrete space; ``None`` to defer.

    Handles the common case -- ``x`` a numpy integer scalar, as samples are --
    in C: safe-castable to the space's dtype (else ``False``) and in range.
    Anything else returns ``None`` and the caller applies the general rules.
    """
    cdef dict namespace
    cdef cnp.dtype descr, x_descr
    if PyLong_CheckExact(x) or PyBool_Check(x):
        return python_int_contained(space, x)
    if not is_numpy_integer(x):
        return None
    namespace = instance_dict(space)
    descr = <cnp.dtype?> attr(namespace, space, "dtype")
    x_descr = cnp.PyArray_DescrFromScalar(x)
    if not PyArray_CanCastTypeTo(x_descr, descr, NPY_SAFE_CASTING):
        return False
    # Safe cast: x's value is representable in the space's dtype, so comparing
    # bit patterns in the space's signedness is exact.
    return in_range(int_bits(x), int_bits(attr(namespace, space, "start")),
                    int_bits(attr(namespace, space, "n")), descr.kind == b'i')


# ----------------------------------------------------------------------------
# MultiDiscrete membership
# ----------------------------------------------------------------------------

cdef inline bint integer_array(object x):
    """A C-contiguous native array of a bool or integer type of at most 64 bits."""
    cdef int t
    if not (cnp.PyArray_Check(x) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> x)):
        return False
    t = cnp.PyArray_TYPE(<cnp.ndarray> x)
    return t in (cnp.NPY_BOOL, cnp.NPY_INT8, cnp.NPY_UINT8, cnp.NPY_INT16, cnp.NPY_UINT16,
                 cnp.NPY_INT32, cnp.NPY_UINT32, cnp.NPY_INT64, cnp.NPY_UINT64,
                 cnp.NPY_LONGLONG, cnp.NPY_ULONGLONG)


def multi_discrete_contains(self, x):
    """Whether ``x`` has the shape, a safely castable dtype and every entry in range.

    Lists and tuples are converted with ``np.array`` first.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import MultiDiscrete
    >>> space = MultiDiscrete([3, 2])
    >>> space.contains(np.array([2, 1])), space.contains([2, 1])
    (True, True)
    >>> space.contains(np.array([3, 1])), space.contains(np.array([2.0, 1.0]))  # out of range; float
    (False, False)
    """
    verdict = multi_discrete_contains_array(self, x)
    if verdict is None:
        return self._contains_general(x)
    return verdict


cdef object multi_discrete_contains_array(space, x):
    """Membership of an integer array in a MultiDiscrete space; ``None`` to defer.

    Decides in C when ``x`` and the space's ``nvec``/``start`` are plain
    integer arrays: the safe-cast rule, the shape, then every entry within
    ``[start, start + (nvec - 1)]`` with ``start + (nvec - 1)`` wrapping in the
    space's dtype as numpy computes it.
    """
    cdef dict namespace
    cdef cnp.dtype descr
    cdef cnp.ndarray xs, nvec, start
    cdef npy_intp i, size
    cdef int x_type, type_num, itemsize
    cdef bint is_signed
    cdef uint64_t value, low, high
    if not integer_array(x):
        return None
    namespace = instance_dict(space)
    dtype = attr(namespace, space, "dtype")
    nvec_obj = attr(namespace, space, "nvec")
    start_obj = attr(namespace, space, "start")
    if not (same_integer_type(nvec_obj, dtype) and same_integer_type(start_obj, dtype)
            and integer_array(nvec_obj) and integer_array(start_obj)):
        return None
    descr = <cnp.dtype> dtype
    xs, nvec, start = <cnp.ndarray> x, <cnp.ndarray> nvec_obj, <cnp.ndarray> start_obj
    if not PyArray_CanCastTypeTo(<cnp.dtype> cnp.PyArray_DESCR(xs), descr, NPY_SAFE_CASTING):
        return False
    if x.shape != space.shape:
        return False
    size = cnp.PyArray_SIZE(xs)
    if cnp.PyArray_SIZE(nvec) != size or cnp.PyArray_SIZE(start) != size:
        return None
    x_type = cnp.PyArray_TYPE(xs)
    type_num = cnp.PyArray_TYPE(nvec)
    itemsize = <int> descr.itemsize
    is_signed = descr.kind == b'i'
    for i in range(size):
        # Safe cast: x's value is representable in the space's dtype.
        value = element_bits(<const char *> cnp.PyArray_DATA(xs), x_type, i)
        low = element_bits(<const char *> cnp.PyArray_DATA(start), type_num, i)
        high = low + (element_bits(<const char *> cnp.PyArray_DATA(nvec), type_num, i) - 1)
        if is_signed:
            high = <uint64_t> truncate_signed(high, itemsize)
            if <int64_t> value < <int64_t> low or <int64_t> value > <int64_t> high:
                return False
        else:
            if itemsize < 8:
                high &= (<uint64_t> 1 << (8 * itemsize)) - 1
            if value < low or value > high:
                return False
    return True
