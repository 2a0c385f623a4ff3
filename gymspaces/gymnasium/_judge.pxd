# The verdicts of patch mode (see _judge.pyx), for compiled callers: patch
# mode's entries ask a class's Judge of each call, and a checked kernel asks
# the registry's ``node_reason`` (this module's) of each node
# it visits instead of walking the tree a second time beforehand.

cdef class Judge:
    cdef readonly object base
    # Watches no sub-space attribute: its spaces are leaves of a tree.
    cdef readonly bint leaf
    cdef tuple watched
    cdef object judge_class
    cdef object validate
    cdef dict class_verdicts
    # Direct-mapped memo of sound combinations: slot -> tuple of the watched
    # objects (strong references, so no other object can take their place).
    cdef list memo
    cdef dict sound  # ids of a sound combination's objects -> those objects (kept alive)

    cdef object class_reason(self, cls)
    cpdef object reason(self, space)


cpdef object node_reason(space)
cpdef object tree_reason(space)
