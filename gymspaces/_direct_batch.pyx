"""Kernel of Tuple/Dict ``sample_batch`` without arguments: the children called directly.

When every child is a fundamental space (exact class) and no two of the
node's and children's generators are the same object, batching the children
one after another draws what ``n`` successive samples draw. This kernel makes
that check in one pass over the children and then calls each child's
``sample_batch(count)``, building the Dict's dict or the Tuple's tuple of
batches; anything else returns ``None`` before drawing, for the general path.
"""

from cpython.dict cimport PyDict_Next, PyDict_SetItem
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM

from gymspaces._attrs cimport attr, instance_dict
from gymspaces._registry cimport Registry, is_array_leaf

from gymspaces import _registry

cdef enum:
    # Trees with more children take the general path.
    MAX_CHILDREN = 64

# The fundamental space classes (see _registry.pxd).
cdef Registry registry = _registry.REGISTRY


cdef inline bint is_leaf(object child):
    """Whether ``child``'s exact class is a fundamental one: it holds no sub-space."""
    cdef type cls = type(child)
    return is_array_leaf(registry, cls) or cls is registry.Text


cdef bint distinct_generators(object space, tuple members):
    """Whether the generators set on ``space`` and ``members`` are distinct objects."""
    cdef PyObject *seen[MAX_CHILDREN + 1]
    cdef Py_ssize_t count = 0, i, j
    cdef object generator
    own = attr(instance_dict(space), space, "_np_random")
    if own is not None:
        seen[count] = <PyObject *> own
        count += 1
    for i in range(PyTuple_GET_SIZE(members)):
        child = <object> PyTuple_GET_ITEM(members, i)
        generator = attr(instance_dict(child), child, "_np_random")
        if generator is None:
            continue
        for j in range(count):
            if seen[j] == <PyObject *> generator:
                return False
        # Addresses, only compared: the children hold their generators; should code
        # run by an attribute lookup replace one, a reused address can only make
        # the answer False, which takes the general path.
        seen[count] = <PyObject *> generator
        count += 1
    return True


def sample_directly(space, children, count):
    """The dict (``children`` a dict) or tuple (``children`` a tuple) of the children's
    ``sample_batch(count)``, or ``None`` before any draw when the call is not this case."""
    cdef Py_ssize_t size, i, pos = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef tuple members, keys = None
    if type(children) is dict:
        size = len(<dict> children)
        if size > MAX_CHILDREN:
            return None
        members = PyTuple_New(size)
        keys = PyTuple_New(size)
        i = 0
        while PyDict_Next(<dict> children, &pos, &key, &value):
            Py_INCREF(<object> key)
            PyTuple_SET_ITEM(keys, i, <object> key)
            Py_INCREF(<object> value)
            PyTuple_SET_ITEM(members, i, <object> value)
            i += 1
    elif type(children) is tuple:
        members = <tuple> children
        size = PyTuple_GET_SIZE(members)
        if size > MAX_CHILDREN:
            return None
    else:
        return None
    # ``members`` and ``keys`` are tuples this call holds (built with owned
    # references, or the space's own tuple): their items outlive any code run below.
    for i in range(size):
        if not is_leaf(<object> PyTuple_GET_ITEM(members, i)):
            return None
    if not distinct_generators(space, members):
        return None
    cdef tuple batches = PyTuple_New(size)
    for i in range(size):
        batch = (<object> PyTuple_GET_ITEM(members, i)).sample_batch(count)
        Py_INCREF(batch)
        PyTuple_SET_ITEM(batches, i, batch)
    if keys is None:
        return batches
    cdef dict result = {}
    for i in range(size):
        PyDict_SetItem(result, <object> PyTuple_GET_ITEM(keys, i), <object> PyTuple_GET_ITEM(batches, i))
    return result
