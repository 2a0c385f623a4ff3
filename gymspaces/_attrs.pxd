# Fast reads of a space's instance attributes.
#
# Kernels read the space's attributes on every call (Gymnasium reads them
# live, so in-place edits and reassignment must take effect). Looking a key up
# in the instance ``__dict__`` skips the type-attribute search that getattr()
# does first; anything not found there (a property, a slot) goes through
# getattr(), so a read gives what ``space.name`` gives.
#
# The lookups below return borrowed references. A kernel owns one (assigns
# it to an object variable) before anything that can run Python code -- a
# call, a decref, an allocation that may start a garbage collection -- or
# only compares its address; each use says which.

from cpython.object cimport PyObject, PyTypeObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE

cdef extern from "Python.h":
    object PyObject_GenericGetDict(object obj, void *context)
    # Borrowed reference or NULL; unlike PyDict_GetItem it does not save and
    # restore the error state, which is most of a lookup's cost.
    PyObject *PyDict_GetItemWithError(object namespace, object key) except? NULL
    # Borrowed, or NULL without an exception: the attribute as the class defines it
    # (its MRO, no descriptor call). CPython-private but what Cython's generated
    # code itself calls; no public call does the same lookup without the
    # metaclass search and descriptor binding of getattr(type, name).
    PyObject *_PyType_Lookup(PyTypeObject *cls, PyObject *name)


cdef inline dict instance_dict(object obj):
    try:
        return PyObject_GenericGetDict(obj, NULL)
    except AttributeError:
        return None


cdef inline object attr(dict namespace, object obj, str name):
    cdef PyObject *found
    if namespace is not None:
        found = PyDict_GetItemWithError(namespace, name)
        if found != NULL:
            return <object> found  # owned as it is returned: nothing runs in between
    return getattr(obj, name)


# Entries of samples, for kernels that read one column of a batch of samples
# (a Dict's key, a Tuple's position) without building it as a list first.
cdef inline PyObject *sample_item(object sample, object key, Py_ssize_t index, bint by_key) except? NULL:
    """Borrowed ``sample[key]`` of an exact dict (``by_key``), else ``sample[index]``
    of an exact tuple; ``NULL`` (no exception) when ``sample`` is neither or lacks
    the entry, which callers leave to the generic ``sample[...]`` and its errors.
    Callers own the entry before anything else runs."""
    if by_key:
        if type(sample) is not dict:
            return NULL
        return PyDict_GetItemWithError(sample, key)
    if type(sample) is not tuple or PyTuple_GET_SIZE(sample) <= index:
        return NULL
    return PyTuple_GET_ITEM(sample, index)


cdef inline size_t address_slot(const void *address, int bits) noexcept:
    """The slot of ``address`` in a direct-mapped table of ``2 ** bits`` slots keyed
    by objects' addresses (Fibonacci hashing of the address, its alignment bits dropped)."""
    return ((<size_t> address >> 4) * <size_t> 0x9E3779B97F4A7C15ULL) >> (8 * sizeof(size_t) - bits)
