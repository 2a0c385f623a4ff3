"""Kernels of Discrete sampling and membership.

Each function reproduces the Generator calls Gymnasium 1.4.0 makes:

* unmasked: ``integers(n, dtype=dtype)`` -> numpy's bounded fill of the dtype's
  width (8/16-bit fills use a buffer local to the call).
* mask: ``choice(valid_indices)`` -> one bounded int64 draw over the number of
  valid entries (none when there is one).
* probability: ``choice(a, p=p)`` -> one ``next_double`` mapped through the cdf.

Both ``choice`` forms are :mod:`gymspaces._categorical`'s (MultiDiscrete draws
its leaves with them too); ``batch_space(Discrete(n)).sample()`` is a
MultiDiscrete sample, drawn with :mod:`gymspaces._multi_discrete`'s fill.
"""

import sys
import warnings

from gymspaces._arguments import mask_and_probability_error

from gymspaces._warnings import scalar_overflow_message

from libc.math cimport NAN

cimport numpy as cnp
from cpython.bool cimport PyBool_Check
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_CheckExact
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from numpy cimport npy_bool, npy_intp
from numpy.random cimport bitgen_t

from gymspaces._categorical cimport (
    all_in_unit_interval, count_ones, draw_index, isclose_to_one, masked_choice, nth_one, probability_choice,
    probability_sum, require_typed_array,
)
from gymspaces._distributions cimport (
    random_bounded_uint8_fill, random_bounded_uint16_fill, random_bounded_uint32_fill,
    random_bounded_uint64_fill,
)
from gymspaces._attrs cimport attr, instance_dict
from gymspaces._dtypes cimport (
    EL_INT8, EL_INT16, EL_INT32, EL_INT64, EL_UINT8, EL_UINT16, EL_UINT32, EL_UINT64, NO_KERNEL, Element, array_element,
    as_bits, element_of, integer_t, is_integer, no_kernel,
)
from gymspaces._multi_discrete cimport multi_discrete_fill
from gymspaces._outputs cimport batch_array
from gymspaces._registry cimport Registry
from gymspaces._rng cimport GS_FREE_THREADED, RNGHandle, clone_pcg64, pcg64_clone, rng_handle, rng_handle_from
from gymspaces._scalars cimport (
    NPY_SAFE_CASTING, PyArray_CanCastTypeTo, add_overflows, int_bits, is_numpy_integer, make_scalar,
    native_integer_descr, store_bits,
)

import numpy as np

from gymspaces import _registry

cnp.import_array()

# gymspaces' Python code for the cases the kernel leaves undecided (see
# _registry.pxd): functions, not methods, so they serve any space the kernel
# runs for.
cdef Registry registry = _registry.REGISTRY

# Gymnasium validates masks with ``assert``; mirror ``python -O`` skipping them.
cdef bint ASSERTS = not sys.flags.optimize
cdef enum:
    # Discrete spaces up to this size keep a table of their possible results.
    SCALAR_TABLE_MAX = 256


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


cdef object add_start(cnp.dtype descr, uint64_t start, uint64_t value):
    """``start + dtype(value)`` with numpy scalar semantics (wrap plus RuntimeWarning)."""
    if add_overflows(start, value, descr.kind == b'i', descr.itemsize):
        warnings.warn(scalar_overflow_message(descr), RuntimeWarning, stacklevel=3)
    return make_scalar(descr, start + value)


# ----------------------------------------------------------------------------
# Sampling
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
    cdef uint64_t value, n_bits, start_bits
    cdef tuple results
    cdef bint locked
    if mask is None and probability is None:
        namespace = instance_dict(self)
        handle = rng_handle_from(namespace, self)
        n_obj = attr(namespace, self, "n")
        start_obj = attr(namespace, self, "start")
        dtype = attr(namespace, self, "dtype")
        if GS_FREE_THREADED:
            # Threads may share this handle, and its cache is several fields
            # written one after another: a free-threaded build derives the
            # parameters on every call, into locals, and caches nothing.
            descr = discrete_descr(n_obj, start_obj, dtype)
            if descr is None:
                return start_obj + handle.generator.integers(n_obj, dtype=dtype.type)
            n_bits = discrete_n_bits(n_obj, descr)
            start_bits = int_bits(start_obj)
            results = None
        else:
            if not params_cached(handle, n_obj, start_obj, dtype):
                if not _cache_discrete_params(handle, n_obj, start_obj, dtype):
                    # Reassigned with values of another type: numpy's own rules apply.
                    return start_obj + handle.generator.integers(n_obj, dtype=dtype.type)
            descr = handle.discrete_descr
            n_bits = handle.discrete_n_bits
            start_bits = handle.discrete_start_bits
            results = handle.discrete_results
        locked = handle.lock_draws(False)
        try:
            value = bounded_draw(handle.bitgen, n_bits - 1, <int> descr.itemsize)
        finally:
            handle.unlock_draws(locked)
        if results is not None:
            return results[value]
        return add_start(descr, start_bits, value)
    if mask is not None and probability is not None:
        raise mask_and_probability_error(mask, probability)
    if mask is not None:
        return _discrete_masked(self, mask)
    return _discrete_weighted(self, probability)


