"""Categorical sampling exactly as ``Generator.choice(a, p=p)`` performs it.

numpy validates ``p`` with a Kahan-compensated sum, builds ``cumsum(p)``
divided by its last entry, draws one ``next_double`` per output and returns
``searchsorted(cdf, u, side="right")``. Gymnasium additionally checks sums with
``np.isclose(np.sum(p), 1)``, where ``np.sum`` is numpy's pairwise summation.
Both sums are reproduced here bit for bit so that every accept/reject decision
matches the reference.

``np.sum`` of a long vector depends on the installed numpy: before 2.3 its
reduction iterator hands the pairwise loop chunks of at most one buffer (8192
items by default) and adds the chunk sums in sequence; from 2.3 on a contiguous
vector is one pairwise call at any length (numpy gh-27883). Up to 8192 items
every numpy since 1.23 sums alike, and the kernel below does it without
numpy; longer vectors go to numpy's own reduction, which costs little next to
the summation itself, and so they follow whichever numpy is installed. (A
buffer made smaller than 8192 with ``np.setbufsize`` on numpy < 2.3 also cuts
shorter vectors into chunks there; the kernel does not follow that: reading
the setting would cost more than the sum.)

The two single draws Discrete and MultiDiscrete make -- ``choice(valid_indices)``
under a mask, ``choice(a, p=p)`` under a probability vector -- are here too
(:func:`masked_choice`, :func:`probability_choice`), shared by both kernels.
"""

cimport numpy as cnp
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport NAN, fabs, isnan, sqrt
from numpy cimport npy_intp

from gymspaces._arrays cimport as_c_array
from gymspaces._distributions cimport random_standard_uniform

import numpy as np

cnp.import_array()

_add_reduce = np.add.reduce  # what np.sum(a) calls

cdef enum:
    # numpy.sum's pairwise summation unrolls by 8 and recurses above 128 items.
    PAIRWISE_BLOCK = 128
    # Longest vector every supported numpy sums in a single pairwise call (the
    # default buffer of numpy < 2.3's reduction iterator); see the module notes.
    SINGLE_PAIRWISE_CALL = 8192
    # Probability vectors up to this length keep their cdf on the stack.
    STACK_CDF = 64
# Generator.choice accepts sums within sqrt(float64 eps) of one (or more, for p
# given in a lower float precision).
CHOICE_ATOL = sqrt(np.finfo(np.float64).eps)
# np.isclose defaults: atol + rtol * |1|.
cdef double ISCLOSE_TOLERANCE = 1e-08 + 1e-05 * 1.0


cdef double _pairwise_block(const double *a, npy_intp n) noexcept nogil:
    cdef double res, r0, r1, r2, r3, r4, r5, r6, r7
    cdef npy_intp i, n2
    if n < 8:
        res = -0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= PAIRWISE_BLOCK:
        r0 = a[0]; r1 = a[1]; r2 = a[2]; r3 = a[3]
        r4 = a[4]; r5 = a[5]; r6 = a[6]; r7 = a[7]
        i = 8
        while i < n - (n % 8):
            r0 += a[i]; r1 += a[i + 1]; r2 += a[i + 2]; r3 += a[i + 3]
            r4 += a[i + 4]; r5 += a[i + 5]; r6 += a[i + 6]; r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise_block(a, n2) + _pairwise_block(a + n2, n - n2)


cdef double pairwise_sum(const double *a, npy_intp n) noexcept nogil:
    """``np.sum`` of a contiguous float64 vector of at most ``SINGLE_PAIRWISE_CALL``
    items, bit for bit (longer ones: :func:`contiguous_sum`).

    The reduction starts from the identity +0.0, which turns a -0.0 total into +0.0.
    """
    return 0.0 + _pairwise_block(a, n)


cdef double contiguous_sum(cnp.ndarray values) except? -1.0:
    """``np.sum`` of a C-contiguous float64 array of any length, bit for bit."""
    cdef npy_intp n = cnp.PyArray_SIZE(values)
    if n <= SINGLE_PAIRWISE_CALL:
        return pairwise_sum(<double *> cnp.PyArray_DATA(values), n)
    # numpy's order for long vectors changed between versions: let numpy sum them.
    return _add_reduce(values, None)


cdef bint isclose_to_one(double value) noexcept nogil:
    """``np.isclose(value, 1)`` (NaN and infinities are not close)."""
    return fabs(value - 1.0) <= ISCLOSE_TOLERANCE


cdef double _kahan_sum(const double *a, npy_intp n) noexcept nogil:
    cdef double total = a[0]
    cdef double compensation = 0.0
    cdef double y, t
    cdef npy_intp i
    for i in range(1, n):
        y = a[i] - compensation
        t = total + y
        compensation = (t - total) - y
        total = t
    return total


cdef double choice_tolerance(object p) except -1.0:
    """Sum tolerance ``Generator.choice`` uses for ``p``: looser for float16/32 arrays."""
    if cnp.PyArray_Check(p):
        if cnp.PyArray_TYPE(<cnp.ndarray> p) == cnp.NPY_DOUBLE:
            return CHOICE_ATOL  # the common case, without numpy's finfo lookup
        if np.issubdtype(p.dtype, np.floating):
            return max(CHOICE_ATOL, sqrt(np.finfo(p.dtype).eps))
    return CHOICE_ATOL


