from numpy.random cimport bitgen_t


cdef class RNGHandle:
    """C view of one ``numpy.random.Generator``: its ``bitgen_t*`` and lock."""
    cdef readonly object generator
    cdef object bit_generator  # keeps the bitgen_t's memory alive
    cdef readonly object lock
    cdef bitgen_t *bitgen


cdef RNGHandle rng_handle(object space)
cdef RNGHandle handle_for_generator(object generator)
