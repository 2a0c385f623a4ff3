# MultiDiscrete's unmasked fill, shared with Discrete's kernel: the sample of
# ``batch_space(Discrete(n))`` is a MultiDiscrete sample.

cimport numpy as cnp
from numpy cimport npy_bool, npy_intp
from numpy.random cimport bitgen_t

from gymspaces._dtypes cimport Element
from gymspaces._rng cimport gs_pcg128_t

cdef int multi_discrete_fill(bitgen_t *bitgen, gs_pcg128_t *pcg, cnp.ndarray out, cnp.ndarray nvec,
                             cnp.ndarray start, npy_intp size, Element element, npy_intp reps=*) noexcept nogil

# Membership in C, shared with the tree walk of ``_contains.pyx``.
cdef object multi_discrete_contains_array(space, x)
cdef int multi_discrete_rows_contained(space, object batch, npy_bool *out, npy_intp n) except -1