cdef inline bint params_cached(RNGHandle handle, n_obj, start_obj, dtype) noexcept:
    """Whether ``handle``'s Discrete cache was filled from these very objects.

    ``n``, ``start`` and ``dtype`` are immutable, so the same objects mean the
    same parameters; reassigning any of them misses the cache.
    """
    return (handle.discrete_n is n_obj and handle.discrete_start is start_obj
            and handle.discrete_dtype is dtype)


cdef cnp.dtype discrete_descr(n_obj, start_obj, dtype):
    """The native-order integer dtype the kernel draws a Discrete's samples in;
    ``None`` if ``n`` and ``start`` are not scalars of the space's own integer dtype."""
    if not cnp.PyArray_DescrCheck(dtype):
        return None
    if type(n_obj) is not dtype.type or type(start_obj) is not dtype.type:
        return None
    cdef cnp.dtype descr = native_integer_descr(dtype)
    if not is_integer(element_of(descr)):
        return None
    return descr


cdef uint64_t discrete_n_bits(n_obj, cnp.dtype descr) except? 0:
    """``n`` as a C integer; numpy's ValueError where it leaves nothing to draw."""
    cdef uint64_t n = int_bits(n_obj)
    if n == 0 or (descr.kind == b'i' and <int64_t> n < 0):
        raise ValueError("high <= 0")
    return n


cdef bint _cache_discrete_params(RNGHandle handle, n_obj, start_obj, dtype) except -1:
    """Cache the C parameters of a Discrete space; ``False`` if they are not
    scalars of exactly the space's own dtype (then nothing is cached)."""
    cdef cnp.dtype descr = discrete_descr(n_obj, start_obj, dtype)
    if descr is None:
        return False
    cdef uint64_t n = discrete_n_bits(n_obj, descr)
    cdef uint64_t start = int_bits(start_obj)
    cdef uint64_t value
    handle.discrete_n_bits = n
    handle.discrete_start_bits = start
    handle.discrete_descr = descr
    # numpy scalars are immutable, so small spaces hand out prebuilt results
    # (unless some result would overflow: that path must warn on every call).
    handle.discrete_results = None
    if handle.shares_results and n <= SCALAR_TABLE_MAX:
        for value in range(n):
            if add_overflows(start, value, descr.kind == b'i', <int> descr.itemsize):
                break
        else:
            handle.discrete_results = tuple([make_scalar(descr, start + value) for value in range(n)])
    handle.discrete_n = n_obj
    handle.discrete_start = start_obj
    handle.discrete_dtype = dtype
    return True


cdef object _discrete_masked(space, mask):
    cdef bint only_binary = True
    cdef npy_intp ones = -1
    cdef dict namespace = instance_dict(space)
    cdef RNGHandle handle
    n_obj = attr(namespace, space, "n")
    if ASSERTS:
        require_typed_array(mask, "sample mask", False)
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
    if (params_cached(handle, n_obj, start_obj, dtype)
            and handle.discrete_results is not None and position < len(handle.discrete_results)):
        return handle.discrete_results[position]
    return add_start(native_integer_descr(dtype), int_bits(start_obj), <uint64_t> position)


cdef object _discrete_weighted(space, probability):
    cdef npy_intp index
    cdef double total = NAN
    if ASSERTS:
        require_typed_array(probability, "sample probability", True)
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
    if not params_cached(handle, n_obj, start_obj, dtype):
        if not _cache_discrete_params(handle, n_obj, start_obj, dtype):
            return None
    cdef cnp.dtype descr = handle.discrete_descr
    if descr is not dtype and descr != dtype:
        return None  # a non-native dtype
    cdef uint64_t start = handle.discrete_start_bits
    cdef uint64_t high = handle.discrete_n_bits - 1
    if add_overflows(start, high, descr.kind == b'i', <int> descr.itemsize):
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
                store_bits(data, itemsize, r, start + bounded_draw(handle.bitgen, high, itemsize))
        finally:
            handle.unlock_draws(locked)
        return result
    rows = batched_rows(mask if mask is not None else probability, n,
                        "mask" if mask is not None else "probability")
    if mask is not None and ASSERTS and masked_rows_in_c(handle, rows, n, start, data, itemsize):
        return result
    for r in range(n):
        row = rows if cnp.PyArray_NDIM(<cnp.ndarray> rows) == 1 else rows[r]
        if mask is not None:
            value = _discrete_masked(space, row)
        else:
            value = _discrete_weighted(space, row)
        store_bits(data, itemsize, r, int_bits(value))
    return result


