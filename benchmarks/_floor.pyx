# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Compiled lower bounds for the benchmark cases (the suite's ``floor`` column).

A :class:`Floor` does, in one compiled call, the least work any implementation
of a case must do: the same number of bit-generator draws, one read of every
input leaf, and the creation of output objects shaped like the case's result
(numpy's C constructors for arrays, views and scalars; CPython's for dicts,
tuples, lists, strings and numbers). It checks nothing and dispatches on
nothing, so it is a bound to measure against, not a way to compute anything.
"""

cimport numpy as cnp
from cpython.object cimport PyObject, PyTypeObject
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy
from numpy cimport npy_intp
from numpy.random cimport bitgen_t

from gymspaces._rng cimport RNGHandle, gs_pcg128_t, gs_pcg64_fill_raw

cnp.import_array()

cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    object PyLong_FromLongLong(long long value)
    object PyFloat_FromDouble(double value)
    void *PyUnicode_DATA(object text)
    int PyDict_Next(object mapping, Py_ssize_t *position, PyObject **key, PyObject **value)

cdef extern from "numpy/arrayobject.h":
    # Steals the reference to ``descr``.
    object PyArray_NewFromDescr(PyTypeObject *subtype, cnp.PyArray_Descr *descr, int nd,
                                npy_intp *dims, npy_intp *strides, void *data, int flags, PyObject *obj)
    object PyArray_Scalar(void *data, cnp.PyArray_Descr *descr, object base)
    object PyArray_NewLikeArray(cnp.ndarray prototype, cnp.NPY_ORDER order, cnp.PyArray_Descr *descr, int subok)


cdef enum:
    BLOCK = 256  # draws made at a time: the block stays in L1


cdef struct Stream:
    bitgen_t *bitgen
    gs_pcg128_t *pcg      # the PCG64 state, drawn inline four lanes at a time, or NULL
    npy_intp remaining    # draws still owed
    uint64_t last         # the latest word, reused once the draws are spent
    int position          # next unread word of ``block``
    int filled
    uint64_t block[BLOCK]


cdef inline void refill(Stream *stream) noexcept nogil:
    """Make the next block of draws, the fastest way this machine knows (gymspaces' own)."""
    cdef int n = <int> (BLOCK if stream.remaining > BLOCK else stream.remaining)
    cdef int i
    if stream.pcg != NULL:
        gs_pcg64_fill_raw(stream.pcg, stream.block, n)
    else:
        for i in range(n):
            stream.block[i] = stream.bitgen.next_uint64(stream.bitgen.state)
    stream.remaining -= n
    stream.position = 0
    stream.filled = n


cdef inline uint64_t next_word(Stream *stream) noexcept nogil:
    """The next draw while any is owed, else the last word again (outputs may outnumber draws)."""
    if stream.position == stream.filled:
        if stream.remaining == 0:
            return stream.last
        refill(stream)
    stream.last ^= stream.block[stream.position]
    stream.position += 1
    return stream.last


cdef inline void fill(char *data, npy_intp nbytes, Stream *stream) noexcept nogil:
    cdef npy_intp i
    cdef uint64_t word
    for i in range(0, nbytes - 7, 8):
        word = next_word(stream)
        memcpy(data + i, &word, 8)
    i = nbytes - nbytes % 8
    if i < nbytes:
        word = next_word(stream)
        memcpy(data + i, &word, nbytes - i)


cdef uint64_t read(object value) except? 0:
    """Touch every byte of the input leaves once (what any implementation must at least read)."""
    cdef uint64_t total = 0
    cdef uint64_t word
    cdef npy_intp i, nbytes
    cdef char *data
    cdef Py_ssize_t position = 0
    cdef PyObject *key
    cdef PyObject *item
    if isinstance(value, cnp.ndarray):
        if not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> value):
            raise TypeError("floor inputs must be C-contiguous arrays")
        data = <char *> cnp.PyArray_DATA(<cnp.ndarray> value)
        nbytes = cnp.PyArray_NBYTES(<cnp.ndarray> value)
        for i in range(0, nbytes - 7, 8):
            memcpy(&word, data + i, 8)
            total += word
        for i in range(nbytes - nbytes % 8, nbytes):
            total += <uint8_t> data[i]
        return total
    if type(value) is dict:
        # Borrowed items: reading them runs no Python code and allocates nothing
        # (only the TypeError of a non-contiguous array, which ends the walk).
        while PyDict_Next(value, &position, &key, &item):
            total += read(<object> item)
        return total
    if type(value) is list:
        for i in range(len(<list> value)):
            total += read((<list> value)[i])
        return total
    if type(value) is tuple:
        for i in range(len(<tuple> value)):
            total += read((<tuple> value)[i])
        return total
    return <uint64_t> <Py_ssize_t> <PyObject *> value  # a scalar or number: its address stands for it


