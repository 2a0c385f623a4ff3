# The C view of a space's generator that every kernel draws through: the
# RNGHandle (bit generator, lock, the lock idiom) and numpy's PCG64 step written
# out for inline bulk fills.

cimport numpy as cnp
from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t

# Bulk fills of more values than this release the GIL while they hold the bit
# generator's lock; below it, releasing and retaking the GIL costs more than
# it lets other threads gain. (Compile-time constants are enums: Cython 3
# deprecates DEF.)
cdef enum:
    NOGIL_THRESHOLD = 4096

# numpy's PCG64 step and output function (numpy/random/src/pcg64/pcg64.h:
# 128-bit LCG, then XSL-RR to 64 bits), written out so that bulk fills can keep
# the generator state in registers instead of calling ``next_double`` through
# a function pointer for every value. The layout and the draws are checked
# against numpy at import (``_rng._verify_pcg64``); handles only use it when
# that check passed and the bit generator is exactly ``numpy.random.PCG64``.
cdef extern from *:
    """
    #if defined(__SIZEOF_INT128__)
    #define GS_HAVE_UINT128 1
    typedef unsigned __int128 gs_uint128_t;
    #else
    #define GS_HAVE_UINT128 0
    typedef struct { uint64_t high, low; } gs_uint128_t;
    #endif
    typedef struct { gs_uint128_t state; gs_uint128_t inc; } gs_pcg128_t;
    /* numpy's pcg64_state: pointer to the LCG, then the buffered 32-bit half. */
    typedef struct { gs_pcg128_t *pcg_state; int has_uint32; uint32_t uinteger; } gs_pcg64_state_t;

    static inline uint64_t gs_pcg64_next64(gs_pcg128_t *rng) {
    #if GS_HAVE_UINT128
        const gs_uint128_t multiplier =
            (((gs_uint128_t)2549297995355413924ULL) << 64) | 4865540595714422341ULL;
        gs_uint128_t state = rng->state * multiplier + rng->inc;
        uint64_t folded = ((uint64_t)(state >> 64)) ^ (uint64_t)state;
        unsigned rotation = (unsigned)(state >> 122);
        rng->state = state;
        return (folded >> rotation) | (folded << ((64u - rotation) & 63u));
    #else
        (void)rng;
        return 0;  /* never used: the import check disables the inline path */
    #endif
    }

    static inline double gs_pcg64_next_double(gs_pcg128_t *rng) {
        return (double)(gs_pcg64_next64(rng) >> 11) * (1.0 / 9007199254740992.0);
    }

    /* The next ``n`` draws of ``gs_pcg64_next64``, in order, into ``out``.
     *
     * One step of the LCG depends on the previous one, so a serial fill runs
     * at the latency of a 128-bit multiply-add per draw. Four lanes, each
     * holding every fourth state and advanced by four steps at once
     * (s[i+4] = M^4 s[i] + c (M^3 + M^2 + M + 1)), keep four independent
     * chains in flight: the same states, hence the same draws, about twice
     * as fast. The state left behind is the ``n``-th, as after ``n`` calls. */
    static inline uint64_t gs_pcg64_xsl_rr(gs_uint128_t state) {
    #if GS_HAVE_UINT128
        uint64_t folded = ((uint64_t)(state >> 64)) ^ (uint64_t)state;
        unsigned rotation = (unsigned)(state >> 122);
        return (folded >> rotation) | (folded << ((64u - rotation) & 63u));
    #else
        (void)state;
        return 0;
    #endif
    }

    static inline void gs_pcg64_fill_raw(gs_pcg128_t *rng, uint64_t *out, Py_ssize_t n) {
    #if GS_HAVE_UINT128
        const gs_uint128_t m =
            (((gs_uint128_t)2549297995355413924ULL) << 64) | 4865540595714422341ULL;
        Py_ssize_t i = 0;
        if (n >= 16) {
            const gs_uint128_t c = rng->inc;
            const gs_uint128_t m2 = m * m, m4 = m2 * m2;
            const gs_uint128_t c4 = (c * m + c) * m2 + (c * m + c);
            gs_uint128_t s0 = rng->state * m + c;
            gs_uint128_t s1 = s0 * m + c;
            gs_uint128_t s2 = s1 * m + c;
            gs_uint128_t s3 = s2 * m + c;
            gs_uint128_t last = s3;
            for (; i + 4 <= n; i += 4) {
                out[i] = gs_pcg64_xsl_rr(s0);
                out[i + 1] = gs_pcg64_xsl_rr(s1);
                out[i + 2] = gs_pcg64_xsl_rr(s2);
                out[i + 3] = gs_pcg64_xsl_rr(s3);
                last = s3;
                s0 = s0 * m4 + c4;
                s1 = s1 * m4 + c4;
                s2 = s2 * m4 + c4;
                s3 = s3 * m4 + c4;
            }
            rng->state = last;  /* the state of draw i - 1 */
        }
        for (; i < n; ++i) {
            out[i] = gs_pcg64_next64(rng);
        }
    #else
        (void)rng; (void)out; (void)n;  /* never used: the import check disables the inline path */
    #endif
    }

    """
    bint GS_HAVE_UINT128
    ctypedef struct gs_pcg128_t:
        pass
    ctypedef struct gs_pcg64_state_t:
        gs_pcg128_t *pcg_state
        int has_uint32
        uint32_t uinteger
    uint64_t gs_pcg64_next64(gs_pcg128_t *rng) noexcept nogil
    double gs_pcg64_next_double(gs_pcg128_t *rng) noexcept nogil
    void gs_pcg64_fill_raw(gs_pcg128_t *rng, uint64_t *out, Py_ssize_t n) noexcept nogil


