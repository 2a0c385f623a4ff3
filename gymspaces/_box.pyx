"""Kernels of Box sampling and membership.

``Box.sample`` in Gymnasium 1.4.0 makes four Generator calls, each over its own
coordinates in C order: ``normal`` for unbounded ones, ``exponential`` (+low)
for lower-bounded, ``-exponential`` (+high) for upper-bounded and ``uniform``
for bounded ones, then floors, clips and casts for integer dtypes. The kernel
below performs the same draws through numpy's C routines and writes the cast
result of every coordinate straight into the output array.
"""

cimport numpy as cnp
from libc.float cimport DBL_MAX
from libc.math cimport fabs, signbit
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from numpy cimport npy_bool, npy_intp
from numpy.random cimport bitgen_t

from gymspaces._distributions cimport npy_double_to_half, random_exponential, random_normal
from gymspaces._arrays cimport as_c_array, same_shape
from cpython.object cimport PyObject, PyTypeObject

from gymspaces._attrs cimport _PyType_Lookup, attr, instance_dict
from gymspaces._dtypes cimport (
    EL_BOOL, EL_DOUBLE, EL_FLOAT, EL_HALF, EL_INT8, EL_INT16, EL_INT32, EL_INT64, EL_UINT8, EL_UINT16, EL_UINT32,
    EL_UINT64, NO_KERNEL, NOT_NUMERIC, Element, as_double, bool_t, element_of, half_t, no_kernel,
    npy_half_to_double, numeric_t,
)
from gymspaces._outputs cimport batch_array
from gymspaces._registry cimport Registry
from gymspaces._rng cimport (
    NOGIL_THRESHOLD, RNGHandle, any_bitgen, clone_pcg64, double_source, gs_pcg128_t, gs_pcg64_fill_raw, inline_pcg64,
    pcg64_clone, rng_handle_from, source_double,
)

import numpy as np

from gymspaces import _registry
from gymspaces.error import Error

cnp.import_array()

# gymspaces' Python code for the cases the kernel leaves undecided, and
# Space's ``shape`` property (see _registry.pxd): functions, not methods, so
# they serve any space the kernel runs for.
cdef Registry registry = _registry.REGISTRY
cdef int64_t CAST_OF_2_63
with np.errstate(invalid="ignore"):  # (numpy warns of the out-of-range cast it makes)
    CAST_OF_2_63 = np.array([2.0 ** 63]).astype(np.int64)[0]


cdef enum:
    # Raw draws per block of the image fill (2 KiB on the stack).
    RAW_BLOCK = 256


cdef enum RangeCheck:
    RANGE_OK = 0
    RANGE_NOT_FINITE = 1
    RANGE_NEGATIVE = 2


cdef inline double high_as_double(numeric_t value) noexcept nogil:
    """The sampling upper bound: ``high`` for floats, ``int64(high) + 1`` otherwise."""
    if numeric_t is half_t:
        return npy_half_to_double(value.bits)
    elif numeric_t is double or numeric_t is float:
        return <double> value
    elif numeric_t is bool_t:
        return <double> (<int64_t> value.value + 1)
    else:
        # astype(int64) wraps uint64 above 2**63 and +1 wraps int64 max (quirk Q8, docs/quirks.md).
        return <double> <int64_t> (<uint64_t> <int64_t> value + 1)


cdef inline double floor_value(double x) noexcept nogil:
    """``floor(x)`` up to the sign of zero, which integer and bool casts ignore.

    Inlined because the portable x86-64 baseline has no floor instruction and
    libm's is a call per element; doubles of magnitude >= 2**52 are integers.
    """
    cdef double t
    if fabs(x) < 4503599627370496.0:
        t = <double> <int64_t> x
        if t > x:
            t -= 1.0
        return t
    return x