# What a plan node builds.
cdef enum Kind:
    NEW_ARRAY   # an array owning its data: allocated and filled
    VIEW        # a view: a new array header over existing data
    SCALAR      # a numpy scalar
    MAPPING     # a dict
    LIST
    TUPLE       # a tuple, or a tuple subclass such as a named tuple
    FLOAT
    INTEGER
    TEXT
    CONSTANT    # None or a bool: returned as is


cdef class Node:
    """One object of the result, with what building it needs resolved in advance."""

    cdef Kind kind
    cdef object template
    cdef cnp.dtype descr
    cdef type cls
    cdef tuple keys
    cdef list children
    cdef Py_ssize_t length
    cdef long long value
    cdef bint numbers_only  # a list or tuple of floats and ints: built in one loop


cdef Node plan(object template):
    """Resolve a template once, so that each call only creates objects."""
    cdef Node node = Node()
    cdef type cls = type(template)
    node.template = template
    node.cls = cls
    if cls is cnp.ndarray:
        node.descr = template.dtype
        owns = cnp.PyArray_CHKFLAGS(<cnp.ndarray> template, cnp.NPY_ARRAY_OWNDATA)
        node.kind = NEW_ARRAY if owns else VIEW
    elif cls is dict:
        node.kind = MAPPING
        node.keys = tuple(template)
        node.children = [plan(value) for value in template.values()]
    elif cls is list or isinstance(template, tuple):
        node.kind = LIST if cls is list else TUPLE
        node.children = [plan(value) for value in template]
        node.numbers_only = all((<Node> child).kind in (FLOAT, INTEGER) for child in node.children)
    elif isinstance(template, cnp.generic):
        node.kind = SCALAR
        node.descr = template.dtype
        if node.descr.itemsize > 32:
            raise TypeError("no floor for scalars wider than 32 bytes")
    elif cls is float:
        node.kind = FLOAT
    elif cls is int:
        node.kind = INTEGER
        node.value = template  # OverflowError for integers no floor needs
    elif cls is str:
        node.kind = TEXT
        node.length = len(template)
    elif template is None or cls is bool:
        node.kind = CONSTANT
    else:
        raise TypeError(f"no floor for outputs of type {cls.__name__}")
    return node


cdef inline object number(Node node, Stream *stream):
    """A Python float from the draw stream, or the result's own integer (small ones are shared)."""
    if node.kind == FLOAT:
        return PyFloat_FromDouble(<double> (next_word(stream) >> 11) * (1.0 / 9007199254740992.0))
    return PyLong_FromLongLong(node.value)


cdef object build(Node node, Stream *stream):
    """A new object like the node's template, its bytes taken from the draw stream."""
    cdef cnp.ndarray array
    cdef cnp.ndarray result
    cdef Py_ssize_t i, n
    cdef uint64_t words[4]
    cdef uint8_t *chars
    cdef dict mapping
    cdef list items
    cdef tuple parts
    cdef object item
    cdef object text
    cdef Kind kind = node.kind
    if kind == NEW_ARRAY:
        result = PyArray_NewLikeArray(<cnp.ndarray> node.template, cnp.NPY_CORDER, NULL, 0)
        fill(<char *> cnp.PyArray_DATA(result), cnp.PyArray_NBYTES(result), stream)
        return result
    if kind == VIEW:
        array = <cnp.ndarray> node.template
        Py_INCREF(node.descr)  # PyArray_NewFromDescr steals it
        result = PyArray_NewFromDescr(
            <PyTypeObject *> cnp.ndarray, <cnp.PyArray_Descr *> node.descr, cnp.PyArray_NDIM(array),
            cnp.PyArray_DIMS(array), cnp.PyArray_STRIDES(array), cnp.PyArray_DATA(array),
            cnp.PyArray_FLAGS(array), NULL,
        )
        cnp.set_array_base(result, array)
        return result
    if kind == SCALAR:
        for i in range(4):  # complex and long double scalars take several words
            words[i] = next_word(stream) if 8 * i < node.descr.itemsize else 0
        return PyArray_Scalar(words, <cnp.PyArray_Descr *> node.descr, None)
    if kind == MAPPING:
        mapping = {}
        for i in range(len(node.keys)):
            mapping[node.keys[i]] = build(<Node> node.children[i], stream)
        return mapping
    if kind == LIST:
        n = len(node.children)
        items = PyList_New(n)
        for i in range(n):
            item = number(<Node> node.children[i], stream) if node.numbers_only else build(<Node> node.children[i], stream)
            Py_INCREF(item)  # PyList_SET_ITEM steals a reference
            PyList_SET_ITEM(items, i, item)
        return items
    if kind == TUPLE:
        n = len(node.children)
        parts = PyTuple_New(n)
        for i in range(n):
            item = build(<Node> node.children[i], stream)
            Py_INCREF(item)
            PyTuple_SET_ITEM(parts, i, item)
        return parts if node.cls is tuple else tuple.__new__(node.cls, parts)
    if kind == FLOAT or kind == INTEGER:
        # Integers keep the result's own value: small ones are CPython's shared
        # objects, free to return, and a floor must not pay for allocating them.
        return number(node, stream)
    if kind == TEXT:
        text = PyUnicode_New(node.length, 127)
        chars = <uint8_t *> PyUnicode_DATA(text)
        fill(<char *> chars, node.length, stream)
        for i in range(node.length):  # printable ASCII, like a Text sample
            chars[i] = 97 + chars[i] % 26
        return text
    return node.template


