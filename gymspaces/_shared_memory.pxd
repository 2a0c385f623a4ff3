# The checked kernels of shared memory, called in C by patch mode's rules (gymspaces/gymnasium/_calls.pyx).
cpdef bint write_checked(space, index, value, shared_memory) except -1
cpdef object read_checked(space, shared_memory, n)
cpdef bint write_may_warn(space, value) except -1