cdef ChoiceCheck check_choice_probabilities(const double *p, npy_intp n, double atol) noexcept nogil:
    """The checks ``Generator.choice`` applies to ``p`` (``n`` must be >= 1)."""
    cdef double total = _kahan_sum(p, n)
    cdef npy_intp i
    if isnan(total):
        return CHOICE_NAN
    for i in range(n):
        if p[i] < 0:
            return CHOICE_NEGATIVE
    if fabs(total - 1.0) > atol:
        return CHOICE_NOT_NORMALISED
    return CHOICE_OK


cdef ChoiceCheck check_unit_probabilities(const double *p, npy_intp n, double atol,
                                          double pairwise_total) noexcept nogil:
    """:func:`check_choice_probabilities` for a ``p`` known to lie in [0, 1] whose
    ``np.sum`` is ``pairwise_total``.

    Such a ``p`` has no NaN and no negative entry, so only the Kahan sum's
    distance to one is left to decide, and that sum differs from the pairwise
    one by far less than ``atol / 2`` (both are within ``(2 log2 n + 40) eps``
    of the exact sum, whose magnitude is that of the total). Totals within
    ``atol / 2`` of one are therefore accepted without the serial Kahan pass;
    others get the exact check.
    """
    if fabs(pairwise_total - 1.0) <= 0.5 * atol and n < (<npy_intp> 1) << 40:
        return CHOICE_OK
    return check_choice_probabilities(p, n, atol)


cdef void cumulative_sum(const double *p, npy_intp n, double *cdf) noexcept nogil:
    """``cumsum(p)`` in numpy's sequential order (``n >= 1``)."""
    cdef double running = p[0]
    cdef npy_intp i
    cdf[0] = running
    for i in range(1, n):
        running = running + p[i]
        cdf[i] = running


cdef npy_intp search_right_normalised(const double *cdf, npy_intp n, double u) noexcept nogil:
    """:func:`search_right` over ``cdf / cdf[-1]`` without dividing every entry.

    Only the entries the bisection visits are divided, each exactly as numpy's
    in-place division does, and division by a positive total keeps the order,
    so the result is the same.
    """
    cdef npy_intp lo = 0
    cdef npy_intp hi = n
    cdef npy_intp mid
    cdef double last = cdf[n - 1]
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if cdf[mid] / last <= u:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef void normalised_cdf(const double *p, npy_intp n, double *cdf) noexcept nogil:
    """``cdf = cumsum(p); cdf /= cdf[-1]`` with numpy's sequential cumsum."""
    cdef double running = 0.0
    cdef double last
    cdef npy_intp i
    for i in range(n):
        running = running + p[i] if i else p[0]
        cdf[i] = running
    last = cdf[n - 1]
    for i in range(n):
        cdf[i] = cdf[i] / last


cdef npy_intp search_right(const double *cdf, npy_intp n, double u) noexcept nogil:
    """Number of entries of the non-decreasing ``cdf`` that are <= ``u``."""
    cdef npy_intp lo = 0
    cdef npy_intp hi = n
    cdef npy_intp mid
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if cdf[mid] <= u:
            lo = mid + 1
        else:
            hi = mid
    return lo


# The messages of Generator.choice's checks of ``p`` changed with numpy 2.0
# ("probabilities do not sum to 1" became "Probabilities do not sum to 1. See
# Notes section of docstring for more information.", and so on): they are read
# from the installed numpy the first time one is needed.
cdef dict _choice_messages = None
# A ``p`` that fails each check, in the order numpy checks.
_CHOICE_PROBES = ((CHOICE_NAN, [NAN]), (CHOICE_NEGATIVE, [-1.0, 2.0]),
                  (CHOICE_NOT_NORMALISED, [0.5]))
# numpy 2.x's words, kept should a probe not fail as expected.
_NUMPY2_CHOICE_MESSAGES = {
    CHOICE_NAN: "Probabilities contain NaN",
    CHOICE_NEGATIVE: "Probabilities are not non-negative",
    CHOICE_NOT_NORMALISED:
        "Probabilities do not sum to 1. See Notes section of docstring for more information.",
}


cdef dict _installed_choice_messages():
    """The message the installed numpy's ``Generator.choice`` gives for each failed check."""
    messages = dict(_NUMPY2_CHOICE_MESSAGES)
    generator = np.random.Generator(np.random.PCG64(0))
    for code, p in _CHOICE_PROBES:
        try:
            generator.choice(len(p), p=np.array(p, dtype=np.float64))
        except ValueError as exc:
            messages[code] = str(exc)
    return messages


cdef object choice_error(ChoiceCheck code):
    """The ``ValueError`` the installed numpy's ``Generator.choice`` raises for ``code``."""
    global _choice_messages
    if _choice_messages is None:
        _choice_messages = _installed_choice_messages()
    return ValueError(_choice_messages[code])


# ----------------------------------------------------------------------------
# choice(valid_indices) and choice(a, p=p), as Discrete and MultiDiscrete draw
# ----------------------------------------------------------------------------

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


cdef double probability_sum(object probability) except? -1.0:
    """``np.sum(p)`` of a validated float64 array, bit for bit."""
    return contiguous_sum(as_c_array(probability, cnp.NPY_DOUBLE))


cdef bint all_in_unit_interval(object probability):
    cdef cnp.ndarray p = as_c_array(probability, cnp.NPY_DOUBLE)
    cdef double *data = <double *> cnp.PyArray_DATA(p)
    cdef npy_intp i
    for i in range(cnp.PyArray_SIZE(p)):
        if not (0.0 <= data[i] <= 1.0):
            return False
    return True