cdef bint masked_rows_in_c(RNGHandle handle, cnp.ndarray rows, npy_intp n, uint64_t start,
                           char *data, int itemsize) except -1:
    """Every masked draw of a batch in one loop over the int8 rows, as row-by-row sampling does them.

    Returns ``False`` without drawing when the rows are not int8 rows of the
    space's ``n`` entries (the row-by-row path then raises as ``sample``
    would). A row holding a value other than 0 or 1 raises ``sample``'s
    AssertionError at that row, after the draws of the rows before it.
    """
    cdef int ndim = cnp.PyArray_NDIM(rows)
    cdef npy_intp k = cnp.PyArray_DIM(rows, ndim - 1)
    if cnp.PyArray_TYPE(rows) != cnp.NPY_INT8 or <uint64_t> k != handle.discrete_n_bits:
        return False
    cdef char *base = <char *> cnp.PyArray_DATA(rows)
    cdef npy_intp row_stride = 0 if ndim == 1 else cnp.PyArray_STRIDE(rows, 0)
    cdef npy_intp stride = cnp.PyArray_STRIDE(rows, ndim - 1)
    cdef npy_intp r, i, ones
    cdef npy_intp bad_row = -1
    cdef uint64_t rank
    cdef char *row
    cdef int8_t v
    # One lock for the batch. Nothing under it calls Python: a bad row stops
    # the loop, and its error is raised once the lock is released.
    cdef bint locked = handle.lock_draws(False)
    try:
        for r in range(n):
            row = base + r * row_stride
            ones = 0
            for i in range(k):
                v = (<int8_t *> (row + i * stride))[0]
                if v == 1:
                    ones += 1
                elif v != 0:
                    bad_row = r
            if bad_row >= 0:
                break
            if ones == 0:
                store_bits(data, itemsize, r, start)  # nothing allowed: start, without a draw
                continue
            # ``choice`` over the allowed indices: one bounded int64 draw (draw_index's).
            random_bounded_uint64_fill(handle.bitgen, 0, <uint64_t> (ones - 1), 1, False, &rank)
            for i in range(k):
                if (<int8_t *> (row + i * stride))[0] == 1:
                    if rank == 0:
                        break
                    rank -= 1
            store_bits(data, itemsize, r, start + <uint64_t> i)
    finally:
        handle.unlock_draws(locked)
    if bad_row >= 0:  # sample's AssertionError, after the draws of the rows before it
        row_values = rows if ndim == 1 else rows[bad_row]
        raise AssertionError(f"All values of the sample mask should be 0 or 1, actual values: {row_values}")
    return True


cdef cnp.ndarray batched_rows(object values, npy_intp n, str name):
    """A batched mask or probability: an array of shape ``(n, k)``, or ``(k,)`` for every row."""
    if not cnp.PyArray_Check(values):
        raise TypeError(f"the batched {name} must be a numpy.ndarray, actual type: {type(values)}")
    cdef cnp.ndarray array = <cnp.ndarray> values
    if not (cnp.PyArray_NDIM(array) == 1 or (cnp.PyArray_NDIM(array) == 2 and cnp.PyArray_DIM(array, 0) == n)):
        raise ValueError(
            f"the batched {name} must have shape ({n}, k) or (k,), actual shape: {values.shape}")
    return array


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
    if multi_discrete_fill(&clone.bitgen, &clone.rng, out, nvec, start, n, element_of(descr)) == NO_KERNEL:
        no_kernel("Discrete sampling", descr)
    return out


# ----------------------------------------------------------------------------
# Membership
# ----------------------------------------------------------------------------

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
    inside = discrete_contains_scalar(self, x)
    return registry.discrete_contains_general(self, x) if inside is None else inside


