"""Kernels of MultiDiscrete sampling and membership.

Each function reproduces the Generator calls Gymnasium 1.4.0 makes:

* unmasked: ``trunc(random(nvec.shape) * nvec) + start`` -> one ``next_double``
  per entry, in C order (:func:`multi_discrete_fill`; Discrete's kernel draws
  ``batch_space(Discrete(n)).sample()`` with it too).
* a mask leaf: ``choice(valid_indices)`` -> one bounded int64 draw over the
  number of valid entries (none when there is one).
* a probability leaf: ``choice(a, p=p)`` -> one ``next_double`` mapped through
  the cdf.

Both ``choice`` forms are :mod:`gymspaces._categorical`'s, shared with Discrete.
"""

import sys

cimport numpy as cnp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from numpy cimport npy_bool, npy_intp
from numpy.random cimport bitgen_t

from gymspaces._categorical cimport (
    all_in_unit_interval, count_ones, draw_index, is_1d_int8, is_native_float64, isclose_to_one, masked_choice,
    probability_choice, probability_sum,
)
from gymspaces._arrays cimport as_c_array, same_shape
from gymspaces._box cimport space_shape
from gymspaces._attrs cimport attr, instance_dict
from gymspaces._outputs cimport batch_array
from gymspaces._rng cimport (
    NOGIL_THRESHOLD, RNGHandle, any_bitgen, double_source, gs_pcg128_t, inline_pcg64, rng_handle,
    rng_handle_from, source_double,
)
from gymspaces._dtypes cimport (
    EL_BOOL, EL_INT8, EL_INT16, EL_INT32, EL_INT64, EL_UINT8, EL_UINT16, EL_UINT32, EL_UINT64, NO_KERNEL, Element,
    array_element, as_bits, element_bits, element_of, integer_t, is_integer, no_kernel,
)
from gymspaces._registry cimport Registry
from gymspaces._scalars cimport (
    NPY_SAFE_CASTING, PyArray_CanCastTypeTo, native_integer_descr, store_bits, truncate_signed,
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

# ----------------------------------------------------------------------------
# Sampling
# ----------------------------------------------------------------------------

cdef void integer_fill(integer_t *out, double_source *source, const void *nvec_data, const void *start_data,
                       npy_intp size, npy_intp reps) noexcept nogil:
    """``reps`` successive samples (rows of ``out``), each ``trunc(u * nvec) + start``."""
    cdef const integer_t *nvec = <const integer_t *> nvec_data
    cdef const integer_t *start = <const integer_t *> start_data
    cdef double_source local = source[0]  # keeps an inline PCG64 state in registers
    cdef npy_intp i, r
    cdef integer_t drawn
    for r in range(reps):
        for i in range(size):
            drawn = <integer_t> (source_double(&local) * <double> nvec[i])
            # numpy array addition wraps silently; unsigned arithmetic keeps that defined.
            out[r * size + i] = <integer_t> (<uint64_t> drawn + <uint64_t> start[i])
    source[0] = local


cdef int fill_as(double_source *source, Element element, void *out, const void *nvec, const void *start,
                 npy_intp size, npy_intp reps) noexcept nogil:
    """:func:`integer_fill` for arrays of ``element``; ``NO_KERNEL`` for any other."""
    if element == EL_INT8: integer_fill(<int8_t *> out, source, nvec, start, size, reps)
    elif element == EL_INT16: integer_fill(<int16_t *> out, source, nvec, start, size, reps)
    elif element == EL_INT32: integer_fill(<int32_t *> out, source, nvec, start, size, reps)
    elif element == EL_INT64: integer_fill(<int64_t *> out, source, nvec, start, size, reps)
    elif element == EL_UINT8: integer_fill(<uint8_t *> out, source, nvec, start, size, reps)
    elif element == EL_UINT16: integer_fill(<uint16_t *> out, source, nvec, start, size, reps)
    elif element == EL_UINT32: integer_fill(<uint32_t *> out, source, nvec, start, size, reps)
    elif element == EL_UINT64: integer_fill(<uint64_t *> out, source, nvec, start, size, reps)
    else:
        return NO_KERNEL
    return 0


cdef int multi_discrete_fill(bitgen_t *bitgen, gs_pcg128_t *pcg, cnp.ndarray out, cnp.ndarray nvec,
                             cnp.ndarray start, npy_intp size, Element element, npy_intp reps=1) noexcept nogil:
    """``trunc(next_double() * nvec) + start`` per entry, inline when ``pcg`` is set;
    ``NO_KERNEL`` (nothing drawn) unless ``element`` is an integer.

    ``reps`` samples fill successive rows of ``out``; the caller holds the bit
    generator's lock (or draws from a private copy of its state).
    """
    cdef inline_pcg64 inline_source
    cdef any_bitgen numpy_source
    cdef int done
    if pcg != NULL:
        inline_source.rng = pcg[0]
        done = fill_as(&inline_source, element, cnp.PyArray_DATA(out), cnp.PyArray_DATA(nvec),
                       cnp.PyArray_DATA(start), size, reps)
        pcg[0] = inline_source.rng
        return done
    numpy_source.bitgen = bitgen
    return fill_as(&numpy_source, element, cnp.PyArray_DATA(out), cnp.PyArray_DATA(nvec), cnp.PyArray_DATA(start),
                   size, reps)


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
        return unmasked_multi_discrete_sample(self)
    if probability is None and ASSERTS and type(mask) is tuple:
        result = flat_masked_multi_discrete_sample(self, <tuple> mask)
        if result is not None:
            return result
    return registry.multi_discrete_sample_masked(self, mask, probability)


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
    cdef Element element = element_of(descr)
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
        count = <int64_t> element_bits(<const char *> cnp.PyArray_DATA(nvec) + i * cnp.PyArray_STRIDE(nvec, 0), element, 0)
        first = <int64_t> element_bits(<const char *> cnp.PyArray_DATA(start) + i * cnp.PyArray_STRIDE(start, 0), element, 0)
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
    cdef Element element = element_of(descr)
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
            value = <int64_t> element_bits(<const char *> cnp.PyArray_DATA(start) + i * cnp.PyArray_STRIDE(start, 0), element, 0)
            if ones:
                rank = <npy_intp> draw_index(handle, <uint64_t> ones)
                for j in range(k):
                    if row[j] == 1:
                        if rank == 0:
                            value += j
                            break
                        rank -= 1
            store_bits(out_data, descr.itemsize, r * size + i, <uint64_t> value)
    return 0


def multi_discrete_sample(space):
    """Unmasked sample of a :class:`~gymspaces.MultiDiscrete` space (see below)."""
    return unmasked_multi_discrete_sample(space)


cdef object unmasked_multi_discrete_sample(space):
    """Unmasked sample of a :class:`~gymspaces.MultiDiscrete` space.

    ``trunc(u * nvec) + start`` with one ``next_double`` per entry in C order;
    a 0-d ``nvec`` yields a numpy scalar, as numpy's 0-d arithmetic does.
    """
    cdef dict namespace = instance_dict(space)
    dtype = attr(namespace, space, "dtype")
    nvec_obj = attr(namespace, space, "nvec")
    start_obj = attr(namespace, space, "start")
    if not (same_integer_type(nvec_obj, dtype) and same_integer_type(start_obj, dtype)
            and is_integer(element_of(<cnp.dtype> dtype))):
        # Reassigned with arrays (or a dtype) of another kind: numpy's promotions decide.
        return (space.np_random.random(nvec_obj.shape) * nvec_obj).astype(dtype) + start_obj
    cdef RNGHandle handle = rng_handle_from(namespace, space)
    cdef cnp.dtype descr = native_integer_descr(dtype)
    cdef Element element = element_of(descr)
    cdef cnp.ndarray nvec = as_c_array(nvec_obj, descr.type_num)
    cdef cnp.ndarray start = as_c_array(start_obj, descr.type_num)
    cdef npy_intp size = cnp.PyArray_SIZE(nvec)
    cdef int done
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
                done = multi_discrete_fill(handle.bitgen, handle.pcg, out, nvec, start, size, element)
        else:
            done = multi_discrete_fill(handle.bitgen, handle.pcg, out, nvec, start, size, element)
    finally:
        handle.unlock_draws(locked)
    if done == NO_KERNEL:
        no_kernel("MultiDiscrete sampling", descr)
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
    cdef Element element = element_of(descr)
    cdef int done
    if not cnp.PyArray_ISNBO(descr.byteorder) or not is_integer(element):
        return None
    cdef cnp.ndarray nvec = as_c_array(nvec_obj, descr.type_num)
    cdef cnp.ndarray start = as_c_array(start_obj, descr.type_num)
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
                done = multi_discrete_fill(handle.bitgen, handle.pcg, result, nvec, start, size, element, n)
        else:
            done = multi_discrete_fill(handle.bitgen, handle.pcg, result, nvec, start, size, element, n)
    finally:
        handle.unlock_draws(locked)
    if done == NO_KERNEL:
        no_kernel("MultiDiscrete sampling", descr)
    return result


def multi_discrete_masked_batch(space, npy_intp n, mask, out=None):
    """``n`` successive masked samples of a 1-D MultiDiscrete, stacked; ``None`` if not covered.

    ``mask`` is an exact tuple mirroring ``nvec`` (anything else is not covered): entry ``i`` is an int8 array of shape
    ``(n, nvec[i])`` (row ``r`` masks sample ``r``) or ``(nvec[i],)`` (every
    sample). Rows are drawn in order, entry by entry, with the checks of the
    single-sample walk, so errors leave the generator where the equivalent
    loop of ``sample(mask=...)`` leaves it. Returns ``None`` before drawing
    anything when :func:`flat_mask_parts` does not cover the call (then the
    caller loops over ``sample``).
    """
    if type(mask) is not tuple:
        return None
    parts = flat_mask_parts(space, <tuple> mask, n)
    if parts is None:
        return None
    namespace, descr, start = parts
    nvec = attr(namespace, space, "nvec")
    cdef cnp.ndarray result = batch_array(<cnp.ndarray> nvec, n, (<cnp.dtype> descr).type_num, out)
    fill_masked_rows(rng_handle_from(namespace, space), <cnp.dtype> descr, <cnp.ndarray> start,
                     <tuple> mask, n, <char *> cnp.PyArray_DATA(result))
    return result


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
# Membership
# ----------------------------------------------------------------------------

cdef inline bint integer_array(object x):
    """An aligned C-contiguous native array of a bool or integer type of at most 64 bits."""
    cdef Element element
    if not (cnp.PyArray_Check(x) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x) and cnp.PyArray_ISALIGNED(<cnp.ndarray> x)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> x)):
        return False
    element = array_element(<cnp.ndarray> x)
    return element == EL_BOOL or is_integer(element)


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
    inside = multi_discrete_contains_array(self, x)
    return registry.multi_discrete_contains_general(self, x) if inside is None else inside


