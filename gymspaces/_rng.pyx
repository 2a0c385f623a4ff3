"""Access to the C bit generator behind a space's ``np_random``.

Every kernel draws from the very ``bitgen_t`` that ``space.np_random`` wraps,
holding the bit generator's lock, so user calls on ``space.np_random`` and
kernel draws interleave exactly as they would with numpy's own methods.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
cimport numpy as cnp
from libc.stdint cimport uint64_t
from numpy.random cimport bitgen_t

from cpython.object cimport PyObject, PyObject_TypeCheck, PyTypeObject

from gymspaces._attrs cimport PyDict_GetItemWithError, address_slot, attr, instance_dict
from gymspaces._registry cimport Registry

from weakref import KeyedRef

import numpy as np

from gymspaces import _registry

cdef extern from *:
    """
    #ifndef GYMSPACES_DEBUG_BUILD
    #define GYMSPACES_DEBUG_BUILD 0
    #endif
    """
    int GYMSPACES_DEBUG_BUILD_FLAG "GYMSPACES_DEBUG_BUILD"

DEBUG_BUILD = bool(GYMSPACES_DEBUG_BUILD_FLAG)
"""Whether the kernels were built with ``GYMSPACES_DEBUG_BUILD=1`` (bounds checks on)."""

# What the build was made with, for gymspaces.show_config(): setup.py passes
# the versions; the compiler names itself.
cdef extern from *:
    """
    #ifndef GYMSPACES_BUILD_CYTHON
    #define GYMSPACES_BUILD_CYTHON "unknown"
    #endif
    #ifndef GYMSPACES_BUILD_NUMPY
    #define GYMSPACES_BUILD_NUMPY "unknown"
    #endif
    #define GS_STRINGIFY_(x) #x
    #define GS_STRINGIFY(x) GS_STRINGIFY_(x)
    #if defined(__clang__)
    #define GS_COMPILER "clang " __clang_version__
    #elif defined(__GNUC__)
    #define GS_COMPILER "gcc " __VERSION__
    #elif defined(_MSC_VER)
    #define GS_COMPILER "MSVC " GS_STRINGIFY(_MSC_FULL_VER)
    #else
    #define GS_COMPILER "unknown"
    #endif
    """
    const char *GYMSPACES_BUILD_CYTHON
    const char *GYMSPACES_BUILD_NUMPY
    const char *GS_COMPILER

BUILD_CYTHON = GYMSPACES_BUILD_CYTHON.decode("ascii")
BUILD_NUMPY = GYMSPACES_BUILD_NUMPY.decode("ascii")
COMPILER = GS_COMPILER.decode("ascii", "replace").strip()
FREE_THREADED_BUILD = bool(GS_FREE_THREADED)
"""Whether the kernels were compiled for a free-threaded CPython (``Py_GIL_DISABLED``)."""
PCG64_PATH = GS_PCG64_PATH.decode("ascii")
"""The 128-bit arithmetic of the inline PCG64 step: ``"int128"``, ``"msvc"`` or ``"portable"``."""

cdef const char *CAPSULE_NAME = "BitGenerator"
cdef object PCG64 = np.random.PCG64
# Set by _verify_pcg64 below, before any handle exists.
PCG64_INLINE_VERIFIED = False
cdef str HANDLE_ATTR = "_rng_handle"
cdef object NONE_TYPE = type(None)


cdef class RNGHandle:
    """Cached ``bitgen_t*`` and lock of one Generator (see :func:`rng_handle`)."""

    def __cinit__(self, generator):
        if not isinstance(generator, np.random.Generator):
            raise TypeError(
                f"Expected a numpy.random.Generator as the space's np_random, "
                f"actual type: {type(generator)}"
            )
        bit_generator = generator.bit_generator
        capsule = bit_generator.capsule
        if not PyCapsule_IsValid(capsule, CAPSULE_NAME):
            raise ValueError("Invalid bit generator: its capsule is not a 'BitGenerator'")
        self.generator = generator
        self.bit_generator = bit_generator
        self.lock = bit_generator.lock
        # Bound methods are cached: calling them is cheaper than ``with lock:``.
        self._acquire = self.lock.acquire
        self._release = self.lock.release
        self.bitgen = <bitgen_t *> PyCapsule_GetPointer(capsule, CAPSULE_NAME)
        self.pcg = NULL
        if PCG64_INLINE_VERIFIED and type(bit_generator) is PCG64:
            self.pcg = (<gs_pcg64_state_t *> self.bitgen.state).pcg_state

    @property
    def uses_inline_pcg64(self):
        """Whether bulk fills draw this PCG64 inline rather than through numpy."""
        return self.pcg != NULL

    def __reduce__(self):
        # Handles are caches, rebuilt on first use: a copy or a pickle holds
        # None instead. (A Gymnasium space that ran compiled keeps its handle
        # after ``unpatch()``; its pickle must still load without gymspaces.)
        return (NONE_TYPE, ())


cdef RNGHandle rng_handle(object space):
    return rng_handle_from(instance_dict(space), space)


cdef RNGHandle rng_handle_from(dict namespace, object space):
    """Return the handle for ``space.np_random``, rebuilding it when stale.

    The handle is cached beside the space (:func:`cache_namespace`) and keyed
    by the identity of ``space._np_random``: seeding, assignment and
    unpickling all replace that object, which invalidates the cache without
    any hook.
    """
    cdef Py_ssize_t slot = 0
    cdef RNGHandle handle
    generator = attr(namespace, space, "_np_random")
    if generator is None:
        generator = space.np_random  # lazy seeding, as Gymnasium does
    cdef bint own = namespace is not None and is_own_space(space)
    if not own:
        # Another library's space keeps its handle beside it (below), found
        # by its id; the handle of a generator met lately is found here first,
        # by the generator's address (a handle depends on its generator only).
        slot = address_slot(<void *> generator, RECENT_BITS)
        recent = RECENT[slot]
        if recent is not None and (<RNGHandle> recent).generator is generator:
            return <RNGHandle> recent
    cache = namespace if own else cache_namespace(space, namespace)
    # A strong reference, not a borrowed one: on a free-threaded build another
    # thread may replace the entry (dropping the handle it held) meanwhile.
    found = (<dict> cache).get(HANDLE_ATTR)
    if type(found) is RNGHandle and (<RNGHandle> found).generator is generator:
        handle = <RNGHandle> found
    else:
        handle = RNGHandle(generator)
        # Any other space's samples are new objects every call, as its own code's
        # are (``a.sample() is b.sample()`` never holds, and a pickle of several
        # samples holds several objects).
        handle.shares_results = own
        cache[HANDLE_ATTR] = handle
    if not own:
        RECENT[slot] = handle
    return handle


# ----------------------------------------------------------------------------
# Where kernels keep what they derive from a space
# ----------------------------------------------------------------------------

# gymspaces' own spaces keep the kernels' caches in their instance dict (their
# __getstate__ and __copy__ leave them out). Any other space -- Gymnasium's,
# run by patch mode -- must not change: nothing may appear in its vars(), its
# pickles or its copies, and no name of gymspaces may collide with a user's
# attribute. Its caches live in FOREIGN_CACHES, keyed by id(space) and dropped
# by a weak reference's callback when the space dies (before its id can be
# reused). gymspaces' ``Space`` is the registry's (see _registry.pxd).
cdef Registry registry = _registry.REGISTRY
FOREIGN_CACHES = {}
# The handles of the generators foreign spaces drew from lately, one a slot
# by the generator's address: each keeps its generator alive, so a slot can
# never match another generator at the same address. Bounded: at most this
# many generators are kept.
cdef enum:
    RECENT_BITS = 6
cdef list RECENT = [None] * (1 << RECENT_BITS)
# In front of FOREIGN_CACHES, one slot per address: a space seen lately and its
# store, both borrowed (FOREIGN_CACHES owns the store). _forget_foreign clears
# a space's slot as the space dies, before its address can be reused.
cdef enum:
    FOREIGN_BITS = 8
cdef PyObject *FOREIGN_SPACE[1 << FOREIGN_BITS]
cdef PyObject *FOREIGN_STORE[1 << FOREIGN_BITS]


cdef bint is_own_space(object space) noexcept:
    """Whether ``space`` is one of gymspaces' spaces (not Gymnasium's, run by patch mode)."""
    return registry.Space is not None and PyObject_TypeCheck(space, <PyTypeObject *> registry.Space)


def _forget_foreign(reference):
    cdef size_t address = reference.key
    cdef size_t slot = address_slot(<void *> address, FOREIGN_BITS)
    entry = FOREIGN_CACHES.get(reference.key)
    if entry is not None and (<tuple> entry)[0] is reference:
        if <size_t> FOREIGN_SPACE[slot] == address:
            FOREIGN_SPACE[slot] = FOREIGN_STORE[slot] = NULL
        del FOREIGN_CACHES[reference.key]


cdef dict cache_namespace(object space, dict namespace):
    """The dict where kernels cache data derived from ``space``.

    ``namespace`` is ``space.__dict__`` (or None). For gymspaces' spaces that
    is the answer; for others, a dict kept beside the space. A space that
    cannot be weakly referenced gets a new dict each call (no caching).
    """
    cdef PyObject *found
    if namespace is not None and is_own_space(space):
        return namespace
    cdef size_t slot = address_slot(<void *> space, FOREIGN_BITS)
    if FOREIGN_SPACE[slot] == <PyObject *> space:
        return <dict> FOREIGN_STORE[slot]
    key = id(space)
    found = PyDict_GetItemWithError(FOREIGN_CACHES, key)  # borrowed: its dict is returned (owned) at once
    if found != NULL:
        store = (<tuple> <object> found)[1]
    else:
        store = {}
        try:
            reference = KeyedRef(space, _forget_foreign, key)
        except TypeError:
            return store
        FOREIGN_CACHES[key] = (reference, store)
    FOREIGN_SPACE[slot] = <PyObject *> space
    FOREIGN_STORE[slot] = <PyObject *> store
    return <dict> store


# ----------------------------------------------------------------------------
# Fast state copy between PCG64 bit generators
# ----------------------------------------------------------------------------

from libc.string cimport memcpy

# numpy's pcg64_state (numpy/random/src/pcg64/pcg64.h, unchanged since numpy
# 1.17) is gs_pcg64_state_t: a pointer to the 128-bit LCG state and increment,
# then the buffered 32-bit half-word. Verified against the state property at
# import (below).

cdef enum:
    PCG128_STATE_BYTES = 32  # state and increment, 128 bits each

cdef bint PCG64_LAYOUT_VERIFIED = False
cdef tuple PCG64_TYPES = (np.random.PCG64, np.random.PCG64DXSM)


cdef bitgen_t *bitgen_of(object bit_generator) except NULL:
    capsule = bit_generator.capsule
    if not PyCapsule_IsValid(capsule, CAPSULE_NAME):
        raise ValueError("Invalid bit generator: its capsule is not a 'BitGenerator'")
    return <bitgen_t *> PyCapsule_GetPointer(capsule, CAPSULE_NAME)


cdef void copy_pcg64(bitgen_t *source, bitgen_t *target) noexcept:
    cdef gs_pcg64_state_t *src = <gs_pcg64_state_t *> source.state
    cdef gs_pcg64_state_t *dst = <gs_pcg64_state_t *> target.state
    memcpy(dst.pcg_state, src.pcg_state, PCG128_STATE_BYTES)
    dst.has_uint32 = src.has_uint32
    dst.uinteger = src.uinteger


def copy_generator_state(source, target):
    """Give ``target`` the exact state of ``source`` (both Generators); ``False`` if
    not handled here (then use ``target.bit_generator.state = ...``).

    For PCG64/PCG64DXSM this copies the C state directly, which costs a tiny
    fraction of the ``state`` property's dict round trip.
    """
    if not PCG64_LAYOUT_VERIFIED:
        return False
    source_bg = source.bit_generator
    target_bg = target.bit_generator
    if type(source_bg) is not type(target_bg) or type(source_bg) not in PCG64_TYPES:
        return False
    copy_pcg64(bitgen_of(source_bg), bitgen_of(target_bg))
    return True


def _verify_pcg64_layout():
    """Enable the fast copy only if it reproduces the ``state`` property exactly."""
    global PCG64_LAYOUT_VERIFIED
    for kind in PCG64_TYPES:
        source, target = kind(2024), kind(7)
        source.random_raw()
        np.random.Generator(source).integers(10)  # leaves a buffered half-word
        copy_pcg64(bitgen_of(source), bitgen_of(target))
        if source.state != target.state:
            return
    PCG64_LAYOUT_VERIFIED = True


_verify_pcg64_layout()
PCG64_STATE_COPY = bool(PCG64_LAYOUT_VERIFIED)
"""Whether PCG64 states are copied in C (numpy's state memory is laid out as expected)."""


def _verify_pcg64():
    """Enable inline PCG64 draws only if they reproduce numpy's exactly.

    Each trial draws through numpy from one generator and inline from a twin:
    single words, doubles, then the lane-parallel fill over lengths around its
    block size; the values are compared, then the full states once (a step
    that drew differently shifts every later value or the final state).
    Run at import: two seeds (the second sets the states' high words) keep it
    to about a tenth of a millisecond. Returns why the inline path stays off,
    or None when it is on.
    """
    global PCG64_INLINE_VERIFIED
    cdef gs_pcg128_t *rng
    cdef uint64_t *out
    cdef Py_ssize_t count
    if not PCG64_LAYOUT_VERIFIED:
        return "numpy's PCG64 state memory is not laid out as this build expects"
    mismatch = f"inline draws ({PCG64_PATH} arithmetic) differ from numpy's"
    fill_counts = (0, 1, 15, 16, 17, 19, 64, 1001)
    for seed in (42, 2**127 + 99):
        reference, twin = PCG64(seed), PCG64(seed)
        np.random.Generator(reference).integers(10)  # a buffered half-word too
        np.random.Generator(twin).integers(10)
        rng = (<gs_pcg64_state_t *> bitgen_of(twin).state).pcg_state
        expected = reference.random_raw(64).tolist()
        if [gs_pcg64_next64(rng) for _ in range(64)] != expected:
            return mismatch
        if np.random.Generator(reference).random(5).tolist() != [gs_pcg64_next_double(rng) for _ in range(5)]:
            return mismatch
        expected = reference.random_raw(sum(fill_counts))
        drawn = np.empty(sum(fill_counts), dtype=np.uint64)
        out = <uint64_t *> cnp.PyArray_DATA(drawn)
        for count in fill_counts:
            gs_pcg64_fill_raw(rng, out, count)
            out += count
        if not np.array_equal(drawn, expected) or reference.state != twin.state:
            return mismatch
    PCG64_INLINE_VERIFIED = True
    return None


PCG64_FALLBACK_REASON = _verify_pcg64()
"""Why bulk fills draw PCG64 through numpy's function pointer, or None when they draw inline."""
PCG64_INLINE = bool(PCG64_INLINE_VERIFIED)
"""Whether the inline PCG64 step passed its import check (bulk fills of ``numpy.random.PCG64`` use it)."""


def advance_by_one_double(space):
    """``space.np_random.random()`` with the result discarded: one ``next_double``
    on the space's bit generator, under its lock when other threads exist."""
    cdef RNGHandle handle = rng_handle(space)
    cdef bint locked = handle.lock_draws(False)
    try:
        handle.bitgen.next_double(handle.bitgen.state)
    finally:
        handle.unlock_draws(locked)
