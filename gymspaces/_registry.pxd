# What the kernels know of the Python side: the space classes they recognise,
# the Python helpers they hand undecided cases to, and the switches that keep a
# compiled path on only while the built-in rules it implements are registered.
#
# A kernel cannot import the modules that define these (they import the
# kernels), so they are handed over after the fact, into the one ``Registry``
# instance (``REGISTRY`` in _registry.pyx). Every kernel holds it in a typed
# module variable:
#
#     from gymspaces._registry cimport Registry
#     from gymspaces import _registry
#     cdef Registry registry = _registry.REGISTRY
#
# so reading a field is a C struct read, as cheap as the module globals it
# replaces. Until filled, classes and helpers are None and switches off.

from cpython.object cimport PyObject

from gymspaces._attrs cimport PyDict_GetItemWithError

# A checked kernel's question about a space: why it may not run compiled, or None.
ctypedef object (*Verdict)(object)
# Whether the space's class may, as far as the class goes.
ctypedef bint (*ClassVerdict)(object) except -1


cdef class Registry:
    # The space classes, recognised by exact type (a user subclass may behave
    # differently; patched Gymnasium classes go through ``aliases``). Typed object,
    # not type: Cython's ``type`` takes no metaclass instance (Tuple's is ABCMeta).
    cdef public object Space, Box, Discrete, MultiDiscrete, MultiBinary, Text, Tuple, Dict
    cdef public object Sequence, Graph, OneOf
    # Space's own members: ``x in space`` calls ``contains`` while ``__contains__``
    # is this one; ``shape`` returns ``_shape`` while it is this property.
    cdef public object space_contains, space_shape
    # gymspaces' Python code for the cases a kernel leaves undecided.
    cdef public object box_sample_with_numpy, box_contains_with_numpy
    cdef public object discrete_contains_general
    cdef public object multi_discrete_sample_masked, multi_discrete_contains_general
    # Built-in methods a composite kernel may stand in for when a child has them.
    cdef public object box_contains_batch, discrete_contains_batch, multi_discrete_contains_batch
    cdef public object box_to_jsonable, discrete_to_jsonable, multi_discrete_to_jsonable
    # The dispatchers the compiled flatten/unflatten entries defer to.
    cdef public object flatten, unflatten
    # The shared-memory kernel's memory leaf classes (multiprocessing's
    # synchronized Array, gymspaces' single-buffer slice) and the Python rules
    # it hands a leaf or Tuple node it does not cover to.
    cdef public object SynchronizedArray, SharedSlice
    cdef public object write_shared_leaf, write_shared_tuple, read_shared_leaf
    # The questions of the checked kernels (``*_checked`` in _flatten and
    # _shared_memory, run only by the Gymnasium layer): why a node, or a whole
    # tree, may not run compiled, and whether a node's class may. Answered by
    # the Gymnasium layer's judges once it loads; until then, every space is
    # refused.
    cdef Verdict node_reason, tree_reason
    cdef ClassVerdict class_passes
    # Compatible subclass -> gymspaces class whose rules it follows; the dict of
    # gymspaces._kernel_switches, only ever updated in place.
    cdef readonly dict aliases
    # Each compiled path is on only while every built-in rule it implements is
    # the registered one (gymspaces._kernel_switches.compiled_while_built_in).
    cdef public bint flatten_enabled, concatenate_enabled, iterate_enabled, shared_memory_enabled


cdef inline bint is_array_leaf(Registry registry, type cls) noexcept:
    """Whether ``cls`` is a fixed-shape leaf: Box, Discrete, MultiDiscrete or MultiBinary."""
    return (cls is registry.Box or cls is registry.Discrete or cls is registry.MultiDiscrete
            or cls is registry.MultiBinary)


cdef inline type space_class(Registry registry, object space):
    """The class whose built-in rules ``space`` follows: ``type(space)``, or the
    gymspaces class an alias stands for (gymspaces._kernel_switches).

    Tuple, Dict and the array leaves answer at once; any other class is looked
    up in the aliases, which are empty unless Gymnasium is patched.
    """
    cdef type cls = type(space)
    cdef PyObject *base
    if cls is registry.Dict or cls is registry.Tuple or is_array_leaf(registry, cls):
        return cls
    if registry.aliases:
        base = PyDict_GetItemWithError(registry.aliases, cls)
        if base != NULL:
            return <type> base  # borrowed, owned as it is returned
    return cls


cdef inline type kind_of(Registry registry, object space):
    """The gymspaces class whose rules ``space`` follows, a subclass of a
    patched Gymnasium class included: ``space_class``, else the alias of the
    nearest class in its MRO that has one (the patch-mode checks that walk a
    judged tree; their judges have already admitted any subclass)."""
    cdef type cls = space_class(registry, space)
    cdef PyObject *base
    if cls is not type(space) or not registry.aliases:
        return cls
    for klass in cls.__mro__:
        base = PyDict_GetItemWithError(registry.aliases, klass)
        if base != NULL:
            return <type> base
    return cls
