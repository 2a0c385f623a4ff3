"""Kernels of Graph sampling: the edge count, the edge links, batched Box bounds.

Gymnasium 1.4.0 makes two Generator calls on the Graph's own generator:

* ``integers(num_nodes * (num_nodes - 1))`` for the number of edges -> one
  bounded int64 draw (``random_bounded_uint64_fill``, off 0, range high - 1);
* ``integers(0, num_nodes, size=(num_edges, 2), dtype=int32)`` for the links ->
  ``random_bounded_uint32_fill`` over the whole array in C order.

Both functions expect arguments already validated by ``Graph.sample``; they
only draw, under the bit generator's lock, exactly as those calls would.

``box_batch_bounds`` builds the bounds of ``batch_space(Box, n)`` -- which
Gymnasium rebuilds on every Graph sample -- in one pass instead of a dozen
numpy calls.
"""

cimport numpy as cnp
from libc.math cimport INFINITY
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memset
from numpy cimport npy_bool, npy_intp

from gymspaces._categorical cimport draw_index
from gymspaces._distributions cimport random_bounded_uint32_fill
from gymspaces._rng cimport NOGIL_THRESHOLD, RNGHandle, rng_handle

cnp.import_array()



def integers_below(space, uint64_t high):
    """One ``space.np_random.integers(high)`` draw (int64 routine), as a Python int.

    Parameters
    ----------
    space : Space
        Its ``np_random`` is used (and lazily seeded, as the property does).
    high : int
        Exclusive upper bound, ``1 <= high <= 2**63 - 1``.
    """
    if high == 0:
        raise ValueError("high <= 0")
    return draw_index(rng_handle(space), high)


def graph_num_edges(space, uint64_t num_nodes):
    """Number of edges of a Graph sample: ``integers(num_nodes * (num_nodes - 1))``.

    ``num_nodes`` must be at least 2 and the product must fit in an int64.
    """
    if num_nodes < 2:
        raise ValueError("a graph needs two nodes to draw its number of edges")
    return integers_below(space, num_nodes * (num_nodes - 1))


def graph_edge_links(space, uint64_t num_nodes, npy_intp num_edges):
    """Edge links of a Graph sample: an int32 array of shape ``(num_edges, 2)``.

    Same draws as ``integers(0, num_nodes, size=(num_edges, 2), dtype=int32)``:
    one Lemire-32 draw per entry in C order, none when ``num_nodes == 1``.
    ``1 <= num_nodes <= 2**31`` and ``num_edges >= 0`` are the caller's duty.
    """
    cdef npy_intp dims[2]
    cdef npy_intp count
    cdef cnp.ndarray out
    cdef uint32_t *data
    cdef uint32_t span
    cdef RNGHandle handle
    if num_nodes == 0 or num_nodes > 0x80000000ULL:
        raise ValueError("high is out of bounds for int32")
    if num_edges < 0:
        raise ValueError("negative dimensions are not allowed")
    dims[0] = num_edges
    dims[1] = 2
    count = num_edges * 2
    span = <uint32_t> (num_nodes - 1)
    out = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT32, 0)
    data = <uint32_t *> cnp.PyArray_DATA(out)
    handle = rng_handle(space)
    cdef bint bulk = count > NOGIL_THRESHOLD
    cdef bint locked = handle.lock_draws(bulk)
    try:
        if bulk:
            with nogil:
                random_bounded_uint32_fill(handle.bitgen, 0, span, count, False, data)
        else:
            random_bounded_uint32_fill(handle.bitgen, 0, span, count, False, data)
    finally:
        handle.unlock_draws(locked)
    return out


# ----------------------------------------------------------------------------
# Batched Box bounds
# ----------------------------------------------------------------------------

ctypedef fused real_t:
    float
    double


cdef bint real_flags(const real_t *low, const real_t *high, npy_bool *below,
                     npy_bool *above, npy_intp size) noexcept nogil:
    """Boundedness flags of one row; False if any bound is NaN or above its
    high (the constructor objects: its message, not a sampling error)."""
    cdef npy_intp i
    for i in range(size):
        if low[i] != low[i] or high[i] != high[i] or low[i] > high[i]:
            return False
        below[i] = low[i] > -INFINITY
        above[i] = high[i] < INFINITY
    return True


