# Declarations of numpy's C random routines used by the kernels.
#
# ``c_distributions.pxd`` leaves out the bounded integer fills, so every routine
# is declared here from ``numpy/random/distributions.h`` (shipped with numpy's
# headers; implemented in the static ``libnpyrandom``).

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from numpy cimport npy_intp
from numpy.random cimport bitgen_t

cdef extern from "numpy/random/distributions.h" nogil:
    double random_standard_uniform(bitgen_t *bitgen_state)
    void random_standard_uniform_fill(bitgen_t *bitgen_state, npy_intp cnt, double *out)
    double random_normal(bitgen_t *bitgen_state, double loc, double scale)
    double random_exponential(bitgen_t *bitgen_state, double scale)
    double random_uniform(bitgen_t *bitgen_state, double lower, double range)
    int64_t random_geometric(bitgen_t *bitgen_state, double p)

    void random_bounded_uint64_fill(bitgen_t *bitgen_state, uint64_t off, uint64_t rng,
                                    npy_intp cnt, bint use_masked, uint64_t *out)
    void random_bounded_uint32_fill(bitgen_t *bitgen_state, uint32_t off, uint32_t rng,
                                    npy_intp cnt, bint use_masked, uint32_t *out)
    void random_bounded_uint16_fill(bitgen_t *bitgen_state, uint16_t off, uint16_t rng,
                                    npy_intp cnt, bint use_masked, uint16_t *out)
    void random_bounded_uint8_fill(bitgen_t *bitgen_state, uint8_t off, uint8_t rng,
                                   npy_intp cnt, bint use_masked, uint8_t *out)

cdef extern from "numpy/halffloat.h" nogil:
    ctypedef uint16_t npy_half
    npy_half npy_double_to_half(double d)
