"""The one registry of what the kernels know of the Python side (see ``_registry.pxd``).

``REGISTRY`` is filled by :mod:`gymspaces._fill_registry` once ``import gymspaces``
has defined every class and rule, except the fields of the layers that load on
use: the shared-memory ones by :mod:`gymspaces.vector.shared_memory` (``import
gymspaces`` does not import multiprocessing), and the checked kernels' verdicts
by :mod:`gymspaces.gymnasium._judge`. The switches are kept by
:mod:`gymspaces._kernel_switches`; tests may flip them.
"""

cimport cython


@cython.auto_pickle(False)  # one instance, read by the kernels: never copied
cdef class Registry:
    """The space classes, Python helpers, alias table and switches the kernels read.

    Examples
    --------
    >>> import gymspaces
    >>> from gymspaces._registry import REGISTRY
    >>> REGISTRY.Box is gymspaces.Box, REGISTRY.flatten_enabled
    (True, True)
    """

    def __cinit__(self):
        self.aliases = {}
        self.node_reason = self.tree_reason = refused
        self.class_passes = class_refused


cdef object refused(object space):
    return "the checked kernels are not in use"


cdef bint class_refused(object space) except -1:
    return False


REGISTRY = Registry()