cdef inline void store(numeric_t *out, npy_intp i, double x, double clip_lo, double clip_hi,
                       const numeric_t *low, const numeric_t *high) noexcept nogil:
    """``x`` floored, clipped and cast to the Box dtype, as Gymnasium post-processes."""
    if numeric_t is double:
        out[i] = x
    elif numeric_t is float:
        out[i] = <float> x
    elif numeric_t is half_t:
        # Straight from double: rounding through float32 would differ.
        out[i].bits = npy_double_to_half(x)
    elif numeric_t is bool_t:
        out[i].value = floor_value(x) != 0
    else:
        # Unsigned boxes only ever produce x >= 0 (their bounds are >= 0), where the
        # truncating cast below already is floor; signed ones need the real floor.
        if numeric_t is int8_t or numeric_t is int16_t or numeric_t is int32_t or numeric_t is int64_t:
            x = floor_value(x)
        if x < clip_lo:
            x = clip_lo
        if x > clip_hi:
            x = clip_hi
        # int64's clip bound rounds up to 2**63 in float64, whose C cast is undefined:
        # numpy's gives what this CPU's instruction does (quirk Q25: INT64_MIN on
        # x86-64, saturated on aarch64), measured at import. (A uint64 draw never
        # reaches 2**64: its high wraps to int64 first, quirk Q8, and the range fails.)
        if numeric_t is int64_t:
            out[i] = CAST_OF_2_63 if x >= 9223372036854775808.0 else <int64_t> x
        else:
            out[i] = <numeric_t> x
        if numeric_t is int64_t:
            if out[i] < low[i]:
                out[i] = low[i]
            if out[i] > high[i]:
                out[i] = high[i]


cdef bint uniform_pass(double_source *source, numeric_t *out, const numeric_t *low, const numeric_t *high,
                       const npy_bool *below, const npy_bool *above, npy_intp size,
                       bint all_bounded, double clip_lo, double clip_hi) noexcept nogil:
    """``uniform(low, high)`` of the bounded coordinates, in C order, stored cast.

    ``random_uniform(lo, r)`` is ``lo + r * next_double()``, written out (the
    build uses -ffp-contract=off, so no FMA changes the rounding). Returns
    whether some range was invalid (see :func:`check_ranges`); ``source`` is
    then left as it was, so a caller drawing from a copy can drop the draws.
    """
    # A local copy lets the compiler keep an inline PCG64 state in registers:
    # stores to ``out`` (possibly char-typed) could otherwise alias it.
    cdef double_source local = source[0]
    cdef npy_intp i
    cdef double lo, r
    cdef int invalid = 0
    for i in range(size):
        if all_bounded or (below[i] and above[i]):
            lo = as_double(low[i])
            r = high_as_double(high[i]) - lo
            invalid |= range_invalid(r, low[i])
            store(out, i, lo + r * source_double(&local), clip_lo, clip_hi, low, high)
    if invalid:
        return True
    source[0] = local
    return False


cdef inline int range_invalid(double r, numeric_t tag) noexcept nogil:
    """Whether numpy's ``uniform`` rejects the range ``r`` (not finite, or sign bit set)."""
    if (numeric_t is int8_t or numeric_t is int16_t or numeric_t is int32_t or numeric_t is uint8_t
            or numeric_t is uint16_t or numeric_t is uint32_t or numeric_t is bool_t):
        return r < 0.0  # exact integers: always finite, never -0.0
    else:
        return (not (fabs(r) <= DBL_MAX)) | (signbit(r) != 0)


cdef RangeCheck check_ranges(const numeric_t *low, const numeric_t *high, const npy_bool *below,
                             const npy_bool *above, npy_intp size, bint all_bounded) noexcept nogil:
    """What numpy's ``uniform`` says of the bounded ranges: non-finite first, then negative."""
    cdef npy_intp i
    cdef double r
    cdef int not_finite = 0, negative = 0
    if (numeric_t is int8_t or numeric_t is int16_t or numeric_t is int32_t or numeric_t is uint8_t
            or numeric_t is uint16_t or numeric_t is uint32_t or numeric_t is bool_t) and all_bounded:
        # Exact in int64: the range (high + 1) - low is finite and never -0.0.
        for i in range(size):
            negative |= int_high(high[i]) < int_low(low[i])
        return RANGE_NEGATIVE if negative else RANGE_OK
    for i in range(size):
        if all_bounded or (below[i] and above[i]):
            r = high_as_double(high[i]) - as_double(low[i])
            not_finite |= not (fabs(r) <= DBL_MAX)
            # A NaN range is reported as not finite, which takes precedence.
            negative |= signbit(r) != 0
    if not_finite:
        return RANGE_NOT_FINITE
    if negative:
        return RANGE_NEGATIVE
    return RANGE_OK


cdef inline int64_t int_low(numeric_t value) noexcept nogil:
    if numeric_t is bool_t:
        return <int64_t> value.value
    elif numeric_t is half_t:
        return 0
    else:
        return <int64_t> value


cdef inline int64_t int_high(numeric_t value) noexcept nogil:
    """``high + 1`` of a Box of width up to 32 bits, exactly."""
    return int_low(value) + 1


