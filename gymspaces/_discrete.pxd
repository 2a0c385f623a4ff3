# Discrete membership in C, shared with the tree walk of ``_contains.pyx``.

from numpy cimport npy_bool, npy_intp

cdef object discrete_contains_scalar(space, x)
cdef int discrete_rows_contained(space, object batch, npy_bool *out, npy_intp n) except -1
