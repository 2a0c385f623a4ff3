# Classes that follow another class's built-in rules.
#
# The compatible spaces of ``gymspaces.gymnasium.spaces`` derive from the
# gymspaces classes and flatten, concatenate and iterate exactly like them.
# Kernels recognise spaces by exact class (a user subclass may behave
# differently), so they map a registered alias to its base class first.
# ``gymspaces.utils`` keeps the table: an alias is only listed while every
# dispatcher resolves it to its base class's rule.

from cpython.object cimport PyObject

from gymspaces._attrs cimport PyDict_GetItemWithError


cdef inline type rule_class(object space, dict aliases):
    """The class whose built-in rules ``space`` follows: its own, or its alias's base.

    Kernels call it once they know ``type(space)`` is none of their own
    classes, so plain gymspaces spaces never pay for the lookup.
    """
    cdef type cls = type(space)
    cdef PyObject *base
    if aliases:  # empty unless gymspaces.gymnasium is imported
        base = PyDict_GetItemWithError(aliases, cls)
        if base != NULL:
            return <type> base  # borrowed, owned as it is returned
    return cls