cdef object discrete_contains_scalar(space, x):
    """Membership of a numpy integer scalar in a Discrete space; ``None`` to defer.

    Handles the common case -- ``x`` a numpy integer scalar, as samples are --
    in C: safe-castable to the space's dtype (else ``False``) and in range.
    Anything else returns ``None`` and the caller applies the general rules.
    """
    cdef dict namespace
    cdef cnp.dtype descr, x_descr
    cdef type x_type
    if PyLong_CheckExact(x) or PyBool_Check(x):
        return python_int_contained(space, x)
    if not is_numpy_integer(x):
        return None
    namespace = instance_dict(space)
    descr = <cnp.dtype?> attr(namespace, space, "dtype")
    x_type = type(x)
    if <void *> x_type != <void *> descr.typeobj:  # a scalar of the space's own type casts safely
        x_descr = cnp.PyArray_DescrFromScalar(x)
        if not PyArray_CanCastTypeTo(x_descr, descr, NPY_SAFE_CASTING):
            return False
    # Safe cast: x's value is representable in the space's dtype, so comparing
    # bit patterns in the space's signedness is exact.
    return in_range(int_bits(x), int_bits(attr(namespace, space, "start")),
                    int_bits(attr(namespace, space, "n")), descr.kind == b'i')


cdef int discrete_rows_contained(space, object batch, npy_bool *out, npy_intp n) except -1:
    """``out[i] &= `` entry ``i`` of ``batch`` is in the space, as ``contains_batch`` decides; 0 to defer.

    Decides in C a 1-d batch of ``n`` entries: non-integer or unsafely castable
    dtypes and other shapes give ``False`` everywhere; integer entries (a
    C-contiguous native array) are checked against the range. Anything else
    (not a numeric array, another length) returns 0 before touching ``out``.
    """
    cdef cnp.ndarray entries
    cdef cnp.dtype descr, batch_descr
    cdef dict namespace
    cdef npy_intp i
    cdef uint64_t start, count
    cdef bint is_signed
    cdef Element element
    cdef const char *data
    if not cnp.PyArray_Check(batch):
        return 0
    entries = <cnp.ndarray> batch
    if cnp.PyArray_NDIM(entries) < 1 or cnp.PyArray_DIM(entries, 0) != n:
        return 0
    batch_descr = <cnp.dtype> cnp.PyArray_DESCR(entries)
    if batch_descr.kind not in b'biufc':
        return 0
    namespace = instance_dict(space)
    descr = <cnp.dtype?> attr(namespace, space, "dtype")
    if (cnp.PyArray_NDIM(entries) != 1 or batch_descr.kind not in b'iu'
            or not PyArray_CanCastTypeTo(batch_descr, descr, NPY_SAFE_CASTING)):
        for i in range(n):
            out[i] = False
        return 1
    element = array_element(entries)
    if not (cnp.PyArray_IS_C_CONTIGUOUS(entries) and cnp.PyArray_ISALIGNED(entries)
            and cnp.PyArray_ISNOTSWAPPED(entries) and is_integer(element)):
        return 0
    start = int_bits(attr(namespace, space, "start"))
    count = int_bits(attr(namespace, space, "n"))
    is_signed = descr.kind == b'i'
    data = <const char *> cnp.PyArray_DATA(entries)
    if element == EL_INT8: entries_in_range(<const int8_t *> data, n, start, count, is_signed, out)
    elif element == EL_INT16: entries_in_range(<const int16_t *> data, n, start, count, is_signed, out)
    elif element == EL_INT32: entries_in_range(<const int32_t *> data, n, start, count, is_signed, out)
    elif element == EL_INT64: entries_in_range(<const int64_t *> data, n, start, count, is_signed, out)
    elif element == EL_UINT8: entries_in_range(<const uint8_t *> data, n, start, count, is_signed, out)
    elif element == EL_UINT16: entries_in_range(<const uint16_t *> data, n, start, count, is_signed, out)
    elif element == EL_UINT32: entries_in_range(<const uint32_t *> data, n, start, count, is_signed, out)
    elif element == EL_UINT64: entries_in_range(<const uint64_t *> data, n, start, count, is_signed, out)
    else:
        no_kernel("Discrete membership", entries.dtype)
    return 1


cdef void entries_in_range(const integer_t *x, npy_intp n, uint64_t start, uint64_t count, bint is_signed,
                           npy_bool *out) noexcept nogil:
    """``out[i] &= start <= x[i] < start + count`` (branch-free ``in_range``; the
    entries are safely castable to the space's dtype, whose signedness ``is_signed`` is)."""
    cdef npy_intp i
    cdef uint64_t value
    if is_signed:
        for i in range(n):
            value = as_bits(x[i])
            out[i] &= (<int64_t> value >= <int64_t> start) & (value - start < count)
    else:
        for i in range(n):
            value = as_bits(x[i])
            out[i] &= (value >= start) & (value - start < count)
