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
    /* The 128-bit arithmetic comes one of three ways (GS_PCG64_PATH):
     *   "int128"    the compiler's unsigned __int128 (gcc, clang);
     *   "msvc"      two 64-bit words, a 64x64-bit product's 128 bits from the
     *               compiler's intrinsics (_umul128 on x64, __umulh on ARM64:
     *               MSVC has no __int128);
     *   "portable"  two 64-bit words, that product's high half from 32-bit
     *               halves (seven multiplies a step where the others take three).
     * GYMSPACES_NO_INT128=1 (setup.py) forces "portable" on any compiler. */
    #ifndef GYMSPACES_NO_INT128
    #define GYMSPACES_NO_INT128 0
    #endif
    #if defined(__SIZEOF_INT128__) && !GYMSPACES_NO_INT128
    #define GS_HAVE_UINT128 1
    #define GS_PCG64_PATH "int128"
    typedef unsigned __int128 gs_uint128_t;
    #else
    #define GS_HAVE_UINT128 0
    #if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_ARM64)) \
        && !GYMSPACES_NO_INT128
    #include <intrin.h>
    #define GS_PCG64_PATH "msvc"
    #else
    #define GS_PCG64_PATH "portable"
    #endif
    /* The words in the order of numpy's pcg128_t, whose memory is read in
     * place: a compiler with __int128 built numpy on the native integer
     * (least significant word first on a little-endian machine); one without
     * it, on numpy's {high, low} struct. */
    #if defined(__SIZEOF_INT128__) && !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    typedef struct { uint64_t low, high; } gs_uint128_t;
    #else
    typedef struct { uint64_t high, low; } gs_uint128_t;
    #endif
    #endif
    typedef struct { gs_uint128_t state; gs_uint128_t inc; } gs_pcg128_t;
    /* numpy's pcg64_state: pointer to the LCG, then the buffered 32-bit half. */
    typedef struct { gs_pcg128_t *pcg_state; int has_uint32; uint32_t uinteger; } gs_pcg64_state_t;

    static inline gs_uint128_t gs_u128(uint64_t high, uint64_t low) {
    #if GS_HAVE_UINT128
        return ((gs_uint128_t)high << 64) | low;
    #else
        gs_uint128_t x;
        x.high = high;
        x.low = low;
        return x;
    #endif
    }

    static inline uint64_t gs_u128_high(gs_uint128_t x) {
    #if GS_HAVE_UINT128
        return (uint64_t)(x >> 64);
    #else
        return x.high;
    #endif
    }

    static inline uint64_t gs_u128_low(gs_uint128_t x) {
    #if GS_HAVE_UINT128
        return (uint64_t)x;
    #else
        return x.low;
    #endif
    }

    #if !GS_HAVE_UINT128
    /* The 128-bit product a * b: returns its low word, stores its high word. */
    static inline uint64_t gs_mul64wide(uint64_t a, uint64_t b, uint64_t *high) {
    #if defined(_MSC_VER) && defined(_M_X64) && !GYMSPACES_NO_INT128
        return _umul128(a, b, high);  /* one multiply instruction, as with __int128 */
    #elif defined(_MSC_VER) && defined(_M_ARM64) && !GYMSPACES_NO_INT128
        *high = __umulh(a, b);
        return a * b;
    #else
        const uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
        const uint64_t p10 = a1 * b0;
        /* The product's bits from 32 up, but for a1 * b1 and the top half of
         * p10: at most (2**32 - 1) * (2**32 + 1) < 2**64, so nothing overflows,
         * and one 64-bit term (a0 * b1) needs no split. */
        const uint64_t middle = ((a0 * b0) >> 32) + (uint32_t)p10 + a0 * b1;
        *high = a1 * b1 + (p10 >> 32) + (middle >> 32);
        return a * b;
    #endif
    }
    #endif

    /* s * m + c modulo 2**128: the LCG step when m and c are the multiplier
     * and the increment. */
    static inline gs_uint128_t gs_u128_muladd(gs_uint128_t s, gs_uint128_t m, gs_uint128_t c) {
    #if GS_HAVE_UINT128
        return s * m + c;
    #else
        /* Of the four word products only s.low * m.low reaches both words;
         * the cross products keep their low halves (the rest is >= 2**128)
         * and s.high * m.high vanishes altogether. */
        uint64_t high;
        const uint64_t low = gs_mul64wide(s.low, m.low, &high);
        gs_uint128_t r;
        high += s.low * m.high + s.high * m.low;
        r.low = low + c.low;
        r.high = high + c.high + (r.low < low);
        return r;
    #endif
    }

    static inline gs_uint128_t gs_pcg64_multiplier(void) {
        return gs_u128(2549297995355413924ULL, 4865540595714422341ULL);
    }

    /* XSL-RR: the two words xored, rotated right by the top six bits. */
    static inline uint64_t gs_pcg64_xsl_rr(gs_uint128_t state) {
        const uint64_t high = gs_u128_high(state);
        const uint64_t folded = high ^ gs_u128_low(state);
        const unsigned rotation = (unsigned)(high >> 58);
        return (folded >> rotation) | (folded << ((64u - rotation) & 63u));
    }

    static inline uint64_t gs_pcg64_next64(gs_pcg128_t *rng) {
        const gs_uint128_t state = gs_u128_muladd(rng->state, gs_pcg64_multiplier(), rng->inc);
        rng->state = state;
        return gs_pcg64_xsl_rr(state);
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
    static inline void gs_pcg64_fill_raw(gs_pcg128_t *rng, uint64_t *out, Py_ssize_t n) {
        const gs_uint128_t m = gs_pcg64_multiplier();
        Py_ssize_t i = 0;
        if (n >= 16) {
            const gs_uint128_t zero = gs_u128(0, 0), c = rng->inc;
            const gs_uint128_t m2 = gs_u128_muladd(m, m, zero), m4 = gs_u128_muladd(m2, m2, zero);
            const gs_uint128_t c2 = gs_u128_muladd(c, m, c);     /* c (M + 1) */
            const gs_uint128_t c4 = gs_u128_muladd(c2, m2, c2);  /* c (M + 1) (M^2 + 1) */
            gs_uint128_t s0 = gs_u128_muladd(rng->state, m, c);
            gs_uint128_t s1 = gs_u128_muladd(s0, m, c);
            gs_uint128_t s2 = gs_u128_muladd(s1, m, c);
            gs_uint128_t s3 = gs_u128_muladd(s2, m, c);
            gs_uint128_t last = s3;
            for (; i + 4 <= n; i += 4) {
                out[i] = gs_pcg64_xsl_rr(s0);
                out[i + 1] = gs_pcg64_xsl_rr(s1);
                out[i + 2] = gs_pcg64_xsl_rr(s2);
                out[i + 3] = gs_pcg64_xsl_rr(s3);
                last = s3;
                s0 = gs_u128_muladd(s0, m4, c4);
                s1 = gs_u128_muladd(s1, m4, c4);
                s2 = gs_u128_muladd(s2, m4, c4);
                s3 = gs_u128_muladd(s3, m4, c4);
            }
            rng->state = last;  /* the state of draw i - 1 */
        }
        for (; i < n; ++i) {
            out[i] = gs_pcg64_next64(rng);
        }
    }

    """
    const char *GS_PCG64_PATH
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
    # Discrete's parameter cache (filled by _discrete._cache_discrete_params;
    # only with a GIL: a free-threaded build derives the parameters per call).
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