cdef object multi_discrete_contains_array(space, x):
    """Membership of an integer array in a MultiDiscrete space; ``None`` to defer.

    Decides in C when ``x`` and the space's ``nvec``/``start`` are C-contiguous
    native integer arrays: numpy's safe cast, the shape, then every entry within
    ``[start, start + (nvec - 1)]`` with ``start + (nvec - 1)`` wrapping in the
    space's dtype as numpy computes it.
    """
    cdef dict namespace
    cdef cnp.dtype descr
    cdef cnp.ndarray xs, nvec, start
    cdef npy_intp size
    cdef npy_bool inside = True
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
    if not same_shape(xs, space_shape(space, namespace)):
        return False
    size = cnp.PyArray_SIZE(xs)
    if cnp.PyArray_SIZE(nvec) != size or cnp.PyArray_SIZE(start) != size:
        return None
    rows_in_range(xs, size, 1, nvec, start, descr, &inside)
    return inside != 0  # a bool


cdef inline bint within_bounds(uint64_t value, uint64_t low, uint64_t high, bint is_signed) noexcept nogil:
    # Safe cast: the value is representable in the space's dtype.
    if is_signed:
        return (<int64_t> value >= <int64_t> low) & (<int64_t> value <= <int64_t> high)
    return (value >= low) & (value <= high)


