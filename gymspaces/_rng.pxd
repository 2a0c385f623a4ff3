cimport numpy as cnp
from libc.stdint cimport uint64_t
from numpy.random cimport bitgen_t

cdef extern from "Python.h":
    ctypedef struct PyInterpreterState:
        pass
    ctypedef struct PyThreadState:
        pass
    PyInterpreterState *PyInterpreterState_Get()
    PyThreadState *PyInterpreterState_ThreadHead(PyInterpreterState *interp)
    PyThreadState *PyThreadState_Next(PyThreadState *tstate)


cdef inline bint only_python_thread() noexcept:
    """Whether this thread is the interpreter's only thread state.

    Then, while the caller holds the GIL, no other thread can be drawing from
    a bit generator (drawing needs a thread state) or holding its lock, so a
    draw that keeps the GIL throughout cannot race with anyone.
    """
    return PyThreadState_Next(PyInterpreterState_ThreadHead(PyInterpreterState_Get())) == NULL


cdef class RNGHandle:
    """C view of a space's ``numpy.random.Generator``: its ``bitgen_t*`` and lock.

    One handle is cached per space. Besides the generator view it keeps a few
    slots in which a kernel may cache parameters it derived from the space's
    attributes, keyed by the identity of the (immutable) attribute objects.
    """
    cdef readonly object generator
    cdef object bit_generator  # keeps the bitgen_t's memory alive
    cdef readonly object lock
    cdef object _acquire
    cdef object _release
    cdef bitgen_t *bitgen
    # Parameter cache for kernels (see discrete_sample).
    cdef object key_a
    cdef object key_b
    cdef object key_c
    cdef uint64_t value_a
    cdef uint64_t value_b
    cdef cnp.dtype descr
    cdef tuple results

    cdef inline int acquire(self) except -1:
        """Take the bit generator's lock (always: use before releasing the GIL)."""
        self._acquire()
        return 0

    cdef inline int release(self) except -1:
        self._release()
        return 0

    cdef inline bint acquire_shared(self) except -1:
        """Take the lock for a draw that keeps the GIL; ``False`` if no other
        Python thread exists, in which case taking it is unnecessary."""
        if only_python_thread():
            return False
        self._acquire()
        return True

    cdef inline int release_shared(self, bint locked) except -1:
        if locked:
            self._release()
        return 0


cdef RNGHandle rng_handle(object space)
cdef RNGHandle rng_handle_from(dict namespace, object space)