# Two sources of doubles for fused bulk loops: a local copy of a PCG64 state
# (drawn inline; copy it back when done) or any bit generator through numpy.
ctypedef struct inline_pcg64:
    gs_pcg128_t rng

ctypedef struct any_bitgen:
    bitgen_t *bitgen

ctypedef fused double_source:
    inline_pcg64
    any_bitgen


cdef inline double source_double(double_source *source) noexcept nogil:
    """One ``next_double`` of the bit generator behind ``source``."""
    if double_source is inline_pcg64:
        return gs_pcg64_next_double(&source.rng)
    else:
        return source.bitgen.next_double(source.bitgen.state)

cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define GS_FREE_THREADED 1
    #else
    #define GS_FREE_THREADED 0
    #endif
    """
    # A free-threaded CPython build (no GIL): the single-thread shortcut is off.
    bint GS_FREE_THREADED


cdef extern from "Python.h":
    ctypedef struct PyInterpreterState:
        pass
    ctypedef struct PyThreadState:
        pass
    PyInterpreterState *PyInterpreterState_Get()
    PyThreadState *PyInterpreterState_ThreadHead(PyInterpreterState *interp)
    PyThreadState *PyThreadState_Next(PyThreadState *tstate)


cdef inline bint only_python_thread() noexcept:
    """Whether this thread is the interpreter's only thread state.

    Then, while the caller holds the GIL, no other thread can be drawing from
    a bit generator (drawing needs a thread state) or holding its lock, so a
    draw that keeps the GIL throughout cannot race with anyone.
    """
    return PyThreadState_Next(PyInterpreterState_ThreadHead(PyInterpreterState_Get())) == NULL


cdef class RNGHandle:
    """C view of a space's ``numpy.random.Generator``: its ``bitgen_t*`` and lock.

    One handle is cached per space. Besides the generator view it holds
    Discrete's parameter cache (the ``discrete_*`` slots).
    """
    cdef readonly object generator
    cdef object bit_generator  # keeps the bitgen_t's memory alive
    cdef readonly object lock
    cdef object _acquire
    cdef object _release
    cdef bitgen_t *bitgen
    # The PCG64 LCG state when draws may be made inline (see gs_pcg64_next64),
    # else NULL.
    cdef gs_pcg128_t *pcg
    # Discrete's parameter cache (filled by _discrete._cache_discrete_params).
    # It lives here because discrete_sample fetches the space's handle on every
    # call anyway: one handle per space, so the cache costs no lookup of its
    # own, and a new generator (seeding, assignment, unpickling) brings a new,
    # empty handle. It is keyed by the identity of the space's immutable n,
    # start and dtype objects, so reassigning one of them misses it.
    cdef object discrete_n        # the space's n, start and dtype objects
    cdef object discrete_start
    cdef object discrete_dtype
    cdef uint64_t discrete_n_bits      # n and start as C integers (int_bits)
    cdef uint64_t discrete_start_bits
    cdef cnp.dtype discrete_descr      # the dtype in native byte order
    cdef tuple discrete_results        # every result as a numpy scalar (small n), or None
    # Whether draws may hand out prebuilt immutable results shared between
    # calls: only for gymspaces' own spaces (see rng_handle_from).
    cdef bint shares_results

    # The one lock idiom of every kernel (numpy's is ``with lock, nogil:``):
    #
    #     locked = handle.lock_draws(bulk)
    #     try:
    #         ...draws (under ``with nogil:`` when ``bulk``)...
    #     finally:
    #         handle.unlock_draws(locked)
    #
    # What runs under the lock: draws from this handle's ``bitgen`` and C work
    # on memory prepared before taking it. No Python object is created there
    # (a finaliser run by the allocation could draw from the same generator,
    # and numpy <= 2.3's lock is not re-entrant: a deadlock), no Python code is
    # called back; whatever raises leaves through the ``finally``.
    cdef inline bint lock_draws(self, bint bulk) except -1:
        """Take the bit generator's lock before drawing; ``True`` if it was taken.

        ``bulk``: the draws release the GIL, so the lock is always taken.
        Otherwise, when this is the interpreter's only thread and the build
        has a GIL, nobody else can draw or hold the lock while the caller
        keeps the GIL, and taking it is skipped (a free-threaded build always
        takes it).

        The shortcut stays because it is measured: numpy's lock
        is an RLock whose ``acquire`` parses its arguments, and a pair of
        calls costs about 0.13 us on CPython 3.11 -- as much as a whole
        ``Discrete.sample``. Taking it on every draw, pytest-benchmark
        medians (``python -m benchmarks --quick``, best of 7 interleaved
        runs): Discrete(10).sample 0.15 -> 0.28 us, Box(3).sample 0.40 ->
        0.55 us, MultiBinary(10) 0.30 -> 0.49 us, Dict(4 keys) 2.07 -> 2.75
        us; a bulk fill, which always takes it, 36.9 -> 37.3 us.
        """
        if not bulk and not GS_FREE_THREADED and only_python_thread():
            return False
        self._acquire()
        return True

    cdef inline int unlock_draws(self, bint locked) except -1:
        """Release what :meth:`lock_draws` took (call it in a ``finally``)."""
        if locked:
            self._release()
        return 0


# A private copy of a PCG64 bit generator: numpy's routines draw from
# ``bitgen`` and inline fills from ``rng``, both without touching the original.
# It points into itself, so it must stay where it was filled (a local).
ctypedef struct pcg64_clone:
    gs_pcg128_t rng
    gs_pcg64_state_t state
    bitgen_t bitgen


cdef inline bint clone_pcg64(RNGHandle handle, pcg64_clone *clone) except -1:
    """Fill ``clone`` with the current state of ``handle``'s PCG64.

    Stands in for ``copy.deepcopy(generator)`` when the copy is drawn from and
    dropped. Returns False (nothing filled) unless the inline path is enabled
    for this generator.
    """
    cdef bint locked
    if handle.pcg == NULL:
        return False
    locked = handle.lock_draws(False)
    try:
        clone.rng = handle.pcg[0]
        clone.state = (<gs_pcg64_state_t *> handle.bitgen.state)[0]
    finally:
        handle.unlock_draws(locked)
    clone.state.pcg_state = &clone.rng
    clone.bitgen = handle.bitgen[0]
    clone.bitgen.state = &clone.state
    return True


cdef RNGHandle rng_handle(object space)
# Whether kernels may draw PCG64 values inline (set once, by the import-time check).
cdef bint PCG64_INLINE_VERIFIED
# The kernel caches of spaces that are not gymspaces' own: id -> (weak reference, dict).
cdef dict FOREIGN_CACHES
cdef RNGHandle rng_handle_from(dict namespace, object space)
cdef dict cache_namespace(object space, dict namespace)
