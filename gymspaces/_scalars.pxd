# Integer scalars in a dtype's own width: reading numpy/Python integers as raw
# 64-bit patterns and building numpy scalars with numpy's wrap-around semantics.

from libc.stdint cimport INT64_MAX, INT64_MIN, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.long cimport PyLong_AsUnsignedLongLongMask
cimport numpy as cnp

from gymspaces._dtypes cimport element_bits, element_of

cnp.import_array()

cdef extern from *:
    """
    /* numpy integer scalars, less timedelta64 (a signedinteger subclass whose
       value is a duration: Gymnasium's int() of it raises TypeError). */
    static int gymspaces_is_numpy_integer(PyObject *o) {
        return PyArray_IsScalar(o, Integer) && !PyArray_IsScalar(o, Timedelta);
    }

    /* The value of a numpy integer scalar as a sign/zero-extended 64-bit pattern,
       read straight from the scalar object; returns 0 if o is not one. */
    static int gymspaces_integer_scalar_bits(PyObject *o, npy_uint64 *out) {
        PyTypeObject *t = Py_TYPE(o);
        if (t == &PyLongArrType_Type) { *out = (npy_uint64)(npy_int64)PyArrayScalar_VAL(o, Long); return 1; }
        if (t == &PyLongLongArrType_Type) { *out = (npy_uint64)(npy_int64)PyArrayScalar_VAL(o, LongLong); return 1; }
        if (t == &PyIntArrType_Type) { *out = (npy_uint64)(npy_int64)PyArrayScalar_VAL(o, Int); return 1; }
        if (t == &PyShortArrType_Type) { *out = (npy_uint64)(npy_int64)PyArrayScalar_VAL(o, Short); return 1; }
        if (t == &PyByteArrType_Type) { *out = (npy_uint64)(npy_int64)PyArrayScalar_VAL(o, Byte); return 1; }
        if (t == &PyULongArrType_Type) { *out = (npy_uint64)PyArrayScalar_VAL(o, ULong); return 1; }
        if (t == &PyULongLongArrType_Type) { *out = (npy_uint64)PyArrayScalar_VAL(o, ULongLong); return 1; }
        if (t == &PyUIntArrType_Type) { *out = (npy_uint64)PyArrayScalar_VAL(o, UInt); return 1; }
        if (t == &PyUShortArrType_Type) { *out = (npy_uint64)PyArrayScalar_VAL(o, UShort); return 1; }
        if (t == &PyUByteArrType_Type) { *out = (npy_uint64)PyArrayScalar_VAL(o, UByte); return 1; }
        return 0;
    }
    """
    bint is_numpy_integer "gymspaces_is_numpy_integer" (object value)
    bint integer_scalar_bits "gymspaces_integer_scalar_bits" (object value, uint64_t *out)

cdef extern from "numpy/arrayobject.h":
    object PyArray_Scalar(void *data, cnp.dtype descr, object base)
    # np.can_cast(from, to, "safe"): the dtype check of Discrete/MultiDiscrete.contains.
    bint PyArray_CanCastTypeTo(cnp.dtype from_descr, cnp.dtype to_descr, int casting)
    enum: NPY_SAFE_CASTING


cdef inline uint64_t int_bits(object value) except? 0xFFFFFFFFFFFFFFFFULL:
    """Two's-complement bit pattern of an integer (numpy scalar or Python int)."""
    cdef uint64_t u64 = 0
    if integer_scalar_bits(value, &u64):
        return u64
    if is_numpy_integer(value):  # a numpy integer subclass: its value, read back as its type
        cnp.PyArray_ScalarAsCtype(value, &u64)
        return element_bits(<const char *> &u64, element_of(cnp.PyArray_DescrFromScalar(value)), 0)
    return PyLong_AsUnsignedLongLongMask(value.__index__())


cdef inline bint add_overflows(uint64_t a, uint64_t b, bint is_signed, int itemsize) noexcept nogil:
    """Whether ``a + b`` (values of the given integer type) leaves the type's range."""
    cdef int64_t sa, sb, ssum
    cdef uint64_t usum
    if is_signed:
        sa = <int64_t> a
        sb = <int64_t> b
        if itemsize == 8:
            if sb > 0:
                return sa > INT64_MAX - sb
            return sa < INT64_MIN - sb
        ssum = sa + sb
        return ssum != truncate_signed(<uint64_t> ssum, itemsize)
    usum = a + b
    if itemsize == 8:
        return usum < a
    return usum >> (8 * itemsize) != 0


cdef inline int64_t truncate_signed(uint64_t bits, int itemsize) noexcept nogil:
    if itemsize == 1:
        return <int8_t> bits
    if itemsize == 2:
        return <int16_t> bits
    if itemsize == 4:
        return <int32_t> bits
    return <int64_t> bits


cdef inline object make_scalar(cnp.dtype descr, uint64_t bits):
    """numpy scalar of ``descr`` (native byte order) holding ``bits`` truncated to its width."""
    cdef uint64_t value
    store_bits(<char *> &value, <int> descr.itemsize, 0, bits)
    return PyArray_Scalar(&value, descr, None)


cdef inline cnp.dtype native_integer_descr(object dtype):
    """The native-byte-order descr of an integer dtype (results are always native)."""
    cdef cnp.dtype descr = <cnp.dtype?> dtype
    if descr.byteorder == b'>' or descr.byteorder == b'<':
        if not cnp.PyArray_ISNBO(descr.byteorder):
            return cnp.PyArray_DescrFromType(descr.type_num)
    return descr


cdef inline void store_bits(char *data, int itemsize, cnp.npy_intp i, uint64_t value) noexcept nogil:
    """Element ``i`` of a contiguous integer array of width ``itemsize``: the low
    ``itemsize`` bytes of ``value`` (for a signed value that fits, its two's complement)."""
    if itemsize == 1:
        (<uint8_t *> data)[i] = <uint8_t> value
    elif itemsize == 2:
        (<uint16_t *> data)[i] = <uint16_t> value
    elif itemsize == 4:
        (<uint32_t *> data)[i] = <uint32_t> value
    else:
        (<uint64_t *> data)[i] = value