cdef void rows_within_bounds(const integer_t *x, npy_intp size, npy_intp rows, const uint64_t *lows,
                             const uint64_t *highs, bint is_signed, npy_bool *out) noexcept nogil:
    cdef npy_intp r, i
    cdef npy_bool ok
    for r in range(rows):  # branch-free: every row is read whole
        ok = out[r]
        for i in range(size):
            ok &= within_bounds(as_bits(x[r * size + i]), lows[i], highs[i], is_signed)
        out[r] = ok


cdef int within_bounds_as(Element element, const void *x, npy_intp size, npy_intp rows, const uint64_t *lows,
                          const uint64_t *highs, bint is_signed, npy_bool *out) noexcept nogil:
    """:func:`rows_within_bounds` for entries of ``element``; ``NO_KERNEL`` for any other."""
    if element == EL_BOOL:  # read as uint8
        element = EL_UINT8
    if element == EL_INT8: rows_within_bounds(<const int8_t *> x, size, rows, lows, highs, is_signed, out)
    elif element == EL_INT16: rows_within_bounds(<const int16_t *> x, size, rows, lows, highs, is_signed, out)
    elif element == EL_INT32: rows_within_bounds(<const int32_t *> x, size, rows, lows, highs, is_signed, out)
    elif element == EL_INT64: rows_within_bounds(<const int64_t *> x, size, rows, lows, highs, is_signed, out)
    elif element == EL_UINT8: rows_within_bounds(<const uint8_t *> x, size, rows, lows, highs, is_signed, out)
    elif element == EL_UINT16: rows_within_bounds(<const uint16_t *> x, size, rows, lows, highs, is_signed, out)
    elif element == EL_UINT32: rows_within_bounds(<const uint32_t *> x, size, rows, lows, highs, is_signed, out)
    elif element == EL_UINT64: rows_within_bounds(<const uint64_t *> x, size, rows, lows, highs, is_signed, out)
    else:
        return NO_KERNEL
    return 0


