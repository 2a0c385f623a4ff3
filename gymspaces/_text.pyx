"""Kernel of Text sampling.

Gymnasium draws the length with ``integers(min_length, max_length + 1)`` and
the characters with ``choice(character_list, size=length, p=p)``: numpy's
validation of ``p``, ``cumsum(p) / cumsum(p)[-1]`` and one ``next_double`` per
character mapped through that cdf -- even when ``p`` is uniform.
"""

cimport numpy as cnp
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_4BYTE_KIND
from libc.stdint cimport int64_t, uint64_t
from numpy cimport npy_intp

from gymspaces._categorical cimport (
    CHOICE_ATOL, CHOICE_OK, ChoiceCheck, check_choice_probabilities, choice_error, choice_tolerance,
    normalised_cdf, search_right,
)
from gymspaces._distributions cimport random_bounded_uint64_fill, random_standard_uniform
from gymspaces._attrs cimport instance_dict
from gymspaces._rng cimport RNGHandle, cache_namespace, rng_handle

import operator

import numpy as np

cnp.import_array()

cdef str CACHE_ATTR = "_kernel_cache"


cdef class CharTable:
    """Code points of a Text space's characters and its uniform cdf, cached per space."""
    cdef readonly tuple chars
    cdef cnp.ndarray code_points  # uint32 (UCS4), one per character, sampling order
    cdef cnp.ndarray uniform_cdf  # cdf of np.ones(k) / k
    cdef ChoiceCheck uniform_check

    def __cinit__(self, tuple chars):
        cdef npy_intp k = len(chars)
        self.chars = chars
        self.code_points = np.array([ord(c) for c in chars], dtype=np.uint32)
        self.uniform_cdf = np.empty(k, dtype=np.float64)
        self.uniform_check = CHOICE_OK
        if k:
            uniform = np.ones(k) / k
            self.uniform_check = check_choice_probabilities(
                <double *> cnp.PyArray_DATA(uniform), k, CHOICE_ATOL)
            normalised_cdf(<double *> cnp.PyArray_DATA(uniform), k,
                           <double *> cnp.PyArray_DATA(self.uniform_cdf))

    def __reduce__(self):
        # A cache, rebuilt on first use: copies and pickles hold None (see RNGHandle).
        return (type(None), ())


cdef CharTable char_table(space):
    chars = space._char_list
    cache = cache_namespace(space, instance_dict(space))
    cached = cache.get(CACHE_ATTR)
    if type(cached) is CharTable and (<CharTable> cached).chars is chars:
        return <CharTable> cached
    table = CharTable(tuple(chars))
    cache[CACHE_ATTR] = table
    return table


def text_sample(space, length=None, weights=None):
    """Sample a string of a :class:`~gymspaces.Text` space.

    Parameters
    ----------
    length : int or None
        Requested length (already validated); ``None`` draws it uniformly.
    weights : array_like of float or None
        Per-character weights, already normalised as Gymnasium does; ``None``
        means uniform over the charset.
    """
    cdef RNGHandle handle = rng_handle(space)
    cdef CharTable table = char_table(space)
    min_length = space.min_length  # a Python int: Text lengths are unbounded
    max_length = space.max_length
    cdef uint64_t drawn
    cdef npy_intp k = cnp.PyArray_DIM(table.code_points, 0)
    cdef npy_intp count = 0, i
    cdef cnp.ndarray cdf, p, out
    cdef ChoiceCheck code
    cdef double atol
    cdef bint locked
    cdef const double *c
    cdef const unsigned int *points
    cdef unsigned int *chars_out
    if length is None:
        if max_length >= 2**63:
            # Beyond int64: numpy's integers() raises "high is out of bounds for int64".
            space.np_random.integers(min_length, max_length + 1)
        locked = handle.lock_draws(False)
        try:
            random_bounded_uint64_fill(handle.bitgen, <uint64_t> min_length,
                                       <uint64_t> (max_length - min_length), 1, False, &drawn)
        finally:
            handle.unlock_draws(locked)
        count = <int64_t> drawn
    if weights is None:
        if k == 0:
            return _all_zero(min_length)
        code = table.uniform_check
        cdf = table.uniform_cdf
    else:
        atol = choice_tolerance(weights)
        p = cnp.PyArray_FROMANY(weights, cnp.NPY_DOUBLE, 0, 0,
                                cnp.NPY_ARRAY_ALIGNED | cnp.NPY_ARRAY_C_CONTIGUOUS)
        if not np.any(p != 0):
            return _all_zero(min_length)
        if cnp.PyArray_NDIM(p) != 1:
            raise ValueError("p must be 1-dimensional")
        if cnp.PyArray_DIM(p, 0) != k:
            raise ValueError("a and p must have same size")
        code = check_choice_probabilities(<double *> cnp.PyArray_DATA(p), k, atol)
        cdf = np.empty(k, dtype=np.float64)
        if code == CHOICE_OK:
            normalised_cdf(<double *> cnp.PyArray_DATA(p), k, <double *> cnp.PyArray_DATA(cdf))
    if code != CHOICE_OK:
        raise choice_error(code)
    if length is not None:
        # numpy converts ``size`` only when it draws, after validating ``p``.
        try:
            count = operator.index(length)
        except TypeError:
            raise TypeError(
                f"expected a sequence of integers or a single integer, got '{length}'") from None
    if count < 0:
        raise ValueError("negative dimensions are not allowed")
    out = cnp.PyArray_EMPTY(1, &count, cnp.NPY_UINT32, 0)
    c = <const double *> cnp.PyArray_DATA(cdf)
    points = <const unsigned int *> cnp.PyArray_DATA(table.code_points)
    chars_out = <unsigned int *> cnp.PyArray_DATA(out)
    cdef npy_intp written = 0
    cdef unsigned int point
    locked = handle.lock_draws(False)
    try:
        for i in range(count):
            point = points[search_right(c, k, random_standard_uniform(handle.bitgen))]
            # numpy's fixed-width strings drop trailing NULs, so Gymnasium's
            # ''.join(choice(...)) never contains a NUL character.
            if point != 0:
                chars_out[written] = point
                written += 1
    finally:
        handle.unlock_draws(locked)
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars_out, written)


cdef str _all_zero(min_length):
    if min_length == 0:
        return ""
    raise ValueError(
        f"Trying to sample with a minimum length > 0 (actual minimum length={min_length}) "
        "but the character mask is all zero meaning that no character could be sampled."
    )