cdef bint all_bounded(const npy_bool *below, const npy_bool *above, npy_intp size) noexcept nogil:
    """Whether every coordinate is bounded on both sides."""
    cdef npy_intp i
    cdef npy_bool every = 1
    for i in range(size):
        every &= (below[i] != 0) & (above[i] != 0)
    return every


cdef bint top_bits_fill(gs_pcg128_t *pcg, numeric_t *out, const numeric_t *low, const numeric_t *high,
                       npy_intp size) noexcept nogil:
    """Integer boxes of bounds ``[0, 2**k - 1]`` everywhere (an image's 0..255): fill
    ``out`` with the top ``k`` bits of each draw; ``False`` (nothing drawn) otherwise.

    Gymnasium draws ``floor(uniform(0, 2**k))``, i.e. ``floor(2**k * next_double())``;
    ``next_double()`` is ``(x >> 11) * 2**-53`` for the next 64-bit draw ``x``,
    so the product is exact and its floor is ``x >> (64 - k)``: the same value
    and the same draws, without going through doubles.
    """
    cdef npy_intp i, start, block
    cdef uint64_t count
    cdef uint64_t raw[RAW_BLOCK]
    cdef numeric_t first, differ
    cdef int shift = 64
    if not (numeric_t is uint8_t or numeric_t is int8_t or numeric_t is uint16_t or numeric_t is int16_t
            or numeric_t is uint32_t or numeric_t is int32_t):
        return False
    else:
        if size == 0 or low[0] != 0 or high[0] <= 0:
            return False
        count = <uint64_t> high[0] + 1
        if count & (count - 1):  # not a power of two
            return False
        while count > 1:
            count >>= 1
            shift -= 1
        # No early exit: the whole scan vectorises, and images pass it anyway.
        first = high[0]
        differ = 0
        for i in range(size):
            differ |= low[i] | (high[i] ^ first)
        if differ != 0:
            return False
        # Raw draws come in blocks from the lane-parallel fill (a stack buffer
        # that stays in L1), then are narrowed: the same draws, in order.
        start = 0
        while start < size:
            block = min(size - start, RAW_BLOCK)
            gs_pcg64_fill_raw(pcg, raw, block)
            for i in range(block):
                out[start + i] = <numeric_t> (raw[i] >> shift)
            start += block
        return True


cdef RangeCheck box_fill(bitgen_t *bitgen, gs_pcg128_t *pcg, numeric_t *out, const numeric_t *low,
                         const numeric_t *high, const npy_bool *below, const npy_bool *above,
                         npy_intp size, double clip_lo, double clip_hi) noexcept nogil:
    """Draw every coordinate in Gymnasium's pass order; stop before the uniform pass
    if a bounded range is invalid (the earlier passes have then drawn, quirk Q10 in
    docs/quirks.md).

    ``pcg`` is the PCG64 state to draw the uniform pass inline from, or NULL.
    """
    cdef npy_intp i, n_below = 0, n_above = 0, n_both = 0
    cdef RangeCheck check
    cdef inline_pcg64 inline_source
    cdef any_bitgen numpy_source
    if all_bounded(below, above, size):  # the common case, in one vectorised pass
        n_below = n_above = n_both = size
    else:
        for i in range(size):
            n_below += below[i] != 0
            n_above += above[i] != 0
            n_both += (below[i] != 0) & (above[i] != 0)
    if n_below + n_above - n_both < size:  # some coordinate is unbounded
        for i in range(size):
            if not below[i] and not above[i]:
                store(out, i, random_normal(bitgen, 0.0, 1.0), clip_lo, clip_hi, low, high)
    if n_below > n_both:
        for i in range(size):
            if below[i] and not above[i]:
                store(out, i, random_exponential(bitgen, 1.0) + as_double(low[i]),
                      clip_lo, clip_hi, low, high)
    if n_above > n_both:
        for i in range(size):
            if above[i] and not below[i]:
                store(out, i, -random_exponential(bitgen, 1.0) + high_as_double(high[i]),
                      clip_lo, clip_hi, low, high)
    if n_both == 0:
        return RANGE_OK
    if pcg != NULL and n_both == size and top_bits_fill(pcg, out, low, high, size):
        return RANGE_OK
    # The normal/exponential passes above went through ``bitgen`` and left the
    # state in memory, so an inline copy taken now continues the same stream.
    # Inline draws go to a copy that is only kept if every range was valid, so
    # the ranges are checked during the pass; numpy's routines draw in place,
    # so for them the ranges are checked first, as numpy's ``uniform`` does.
    if pcg != NULL:
        inline_source.rng = pcg[0]
        if uniform_pass(&inline_source, out, low, high, below, above, size, n_both == size,
                        clip_lo, clip_hi):
            return check_ranges(low, high, below, above, size, n_both == size)
        pcg[0] = inline_source.rng
    else:
        check = check_ranges(low, high, below, above, size, n_both == size)
        if check != RANGE_OK:
            return check
        numpy_source.bitgen = bitgen
        uniform_pass(&numpy_source, out, low, high, below, above, size, n_both == size,
                     clip_lo, clip_hi)
    return RANGE_OK