cdef void write_into(object target, Stream *stream) except *:
    """Overwrite the bytes of every array of ``target`` in place (an ``out=`` result)."""
    cdef Py_ssize_t position = 0
    cdef PyObject *key
    cdef PyObject *item
    if isinstance(target, cnp.ndarray):
        fill(<char *> cnp.PyArray_DATA(<cnp.ndarray> target), cnp.PyArray_NBYTES(<cnp.ndarray> target), stream)
    elif type(target) is dict:
        # Borrowed items: filling them runs no Python code (a TypeError ends the walk).
        while PyDict_Next(target, &position, &key, &item):
            write_into(<object> item, stream)
    elif isinstance(target, (tuple, list)):
        for item_object in target:
            write_into(item_object, stream)
    else:
        raise TypeError(f"no in-place floor for {type(target).__name__}")


cdef class Floor:
    """One compiled call doing the least work of a benchmark case.

    Parameters
    ----------
    generator : numpy.random.Generator or None
        Whose bit generator makes the draws (``None`` when ``draws`` is 0).
    draws : int
        64-bit draws per call: the number the case's sampling consumes.
    inputs : object
        Arrays, or dicts/tuples/lists of them, read once per call.
    target : object
        Arrays, or a tree of them, overwritten in place per call (``out=``), or ``None``.
    template : object
        What the case returns: a new object of the same shape is built per
        call (views where the case returns views). ``None`` returns ``target``.

    Examples
    --------
    >>> import numpy as np
    >>> from benchmarks._floor import Floor
    >>> floor = Floor(np.random.default_rng(0), 1, None, None, np.int64(0))
    >>> type(floor())
    <class 'numpy.int64'>
    """

    cdef RNGHandle handle
    cdef npy_intp draws
    cdef object inputs
    cdef object target
    cdef Node template
    cdef public uint64_t checksum

    def __init__(self, generator, npy_intp draws, inputs, target, template):
        if draws < 0:
            raise ValueError("draws must be non-negative")
        if draws and generator is None:
            raise ValueError("draws need a generator")
        self.handle = None if generator is None else RNGHandle(generator)
        self.draws = draws
        self.inputs = inputs
        self.target = target
        self.template = None if template is None else plan(template)
        self.checksum = 0

    def __call__(self):
        return self.run()

    def run(self):
        """Do the case's least work once; returns the result object (``floor.run`` is what the suite times)."""
        cdef Stream stream
        stream.bitgen = NULL if self.handle is None else self.handle.bitgen
        stream.pcg = NULL if self.handle is None else self.handle.pcg
        stream.remaining = self.draws
        stream.position = stream.filled = 0
        stream.last = read(self.inputs) if self.inputs is not None else 0
        if self.target is not None:
            write_into(self.target, &stream)
        result = self.target if self.template is None else build(self.template, &stream)
        while stream.remaining > 0:  # draws no output byte needed (rejections, bounds)
            refill(&stream)
            stream.last ^= stream.block[stream.filled - 1]
        self.checksum ^= stream.last  # keeps the draws and reads observable
        return result
