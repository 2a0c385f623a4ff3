"""Python access to kernel internals, for tests and diagnostics.

Nothing in the package imports this module (as numpy's ``_multiarray_tests``
serves numpy's tests): each function reads, or runs once, one thing a kernel
keeps in C, so that tests can check it directly.
"""

cimport numpy as cnp
import numpy as np

from gymspaces._attrs cimport instance_dict
from gymspaces._categorical cimport (
    CHOICE_ATOL, CHOICE_OK, ChoiceCheck, check_choice_probabilities, choice_error, contiguous_sum,
)
from gymspaces._rng cimport (
    FOREIGN_CACHES, RNGHandle, cache_namespace, gs_pcg128_t, gs_pcg64_fill_raw,
    gs_pcg64_next_double,
)
from libc.stdint cimport uint64_t

cnp.import_array()


def np_sum(double[::1] values):
    """The sum the kernels compute for a probability vector: the installed numpy's ``np.sum``, bit for bit."""
    return contiguous_sum(np.asarray(values)) if values.shape[0] else 0.0


def choice_check(double[::1] p):
    """The error ``Generator.choice`` would raise for ``p``, or ``None``."""
    cdef ChoiceCheck code = check_choice_probabilities(&p[0], p.shape[0], CHOICE_ATOL)
    return None if code == CHOICE_OK else choice_error(code)


def foreign_cache_count():
    """How many spaces other than gymspaces' own have kernel caches (they must not outlive them)."""
    return len(FOREIGN_CACHES)


def kernel_cache_of(space):
    """The dict where the kernels cache what they derive from ``space``."""
    return cache_namespace(space, instance_dict(space))


def generator_handle(generator):
    """The kernels' handle of ``generator``."""
    return RNGHandle(generator)


cdef gs_pcg128_t *inline_state(object generator) except NULL:
    """The LCG state that kernels draw inline from, for ``generator`` (a PCG64 Generator)."""
    cdef RNGHandle handle = RNGHandle(generator)
    if not handle.uses_inline_pcg64:
        raise ValueError("the inline PCG64 path is off, or this is no numpy.random.PCG64")
    return handle.pcg


def inline_pcg64_fill(generator, counts):
    """Raw 64-bit draws of the four-lane fill (``gs_pcg64_fill_raw``), one call per
    count in ``counts``, concatenated; ``generator`` advances as numpy's would."""
    cdef gs_pcg128_t *pcg = inline_state(generator)
    cdef Py_ssize_t count
    drawn = np.empty(sum(counts), dtype=np.uint64)
    cdef uint64_t *out = <uint64_t *> cnp.PyArray_DATA(drawn)
    with generator.bit_generator.lock:
        for count in counts:
            gs_pcg64_fill_raw(pcg, out, count)
            out += count
    return drawn


def inline_pcg64_doubles(generator, Py_ssize_t n):
    """``n`` doubles drawn one at a time by ``gs_pcg64_next_double`` (the serial step)."""
    cdef gs_pcg128_t *pcg = inline_state(generator)
    cdef Py_ssize_t i
    drawn = np.empty(n, dtype=np.float64)
    cdef double[::1] out = drawn
    with generator.bit_generator.lock:
        for i in range(n):
            out[i] = gs_pcg64_next_double(pcg)
    return drawn