cdef struct Fill:
    # What the samples of one call share (each sample draws every coordinate).
    bitgen_t *bitgen
    gs_pcg128_t *pcg
    const npy_bool *below
    const npy_bool *above
    npy_intp size  # coordinates per sample
    npy_intp rows  # samples, written one after another
    double clip_lo
    double clip_hi


cdef RangeCheck fill_rows(numeric_t *out, const void *low, const void *high, const Fill *fill) noexcept nogil:
    """``fill.rows`` samples, one after another; stops at the first invalid range."""
    cdef npy_intp r
    cdef RangeCheck check = RANGE_OK
    for r in range(fill.rows):
        check = box_fill(fill.bitgen, fill.pcg, out + r * fill.size, <const numeric_t *> low,
                         <const numeric_t *> high, fill.below, fill.above, fill.size, fill.clip_lo, fill.clip_hi)
        if check != RANGE_OK:
            break
    return check


cdef int fill_as(Element element, void *out, const void *low, const void *high, const Fill *fill) noexcept nogil:
    """:func:`fill_rows` for arrays of ``element``: a ``RangeCheck``, or ``NO_KERNEL``."""
    if element == EL_DOUBLE: return fill_rows(<double *> out, low, high, fill)
    if element == EL_FLOAT: return fill_rows(<float *> out, low, high, fill)
    if element == EL_HALF: return fill_rows(<half_t *> out, low, high, fill)
    if element == EL_BOOL: return fill_rows(<bool_t *> out, low, high, fill)
    if element == EL_INT8: return fill_rows(<int8_t *> out, low, high, fill)
    if element == EL_INT16: return fill_rows(<int16_t *> out, low, high, fill)
    if element == EL_INT32: return fill_rows(<int32_t *> out, low, high, fill)
    if element == EL_INT64: return fill_rows(<int64_t *> out, low, high, fill)
    if element == EL_UINT8: return fill_rows(<uint8_t *> out, low, high, fill)
    if element == EL_UINT16: return fill_rows(<uint16_t *> out, low, high, fill)
    if element == EL_UINT32: return fill_rows(<uint32_t *> out, low, high, fill)
    if element == EL_UINT64: return fill_rows(<uint64_t *> out, low, high, fill)
    return NO_KERNEL


cdef cnp.dtype BOOL_DESCR = np.dtype(np.bool_)


cdef inline bint same_dtype(object values, cnp.dtype descr):
    """An ndarray whose dtype is ``descr``'s kind and width (byte order aside)."""
    cdef cnp.dtype own
    if not cnp.PyArray_Check(values):
        return False
    own = <cnp.dtype> cnp.PyArray_DESCR(<cnp.ndarray> values)
    return own.kind == descr.kind and own.itemsize == descr.itemsize


cdef dict CLIP_BOUNDS = {}


cdef int set_clip_bounds(Fill *fill, Element element, cnp.dtype descr) except -1:
    """The float64 clip range applied before an integer cast: the dtype's range (int64
    keeps a margin of 2, as Gymnasium's ``dtype == np.int64`` test gives ``longlong`` too)."""
    bounds = CLIP_BOUNDS.get(element)
    if bounds is None:
        info = np.iinfo(descr)
        margin = 2 if element == EL_INT64 else 0
        bounds = CLIP_BOUNDS[element] = (float(int(info.min) + margin), float(int(info.max) - margin))
    fill.clip_lo, fill.clip_hi = bounds
    return 0


