"""Per-call verdicts on whether a space may run compiled, remembered by identity.

Patch mode asks, on every call of a Gymnasium space, whether gymspaces'
kernels provably give that call's plain result (see
``gymspaces/gymnasium/_guard.py``, which supplies the rules). The rules are
Python and slow; this kernel makes the per-call question cheap:

* the class's verdict is looked up by type (judged once per class);
* the generator is checked to be exactly a ``numpy.random.Generator``;
* the attributes the rules read are compared, by identity, with
  combinations of objects the rules found sound before. Only a new
  combination goes back to the rules.

Nothing is stored on the space: the memo is keyed by the attribute objects
themselves (the rules' verdict depends on nothing else). A combination, or an
instance dict, the rules found runs compiled (reason ``None``) is *sound*.

While patched (:func:`judging`) it also answers the questions of gymspaces'
checked kernels (``node_reason``, ``tree_reason``, ``class_passes`` in
``_registry.pxd``).

Before any of that, an instance dict found sound and not modified since is
recognised by one comparison: CPython 3.10-3.12 give every dict a version,
globally unique and changed by each modification (``ma_version_tag``), and a
table keeps, per dict, the version a judge found sound. On CPython 3.13 an
attribute store on an object with inline values changes neither the version
nor tells dict watchers (measured on 3.13.0), and free-threaded builds have no
such guarantee either: there the table is off and the memo answers.
"""

from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport Py_TYPE, PyObject
from cpython.ref cimport Py_XDECREF, Py_XINCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM

from libc.stdint cimport uint64_t
from libc.string cimport memset

from gymspaces._attrs cimport PyDict_GetItemWithError, address_slot, instance_dict
from gymspaces._nesting cimport MAX_KERNEL_DEPTH
from gymspaces._registry cimport Registry

import numpy as np

from gymspaces import _registry, _sub_spaces
from gymspaces.gymnasium._reasons import coded

cdef Registry registry = _registry.REGISTRY

cdef type GENERATOR = np.random.Generator
cdef str NO_INSTANCE_DICT = coded("attributes-changed", "the space has no instance dict")
cdef str TOO_DEEP = coded("too-deep", f"spaces nested more than {MAX_KERNEL_DEPTH} levels deep")


cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030D0000 && !defined(Py_GIL_DISABLED)
    #  define GS_DICT_VERSIONS 1
    #  if defined(__GNUC__)  /* ma_version_tag: deprecated in 3.12, still kept up to date */
    #    pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    #  endif
    #  define gs_dict_version(dict) (((PyDictObject *) (dict))->ma_version_tag)
    #else
    #  define GS_DICT_VERSIONS 0
    #  define gs_dict_version(dict) ((uint64_t) 0)
    #endif
    """
    bint GS_DICT_VERSIONS
    uint64_t gs_dict_version(object namespace) noexcept


# Direct-mapped, by the dict's address: the dict, the judge that found it sound,
# the dict's version then (see the module docstring), and the space's class and
# whether that judge's spaces are leaves (for a tree's walk, subtree_reason).
ctypedef struct SoundEntry:
    PyObject *namespace
    void *judge
    uint64_t version
    void *cls
    bint leaf

cdef enum:
    SOUND_BITS = 12
cdef SoundEntry SOUND[1 << SOUND_BITS]


cdef inline bint sound_known(dict namespace, Judge judge, uint64_t version) noexcept:
    cdef SoundEntry *entry = &SOUND[address_slot(<void *> namespace, SOUND_BITS)]
    return (GS_DICT_VERSIONS and entry.namespace == <PyObject *> namespace and entry.judge == <void *> judge
            and entry.version == version)


cdef inline void remember_sound(dict namespace, Judge judge, uint64_t version, cls) noexcept:
    cdef SoundEntry *entry = &SOUND[address_slot(<void *> namespace, SOUND_BITS)]
    entry.namespace = <PyObject *> namespace
    entry.judge = <void *> judge
    entry.version = version
    entry.cls = <void *> cls
    entry.leaf = judge.leaf


cdef inline void forget_sound() noexcept:
    memset(SOUND, 0, sizeof(SOUND))


cdef enum:
    # Classes made on the fly are judged again after this many: the table stays bounded.
    MAX_CLASSES = 4096
    MAX_WATCHED = 8
    MEMO_SLOTS = 256  # a power of two


cdef class Judge:
    """The verdicts of one kind of space (Gymnasium's ``Discrete``, say).

    Parameters
    ----------
    base : type
        The kind's own class (its instances skip the class verdict lookup).
    watched : tuple of str
        Instance attributes the rules read. The rules' verdict on an instance
        depends on these objects only, so it is remembered per combination
        of objects (by identity), whichever space holds them.
    judge_class : callable
        ``judge_class(cls)``: why instances of ``cls`` cannot run compiled, or None.
    validate : callable
        ``validate(space)``: why the space cannot run compiled, or None.
    """
    # (Its attributes are declared in _judge.pxd, for kernels that call ``reason`` in C.)

    def __cinit__(self, base, tuple watched, *, judge_class, validate):
        if len(watched) > MAX_WATCHED:
            raise ValueError(f"at most {MAX_WATCHED} watched attributes")
        self.base = base
        self.watched = watched
        self.leaf = not any([name in SUB_SPACE_ATTRIBUTES for name in watched])
        self.judge_class = judge_class
        self.validate = validate
        self.class_verdicts = {}
        self.memo = [None] * MEMO_SLOTS
        self.sound = {}

    cdef object class_reason(self, cls):
        cdef PyObject *found = PyDict_GetItemWithError(self.class_verdicts, cls)
        if found != NULL:
            return <object> found
        verdict = self.judge_class(cls)
        if len(self.class_verdicts) >= MAX_CLASSES:
            self.class_verdicts.clear()
        self.class_verdicts[cls] = verdict
        return verdict

    cpdef object reason(self, space):
        """Why ``space`` cannot run compiled now, or None (then it can)."""
        cdef PyObject *found
        cdef PyObject *values[MAX_WATCHED]
        cdef Py_ssize_t i, count = PyTuple_GET_SIZE(self.watched)
        cdef size_t mixed = 0
        cdef dict namespace
        cls = type(space)
        if cls is not self.base:
            verdict = self.class_reason(cls)
            if verdict is not None:
                return verdict
        namespace = instance_dict(space)
        if namespace is None:
            return NO_INSTANCE_DICT
        # Read first: a dict modified from here on (by validate, say) is not
        # recognised by this version, which is the one remembered below.
        cdef uint64_t version = gs_dict_version(namespace)
        if sound_known(namespace, self, version):
            return None
        found = PyDict_GetItemWithError(namespace, "_np_random")
        if found != NULL and <object> found is not None and type(<object> found) is not GENERATOR:
            generator = <object> found  # owned: the reason's text runs Python code
            return generator_reason(generator)
        # The watched values are borrowed from the dict while nothing runs: the
        # memo is read by comparing addresses only (its entries own their
        # objects, so a match is the very object). On a miss they are owned
        # (the tuple) before anything else runs: validate may edit the dict.
        for i in range(count):
            found = PyDict_GetItemWithError(namespace, <object> PyTuple_GET_ITEM(self.watched, i))
            values[i] = found if found != NULL else <PyObject *> ABSENT
            mixed = (mixed ^ <size_t> values[i]) * <size_t> 0x9E3779B97F4A7C15ULL
        slot = PyList_GET_ITEM(self.memo, (mixed >> 17) & (MEMO_SLOTS - 1))
        if (<object> slot) is not None and remembered(<tuple> <object> slot, values, count):
            remember_sound(namespace, self, version, cls)
            return None
        current = owned_tuple(values, count)
        # Two combinations that share a slot would evict each other on every
        # call: every sound combination is also kept in a dict (keyed by the
        # objects themselves, which hash by identity or by value of immutable
        # scalars), and a hit there goes back into the slot without the rules.
        key = tuple([id(item) for item in current])
        known = self.sound.get(key)
        if known is not None and all([a is b for a, b in zip(<tuple> known, current)]):
            self.memo[(mixed >> 17) & (MEMO_SLOTS - 1)] = known
            remember_sound(namespace, self, version, cls)
            return None
        verdict = self.validate(space)
        if verdict is None:
            remember_sound(namespace, self, version, cls)
            self.memo[(mixed >> 17) & (MEMO_SLOTS - 1)] = current
            if len(self.sound) >= MAX_CLASSES:
                self.sound.clear()
            self.sound[key] = current
        return verdict

    def __dealloc__(self):
        # Another judge may be made at this address: no entry of this one may match it.
        forget_sound()


cdef str generator_reason(generator):
    """Why the kernels cannot draw from ``generator``, not exactly a numpy ``Generator``."""
    what = "a Generator subclass" if isinstance(generator, GENERATOR) else "not a numpy Generator"
    return coded("generator-not-numpy", f"np_random is {what} ({type(generator).__qualname__})")


cdef object ABSENT = object()  # an attribute the instance does not hold
# The attributes through which a tree reaches its sub-spaces (see subtree_reason),
# read from the one walk of a tree; walked here in C.
cdef tuple SUB_SPACE_ATTRIBUTES = _sub_spaces.SUB_SPACE_ATTRIBUTES


cdef tuple owned_tuple(PyObject **values, Py_ssize_t count):
    """A tuple of ``values`` (borrowed), each owned before the tuple is allocated:
    the allocation may start a garbage collection, which may run code."""
    cdef Py_ssize_t i
    cdef tuple result
    for i in range(count):
        Py_XINCREF(values[i])
    try:
        result = PyTuple_New(count)
    except BaseException:
        for i in range(count):
            Py_XDECREF(values[i])
        raise
    for i in range(count):
        PyTuple_SET_ITEM(result, i, <object> values[i])  # steals the reference taken above
    return result


cdef inline bint remembered(tuple slot, PyObject **values, Py_ssize_t count) noexcept:
    cdef Py_ssize_t i
    if PyTuple_GET_SIZE(slot) != count:
        return False
    for i in range(count):
        if PyTuple_GET_ITEM(slot, i) != values[i]:
            return False
    return True


# ----------------------------------------------------------------------------
# Trees: the flatten family and vector helpers run a whole tree at once
# ----------------------------------------------------------------------------

cdef dict JUDGE_OF_CLASS = {}  # class -> Judge, or None for a class no judge covers
cdef dict judges = {}  # Gymnasium's classes -> their Judges, while patched (see judging)


def judging(dict by_class):
    """Judge each space by the Judge of the nearest class of its MRO in ``by_class``
    (Gymnasium's classes; none: every space is refused), and answer the checked
    kernels' questions (``_registry.pxd``) so. ``patch()`` calls it, ``unpatch()``
    again with ``{}``."""
    global judges
    judges = by_class
    JUDGE_OF_CLASS.clear()
    forget_sound()  # its entries stand for the judge of their class
    registry.node_reason = node_verdict
    registry.tree_reason = tree_verdict
    registry.class_passes = class_passes


cdef object judge_of(cls):
    cdef PyObject *found = PyDict_GetItemWithError(JUDGE_OF_CLASS, cls)
    if found != NULL:
        return <object> found
    judge = None
    for klass in cls.__mro__:
        found = PyDict_GetItemWithError(judges, klass)
        if found != NULL:
            judge = <object> found
            break
    if len(JUDGE_OF_CLASS) >= MAX_CLASSES:
        JUDGE_OF_CLASS.clear()
        forget_sound()
    JUDGE_OF_CLASS[cls] = judge
    return judge


cdef str unjudged(cls):
    return coded("not-a-gymnasium-class", f"{cls.__qualname__} is not one of the classes patch mode compiles")


cpdef object node_reason(space):
    """Why ``space`` itself cannot run compiled, or None."""
    if sound_by_class(space, instance_dict(space)) != UNKNOWN:
        return None
    judge = judge_of(type(space))
    if judge is None:
        return unjudged(type(space))
    return (<Judge> judge).reason(space)


cdef bint class_passes(object space) except -1:
    """Whether the class of ``space`` is one patch mode compiles, as far as the
    class goes (the instance is not judged: a kernel that validates every
    attribute it reads, and reads nothing else, needs no more)."""
    cls = type(space)
    judge = judge_of(cls)
    if judge is None:
        return False
    return cls is (<Judge> judge).base or (<Judge> judge).class_reason(cls) is None


cpdef object tree_reason(space):
    """Why some node of ``space``'s tree cannot run compiled (the first found), or None."""
    return subtree_reason(space, 0)


cdef enum:
    UNKNOWN, SOUND_LEAF, SOUND_COMPOSITE


cdef inline int sound_by_class(space, dict namespace) noexcept:
    """``SOUND_LEAF`` or ``SOUND_COMPOSITE`` when the judge of ``space``'s class
    found it sound and its dict (``namespace``) is unchanged since: what that
    judge's own check (:meth:`Judge.reason`) answers, without finding the
    judge; else ``UNKNOWN``."""
    cdef SoundEntry *entry
    if not GS_DICT_VERSIONS or namespace is None:
        return UNKNOWN
    entry = &SOUND[address_slot(<void *> namespace, SOUND_BITS)]
    if (entry.namespace == <PyObject *> namespace and entry.cls == <void *> Py_TYPE(space)
            and entry.version == gs_dict_version(namespace)):
        return SOUND_LEAF if entry.leaf else SOUND_COMPOSITE
    return UNKNOWN


cdef object subtree_reason(space, int depth):
    """``tree_reason`` of the subtree whose root ``space`` is at ``depth`` (0 at the root of the tree)."""
    cdef dict namespace
    cdef int known
    if depth > MAX_KERNEL_DEPTH:
        return TOO_DEEP
    namespace = instance_dict(space)
    known = sound_by_class(space, namespace)
    if known == SOUND_LEAF:
        return None
    if known == UNKNOWN:
        judge = judge_of(type(space))
        if judge is None:
            return unjudged(type(space))
        reason = (<Judge> judge).reason(space)
        if reason is not None or (<Judge> judge).leaf:
            return reason
        namespace = instance_dict(space)
    return children_reason(namespace, depth)


cdef object children_reason(dict namespace, int depth):
    """``tree_reason`` of the sub-spaces of the node whose instance dict is ``namespace``."""
    cdef PyObject *found
    found = PyDict_GetItemWithError(namespace, "spaces")
    if found != NULL:
        children = <object> found
        # (An exact dict's values walked in C -- a dict changed meanwhile raises
        # RuntimeError, as Python's iteration of its values does; Cython's loop
        # walks an exact tuple or list in C too.)
        if type(children) is dict:
            for child in (<dict> children).values():
                reason = child_reason(child, depth)
                if reason is not None:
                    return reason
        else:
            for child in children:
                reason = child_reason(child, depth)
                if reason is not None:
                    return reason
        return None
    for name in SUB_SPACE_ATTRIBUTES[1:]:
        found = PyDict_GetItemWithError(namespace, name)
        if found != NULL and <object> found is not None:
            sub_space = <object> found  # owned: judging it runs Python code
            reason = child_reason(sub_space, depth)
            if reason is not None:
                return reason
    return None


cdef inline object child_reason(child, int depth):
    reason = subtree_reason(child, depth + 1)
    return None if reason is None else sub_space_reason(child, reason)


cdef str sub_space_reason(child, str reason):
    """``reason`` of a sub-space, for its tree: ``"code: sub-space Name: detail"``, at the
    deepest sub-space it names."""
    code, _, detail = reason.partition(": ")
    if detail.startswith("sub-space "):
        return reason
    return f"{code}: sub-space {type(child).__name__}: {detail}"


# The questions of gymspaces' checked kernels (see _registry.pxd), answered here.
cdef object node_verdict(object space):
    return node_reason(space)


cdef object tree_verdict(object space):
    return tree_reason(space)