cdef void repeat_rows(char *data, npy_intp row_bytes, npy_intp n) noexcept nogil:
    """Copy the first ``row_bytes`` of ``data`` into the ``n - 1`` rows after it."""
    cdef npy_intp i
    for i in range(1, n):
        memcpy(data + i * row_bytes, data, row_bytes)


cdef cnp.ndarray tiled_like(cnp.ndarray row, npy_intp n, int type_num):
    """An ``(n, *row.shape)`` C array of ``type_num`` whose first row is ``row``'s data."""
    cdef int ndim = cnp.PyArray_NDIM(row)
    cdef npy_intp dims[33]
    cdef int i
    dims[0] = n
    for i in range(ndim):
        dims[i + 1] = cnp.PyArray_DIM(row, i)
    out = cnp.PyArray_EMPTY(ndim + 1, dims, type_num, 0)
    return out


def box_batch_bounds(low, high, npy_intp n):
    """Tiled bounds and boundedness of ``batch_space(Box, n)``, or ``None``.

    Returns ``(low, high, bounded_below, bounded_above)`` with shape
    ``(n, *low.shape)``: the arrays the Box constructor would hold for bounds
    ``np.tile(low, (n, 1, ...))`` (boundedness derived from the values, so
    integer boxes are bounded everywhere). ``None`` -- the caller then takes
    the general path -- for NaN bounds, a low above its high, float16,
    non-native byte order, mismatched shapes or more than 31 dimensions.
    """
    cdef cnp.ndarray lo, hi, lo_t, hi_t, below_t, above_t
    cdef npy_intp size, row_bytes
    cdef int type_num
    cdef bint ok = True
    if not (cnp.PyArray_Check(low) and cnp.PyArray_Check(high)) or n < 1:
        return None
    lo = <cnp.ndarray> low
    hi = <cnp.ndarray> high
    type_num = cnp.PyArray_TYPE(lo)
    if (cnp.PyArray_TYPE(hi) != type_num or not cnp.PyArray_SAMESHAPE(lo, hi)
            or cnp.PyArray_NDIM(lo) > 31 or not cnp.PyArray_ISNOTSWAPPED(lo)
            or not cnp.PyArray_ISNOTSWAPPED(hi)):
        return None
    if not (cnp.PyTypeNum_ISINTEGER(type_num) or cnp.PyTypeNum_ISBOOL(type_num)
            or type_num == cnp.NPY_FLOAT or type_num == cnp.NPY_DOUBLE):
        return None
    lo = cnp.PyArray_GETCONTIGUOUS(lo)
    hi = cnp.PyArray_GETCONTIGUOUS(hi)
    size = cnp.PyArray_SIZE(lo)
    row_bytes = cnp.PyArray_NBYTES(lo)
    lo_t = tiled_like(lo, n, type_num)
    hi_t = tiled_like(lo, n, type_num)
    below_t = tiled_like(lo, n, cnp.NPY_BOOL)
    above_t = tiled_like(lo, n, cnp.NPY_BOOL)
    cdef char *lo_p = <char *> cnp.PyArray_DATA(lo_t)
    cdef char *hi_p = <char *> cnp.PyArray_DATA(hi_t)
    cdef npy_bool *below_p = <npy_bool *> cnp.PyArray_DATA(below_t)
    cdef npy_bool *above_p = <npy_bool *> cnp.PyArray_DATA(above_t)
    memcpy(lo_p, cnp.PyArray_DATA(lo), row_bytes)
    memcpy(hi_p, cnp.PyArray_DATA(hi), row_bytes)
    if type_num == cnp.NPY_FLOAT:
        ok = real_flags(<float *> lo_p, <float *> hi_p, below_p, above_p, size)
    elif type_num == cnp.NPY_DOUBLE:
        ok = real_flags(<double *> lo_p, <double *> hi_p, below_p, above_p, size)
    else:
        memset(below_p, 1, size)
        memset(above_p, 1, size)
        ok = not (lo > hi).any()
    if not ok:
        return None
    repeat_rows(lo_p, row_bytes, n)
    repeat_rows(hi_p, row_bytes, n)
    repeat_rows(<char *> below_p, size, n)
    repeat_rows(<char *> above_p, size, n)
    return lo_t, hi_t, below_t, above_t
