# Box membership in C, shared with the tree walk of ``_contains.pyx``.

from numpy cimport npy_bool, npy_intp

cdef object space_shape(space, dict namespace)
cdef object box_contains_same_dtype(space, x)
cdef int box_rows_contained(space, object batch, npy_bool *out, npy_intp n) except -1