def box_sample(self, mask=None, probability=None):
    """Sample of a :class:`~gymspaces.Box` (bound as ``Box.sample``).

    Coordinates bounded on both sides are drawn uniformly, those bounded on one
    side from a shifted exponential, unbounded ones from a standard normal.
    Integer dtypes draw from ``[low, high]`` inclusive.

    Parameters
    ----------
    mask, probability : None
        Accepted for a uniform ``Space.sample`` signature only; must be ``None``.

    Returns
    -------
    numpy.ndarray
        An array of the Box's shape and dtype.

    Raises
    ------
    gymspaces.error.Error
        If a mask or probability is given: a Box has no masked sampling.
    OverflowError, ValueError
        When a bounded coordinate's range is not finite or negative, exactly
        where numpy's ``uniform`` raises them.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box
    >>> space = Box(0, 9, shape=(4,), dtype=np.int64, seed=0)
    >>> space.sample()
    array([6, 2, 0, 0])
    >>> space.sample(mask=np.ones(4, dtype=np.int8))
    Traceback (most recent call last):
        ...
    gymspaces.error.Error: Box.sample cannot be provided a mask, actual value: [1 1 1 1]
    """
    if mask is not None:
        raise Error(f"Box.sample cannot be provided a mask, actual value: {mask}")
    if probability is not None:
        raise Error(f"Box.sample cannot be provided a probability mask, actual value: {probability}")
    drawn = box_draw(self, -1, None)
    if drawn is None:
        # Bounds reassigned with another dtype: numpy's promotions then decide the
        # result, so replay Gymnasium's numpy calls on the space's generator.
        return registry.box_sample_with_numpy(self)
    return drawn


def box_sample_batch(self, npy_intp n, out=None):
    """``n`` successive :func:`box_sample` draws stacked into an ``(n, *shape)`` array.

    Parameters
    ----------
    n : int
        Number of samples (``>= 0``).
    out : numpy.ndarray, optional
        C-contiguous, writeable array of shape ``(n, *shape)`` and exactly the
        Box's (native) dtype; written in place and returned.

    Returns
    -------
    numpy.ndarray or None
        ``None`` when the Box is one the kernel leaves to numpy (bounds of
        another dtype, a non-native dtype): the caller then samples one by one.
    """
    if n < 0:
        raise ValueError(f"the number of samples must be non-negative, got {n}")
    return box_draw(self, n, out)


cdef object box_draw(space, npy_intp reps, object out):
    """One sample (``reps < 0``) or ``reps`` successive samples stacked; ``None`` if
    the Box needs numpy's own promotions."""
    cdef dict namespace = instance_dict(space)
    cdef cnp.dtype descr = <cnp.dtype?> attr(namespace, space, "dtype")
    cdef Element element = element_of(descr)
    cdef int type_num = descr.type_num
    low_obj = attr(namespace, space, "low")
    high_obj = attr(namespace, space, "high")
    below_obj = attr(namespace, space, "bounded_below")
    above_obj = attr(namespace, space, "bounded_above")
    # A long double Box is numpy's too: its ``uniform`` refuses the bounds (TypeError).
    if element == NOT_NUMERIC or not (same_dtype(low_obj, descr) and same_dtype(high_obj, descr)
                                      and same_dtype(below_obj, BOOL_DESCR) and same_dtype(above_obj, BOOL_DESCR)):
        return None
    if reps >= 0 and not cnp.PyArray_ISNBO(descr.byteorder):
        return None
    cdef RNGHandle handle = rng_handle_from(namespace, space)
    cdef cnp.ndarray low = as_c_array(low_obj, type_num)
    cdef cnp.ndarray high = as_c_array(high_obj, type_num)
    cdef cnp.ndarray below = as_c_array(below_obj, cnp.NPY_BOOL)
    cdef cnp.ndarray above = as_c_array(above_obj, cnp.NPY_BOOL)
    cdef Fill fill
    fill.size = cnp.PyArray_SIZE(low)
    if (cnp.PyArray_SIZE(high) != fill.size or cnp.PyArray_SIZE(below) != fill.size
            or cnp.PyArray_SIZE(above) != fill.size):
        raise IndexError(
            "Box low, high, bounded_below and bounded_above must have the same number of "
            f"elements, actual sizes: {fill.size}, {high.size}, {below.size}, {above.size}")
    fill.rows = 1 if reps < 0 else reps
    fill.below = <const npy_bool *> cnp.PyArray_DATA(below)
    fill.above = <const npy_bool *> cnp.PyArray_DATA(above)
    fill.clip_lo = fill.clip_hi = 0.0
    if descr.kind == b'i' or descr.kind == b'u':
        set_clip_bounds(&fill, element, descr)
    cdef cnp.ndarray result = batch_output(low, reps, type_num, out)
    cdef void *data = cnp.PyArray_DATA(result)
    cdef const void *lo = cnp.PyArray_DATA(low)
    cdef const void *hi = cnp.PyArray_DATA(high)
    cdef int check = RANGE_OK
    cdef bint bulk = fill.size * fill.rows > NOGIL_THRESHOLD
    cdef bint locked = handle.lock_draws(bulk)
    try:
        fill.bitgen = handle.bitgen
        fill.pcg = handle.pcg
        if bulk:
            with nogil:
                check = fill_as(element, data, lo, hi, &fill)
        else:
            check = fill_as(element, data, lo, hi, &fill)
    finally:
        handle.unlock_draws(locked)
    if check == NO_KERNEL:
        no_kernel("Box sampling", descr)
    if check == RANGE_NOT_FINITE:
        _warn_like_numpy_subtract(space, descr)
        raise OverflowError("Range exceeds valid bounds")
    if check == RANGE_NEGATIVE:
        raise ValueError("high - low < 0")
    if reps >= 0:
        return result
    if not cnp.PyArray_ISNBO(descr.byteorder):
        result = result.astype(descr)
    if cnp.PyArray_NDIM(result) == 0 and descr.kind != b'f':
        # Gymnasium's np.floor turns a 0-d integer/bool sample into a numpy scalar.
        return result[()]
    return result


