# MultiDiscrete's plain fill, shared with Discrete's kernel: the sample of
# ``batch_space(Discrete(n))`` is a MultiDiscrete sample.

cimport numpy as cnp
from numpy cimport npy_intp
from numpy.random cimport bitgen_t

from gymspaces._rng cimport gs_pcg128_t

cdef void multi_discrete_fill(bitgen_t *bitgen, gs_pcg128_t *pcg, cnp.ndarray out, cnp.ndarray nvec,
                              cnp.ndarray start, npy_intp size, char kind, int itemsize,
                              npy_intp reps=*) noexcept nogil
