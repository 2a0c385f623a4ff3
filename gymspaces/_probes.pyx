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
from gymspaces._rng cimport FOREIGN_CACHES, PCG64_INLINE_VERIFIED, RNGHandle, cache_namespace

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


def inline_pcg64_enabled():
    """Whether kernels draw PCG64 values inline (see ``gs_pcg64_next64``)."""
    return bool(PCG64_INLINE_VERIFIED)