cdef cnp.ndarray batch_output(cnp.ndarray low, npy_intp reps, int type_num, object out):
    """Where samples are written: ``low``'s shape, with a leading ``reps`` axis
    (and possibly the caller's ``out``) when ``reps >= 0``."""
    if reps < 0:
        return cnp.PyArray_EMPTY(cnp.PyArray_NDIM(low), cnp.PyArray_DIMS(low), type_num, 0)
    return batch_array(low, reps, type_num, out)


def box_sample_detached(space, low, high, bounded_below, bounded_above):
    """``Box(low, high, dtype=space.dtype, seed=deepcopy(space.np_random)).sample()``.

    The draws come from a private copy of ``space``'s PCG64 state, so
    ``space``'s own generator does not move. The bounds are those the Box
    constructor would hold (as built by ``_graph.box_batch_bounds``).

    Returns ``None`` -- the caller then builds the Box the general way -- when
    the generator is not a PCG64 drawn inline, the arrays are not native,
    C-contiguous arrays of the space's dtype, or a range is invalid (the
    general path then raises exactly what Gymnasium raises).
    """
    cdef dict namespace = instance_dict(space)
    cdef cnp.dtype descr = <cnp.dtype?> attr(namespace, space, "dtype")
    cdef Element element = element_of(descr)
    cdef int type_num = descr.type_num
    if element == NOT_NUMERIC or element == EL_HALF or not cnp.PyArray_ISNBO(descr.byteorder):
        return None
    if not (is_native_c_array_of(low, type_num) and is_native_c_array_of(high, type_num)
            and is_native_c_array_of(bounded_below, cnp.NPY_BOOL)
            and is_native_c_array_of(bounded_above, cnp.NPY_BOOL)):
        return None
    cdef Fill fill
    fill.size = cnp.PyArray_SIZE(<cnp.ndarray> low)
    if (cnp.PyArray_SIZE(<cnp.ndarray> high) != fill.size
            or cnp.PyArray_SIZE(<cnp.ndarray> bounded_below) != fill.size
            or cnp.PyArray_SIZE(<cnp.ndarray> bounded_above) != fill.size
            or cnp.PyArray_NDIM(<cnp.ndarray> low) == 0):
        return None
    cdef pcg64_clone clone
    if not clone_pcg64(rng_handle_from(namespace, space), &clone):
        return None
    fill.bitgen = &clone.bitgen
    fill.pcg = &clone.rng
    fill.rows = 1
    fill.below = <const npy_bool *> cnp.PyArray_DATA(<cnp.ndarray> bounded_below)
    fill.above = <const npy_bool *> cnp.PyArray_DATA(<cnp.ndarray> bounded_above)
    fill.clip_lo = fill.clip_hi = 0.0
    if descr.kind == b'i' or descr.kind == b'u':
        set_clip_bounds(&fill, element, descr)
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(cnp.PyArray_NDIM(<cnp.ndarray> low),
                                             cnp.PyArray_DIMS(<cnp.ndarray> low), type_num, 0)
    cdef int check = fill_as(element, cnp.PyArray_DATA(out), cnp.PyArray_DATA(<cnp.ndarray> low),
                             cnp.PyArray_DATA(<cnp.ndarray> high), &fill)
    if check == NO_KERNEL:
        no_kernel("Box sampling", descr)
    if check != RANGE_OK:
        return None
    return out