cdef int rows_in_range(cnp.ndarray x, npy_intp size, npy_intp rows, cnp.ndarray nvec, cnp.ndarray start,
                       cnp.dtype descr, npy_bool *out) except -1:
    """``out[r] &=`` every entry of row ``r`` (of ``rows`` rows of ``size`` entries of
    ``x``) lies within ``[start, start + (nvec - 1)]``, wrapped in the space's dtype
    as numpy computes it."""
    cdef uint64_t inline_bounds[64]
    cdef uint64_t *lows = inline_bounds
    cdef uint64_t *highs
    cdef npy_intp i
    cdef Element element = element_of(descr)
    cdef int itemsize = <int> descr.itemsize
    cdef bint is_signed = descr.kind == b'i'
    cdef int done
    if size > 32:
        lows = <uint64_t *> malloc(2 * size * sizeof(uint64_t))
        if lows == NULL:
            raise MemoryError()
    highs = lows + size
    try:
        for i in range(size):
            lows[i] = element_bits(<const char *> cnp.PyArray_DATA(start), element, i)
            highs[i] = lows[i] + (element_bits(<const char *> cnp.PyArray_DATA(nvec), element, i) - 1)
            if is_signed:
                highs[i] = <uint64_t> truncate_signed(highs[i], itemsize)
            elif itemsize < 8:
                highs[i] &= (<uint64_t> 1 << (8 * itemsize)) - 1
        done = within_bounds_as(array_element(x), cnp.PyArray_DATA(x), size, rows, lows, highs, is_signed, out)
    finally:
        if lows != inline_bounds:
            free(lows)
    if done == NO_KERNEL:
        no_kernel("MultiDiscrete membership", x.dtype)
    return 0


cdef int multi_discrete_rows_contained(space, object batch, npy_bool *out, npy_intp n) except -1:
    """``out[i] &= `` row ``i`` of ``batch`` is in the space, as ``contains_batch`` decides; 0 to defer.

    Decides in C a batch of ``n`` rows: rows of another shape, or a dtype that
    does not cast safely, are all ``False``; integer rows (a C-contiguous
    native array, with ``nvec``/``start`` such arrays of the space's dtype)
    are checked entry by entry as :func:`multi_discrete_contains` checks one.
    Anything else returns 0 before touching ``out``.
    """
    cdef cnp.ndarray rows, nvec, start
    cdef cnp.dtype descr, batch_descr
    cdef dict namespace
    cdef npy_intp i, d, row_size
    cdef int ndim
    if not cnp.PyArray_Check(batch):
        return 0
    rows = <cnp.ndarray> batch
    ndim = cnp.PyArray_NDIM(rows)
    if ndim < 1 or cnp.PyArray_DIM(rows, 0) != n:
        return 0
    batch_descr = <cnp.dtype> cnp.PyArray_DESCR(rows)
    if batch_descr.kind not in b'biufc':
        return 0
    namespace = instance_dict(space)
    shape = space_shape(space, namespace)
    if type(shape) is not tuple or len(<tuple> shape) == 0:
        return 0  # a 0-d space's items are scalars, which go item by item
    dtype = attr(namespace, space, "dtype")
    descr = <cnp.dtype?> dtype
    mismatch = len(<tuple> shape) != ndim - 1
    if not mismatch:
        for d in range(ndim - 1):
            if (<tuple> shape)[d] != cnp.PyArray_DIM(rows, d + 1):
                mismatch = True
                break
    if mismatch or not PyArray_CanCastTypeTo(batch_descr, descr, NPY_SAFE_CASTING):
        for i in range(n):
            out[i] = False
        return 1
    nvec_obj = attr(namespace, space, "nvec")
    start_obj = attr(namespace, space, "start")
    if not (integer_array(batch) and same_integer_type(nvec_obj, dtype) and same_integer_type(start_obj, dtype)
            and integer_array(nvec_obj) and integer_array(start_obj)):
        return 0
    nvec, start = <cnp.ndarray> nvec_obj, <cnp.ndarray> start_obj
    # Bounds shaped like a row compare elementwise, as numpy broadcasts them.
    if cnp.PyArray_NDIM(nvec) != ndim - 1 or cnp.PyArray_NDIM(start) != ndim - 1:
        return 0
    for d in range(ndim - 1):
        if cnp.PyArray_DIM(nvec, d) != cnp.PyArray_DIM(rows, d + 1) or \
                cnp.PyArray_DIM(start, d) != cnp.PyArray_DIM(rows, d + 1):
            return 0
    if n == 0:
        return 1
    row_size = cnp.PyArray_SIZE(rows) // n
    rows_in_range(rows, row_size, n, nvec, start, descr, out)
    return 1
