"""Access to the C bit generator behind a space's ``np_random``.

Every kernel draws from the very ``bitgen_t`` that ``space.np_random`` wraps,
holding the bit generator's lock, so user calls on ``space.np_random`` and
kernel draws interleave exactly as they would with numpy's own methods.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from numpy.random cimport bitgen_t

from gymspaces._attrs cimport attr, attr_or_none, instance_dict

import numpy as np

cdef const char *CAPSULE_NAME = "BitGenerator"
cdef str HANDLE_ATTR = "_rng_handle"


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

    def __reduce__(self):
        # Handles are caches; a copy is rebuilt from the generator it served.
        return (RNGHandle, (self.generator,))


cdef RNGHandle rng_handle(object space):
    return rng_handle_from(instance_dict(space), space)


cdef RNGHandle rng_handle_from(dict namespace, object space):
    """Return the handle for ``space.np_random``, rebuilding it when stale.

    The handle is cached on the space and keyed by the identity of
    ``space._np_random``: seeding, assignment and unpickling all replace that
    object, which invalidates the cache without any hook.
    """
    generator = attr(namespace, space, "_np_random")
    if generator is None:
        generator = space.np_random  # lazy seeding, as Gymnasium does
    cached = attr_or_none(namespace, space, HANDLE_ATTR)
    if type(cached) is RNGHandle and (<RNGHandle> cached).generator is generator:
        return <RNGHandle> cached
    handle = RNGHandle(generator)
    setattr(space, HANDLE_ATTR, handle)
    return handle


def generator_handle(generator):
    """Python-level access to a handle (used by tests and helpers)."""
    return RNGHandle(generator)
