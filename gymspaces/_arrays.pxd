# Array attributes of a space (Box bounds, MultiDiscrete nvec and start) as
# the kernels' C loops read them.

cimport numpy as cnp

import numpy as np


cdef inline cnp.ndarray as_c_array(object values, int type_num):
    """``values`` as a C-contiguous native array of ``type_num``, without copying if it is one."""
    if (cnp.PyArray_Check(values) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> values)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray> values)
            and cnp.PyArray_TYPE(<cnp.ndarray> values) == type_num):
        return <cnp.ndarray> values
    return np.ascontiguousarray(values, dtype=cnp.PyArray_DescrFromType(type_num))