cdef _warn_like_numpy_subtract(space, cnp.dtype descr):
    """Emit the RuntimeWarnings numpy's ``uniform`` gives while computing ``high - low``.

    Only called on the error path: redoing the subtraction with numpy is the
    exact way to reproduce which overflow/invalid warnings Gymnasium shows.
    """
    bounded = np.logical_and(space.bounded_below, space.bounded_above)
    high = space.high if descr.kind == b'f' else space.high.astype(np.int64) + 1
    np.subtract(np.asarray(high[bounded], dtype=np.float64),
                np.asarray(space.low[bounded], dtype=np.float64))


# ----------------------------------------------------------------------------
# contains
# ----------------------------------------------------------------------------

cdef void rows_within(const numeric_t *x, const void *low_data, const void *high_data, npy_intp size,
                      npy_intp rows, npy_bool *out) noexcept nogil:
    """``out[r] &=`` row ``r`` of the ``rows`` rows of ``size`` entries at ``x`` lies within bounds."""
    cdef const numeric_t *low = <const numeric_t *> low_data
    cdef const numeric_t *high = <const numeric_t *> high_data
    cdef const numeric_t *row
    cdef npy_intp r, i
    cdef npy_bool ok
    for r in range(rows):  # branch-free: every row is read whole
        row = x + r * size
        ok = out[r]
        for i in range(size):
            if numeric_t is half_t or numeric_t is bool_t:
                ok &= (as_double(row[i]) >= as_double(low[i])) & (as_double(row[i]) <= as_double(high[i]))
            else:
                ok &= (row[i] >= low[i]) & (row[i] <= high[i])
        out[r] = ok


cdef int within_as(Element element, const void *x, const void *low, const void *high, npy_intp size,
                   npy_intp rows, npy_bool *out) noexcept nogil:
    """:func:`rows_within` for arrays of ``element``; ``NO_KERNEL`` for any other."""
    if element == EL_DOUBLE: rows_within(<const double *> x, low, high, size, rows, out)
    elif element == EL_FLOAT: rows_within(<const float *> x, low, high, size, rows, out)
    elif element == EL_HALF: rows_within(<const half_t *> x, low, high, size, rows, out)
    elif element == EL_BOOL: rows_within(<const bool_t *> x, low, high, size, rows, out)
    elif element == EL_INT8: rows_within(<const int8_t *> x, low, high, size, rows, out)
    elif element == EL_INT16: rows_within(<const int16_t *> x, low, high, size, rows, out)
    elif element == EL_INT32: rows_within(<const int32_t *> x, low, high, size, rows, out)
    elif element == EL_INT64: rows_within(<const int64_t *> x, low, high, size, rows, out)
    elif element == EL_UINT8: rows_within(<const uint8_t *> x, low, high, size, rows, out)
    elif element == EL_UINT16: rows_within(<const uint16_t *> x, low, high, size, rows, out)
    elif element == EL_UINT32: rows_within(<const uint32_t *> x, low, high, size, rows, out)
    elif element == EL_UINT64: rows_within(<const uint64_t *> x, low, high, size, rows, out)
    else:
        return NO_KERNEL
    return 0


cdef object space_shape(space, dict namespace):
    """``space.shape``, read from the instance's ``_shape`` while ``shape`` is Space's own property.

    ``type(space)``'s ``shape`` is found as the interpreter finds it
    (``_PyType_Lookup``, see ``_contains.class_attr``); the borrowed result is
    only compared with the property the registry holds.
    """
    cdef type cls = type(space)
    cdef str name = "shape"
    if _PyType_Lookup(<PyTypeObject *> cls, <PyObject *> name) == <PyObject *> registry.space_shape:
        return attr(namespace, space, "_shape")
    return space.shape


cdef inline bint is_native_c_array_of(object x, int type_num):
    """An ndarray (a subclass too), aligned, C-contiguous, in native byte order, of type ``type_num`` exactly."""
    return (cnp.PyArray_Check(x) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x) and cnp.PyArray_ISALIGNED(<cnp.ndarray> x)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> x)
            and cnp.PyArray_TYPE(<cnp.ndarray> x) == type_num)


def box_contains(self, x):
    """Whether ``x`` has the Box's shape, a dtype castable to it, and lies within bounds.

    Non-arrays are converted to the Box's dtype first (with a warning), so a
    list of floats may belong to an integer Box while a float64 array does
    not belong to a float32 Box.

    Examples
    --------
    >>> import numpy as np
    >>> from gymspaces import Box
    >>> space = Box(-1.0, 1.0, shape=(2,))
    >>> space.contains(np.array([0.5, -1.0], dtype=np.float32))
    True
    >>> space.contains(np.array([0.5, 2.0], dtype=np.float32))  # out of bounds
    False
    >>> space.contains(np.array([0.5, -1.0]))  # float64 does not cast safely to float32
    False
    """
    inside = box_contains_same_dtype(self, x)
    return registry.box_contains_with_numpy(self, x) if inside is None else inside


cdef object box_contains_same_dtype(space, x):
    """Membership of an array already of the Box's dtype; ``None`` to defer to numpy.

    Returns ``None`` unless ``x``, ``low`` and ``high`` are C-contiguous native
    arrays of the Box's own dtype, the only case where the C comparison is the
    same as numpy's (no promotion involved).
    """
    cdef dict namespace = instance_dict(space)
    cdef cnp.dtype descr = <cnp.dtype?> attr(namespace, space, "dtype")
    cdef Element element = element_of(descr)
    cdef int type_num = descr.type_num
    cdef npy_bool inside = True
    if element == NOT_NUMERIC or not is_native_c_array_of(x, type_num):
        return None
    low = attr(namespace, space, "low")
    high = attr(namespace, space, "high")
    if not (is_native_c_array_of(low, type_num) and is_native_c_array_of(high, type_num)):
        return None
    if not same_shape(<cnp.ndarray> x, space_shape(space, namespace)):
        return False
    if cnp.PyArray_SIZE(<cnp.ndarray> low) != cnp.PyArray_SIZE(<cnp.ndarray> x) or \
            cnp.PyArray_SIZE(<cnp.ndarray> high) != cnp.PyArray_SIZE(<cnp.ndarray> x):
        return None
    if within_as(element, cnp.PyArray_DATA(<cnp.ndarray> x), cnp.PyArray_DATA(<cnp.ndarray> low),
                 cnp.PyArray_DATA(<cnp.ndarray> high), cnp.PyArray_SIZE(<cnp.ndarray> x), 1, &inside) == NO_KERNEL:
        no_kernel("Box membership", descr)
    return inside != 0


cdef int box_rows_contained(space, object batch, npy_bool *out, npy_intp n) except -1:
    """``out[i] &= `` row ``i`` of ``batch`` is in the Box, as ``contains_batch`` decides; 0 to defer.

    Decides in C a batch of ``n`` rows of the Box's own dtype (C-contiguous,
    native, like ``low`` and ``high``); rows of the wrong shape are all
    ``False``. Anything else returns 0 before touching ``out``.
    """
    cdef dict namespace = instance_dict(space)
    cdef cnp.dtype descr = <cnp.dtype?> attr(namespace, space, "dtype")
    cdef Element element = element_of(descr)
    cdef int type_num = descr.type_num
    cdef npy_intp i, d
    if element == NOT_NUMERIC or not is_native_c_array_of(batch, type_num):
        return 0
    cdef cnp.ndarray rows = <cnp.ndarray> batch
    cdef int ndim = cnp.PyArray_NDIM(rows)
    if ndim < 1 or cnp.PyArray_DIM(rows, 0) != n:
        return 0
    low = attr(namespace, space, "low")
    high = attr(namespace, space, "high")
    if not (is_native_c_array_of(low, type_num) and is_native_c_array_of(high, type_num)):
        return 0
    shape = space_shape(space, namespace)
    if type(shape) is not tuple:
        return 0
    if len(<tuple> shape) != ndim - 1:
        for i in range(n):
            out[i] = False
        return 1
    for d in range(ndim - 1):
        if (<tuple> shape)[d] != cnp.PyArray_DIM(rows, d + 1):
            for i in range(n):
                out[i] = False
            return 1
    # Bounds shaped like a row compare elementwise, as numpy broadcasts them.
    if cnp.PyArray_NDIM(<cnp.ndarray> low) != ndim - 1 or cnp.PyArray_NDIM(<cnp.ndarray> high) != ndim - 1:
        return 0
    for d in range(ndim - 1):
        if (cnp.PyArray_DIM(<cnp.ndarray> low, d) != cnp.PyArray_DIM(rows, d + 1)
                or cnp.PyArray_DIM(<cnp.ndarray> high, d) != cnp.PyArray_DIM(rows, d + 1)):
            return 0
    if n == 0:
        return 1
    if within_as(element, cnp.PyArray_DATA(rows), cnp.PyArray_DATA(<cnp.ndarray> low),
                 cnp.PyArray_DATA(<cnp.ndarray> high), cnp.PyArray_SIZE(rows) // n, n, out) == NO_KERNEL:
        no_kernel("Box membership", descr)
    return 1
