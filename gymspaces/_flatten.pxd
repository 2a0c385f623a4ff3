# The checked entries of the flatten kernels, for patch mode's compiled rules
# (gymspaces/gymnasium/_calls.pyx): each answers Gymnasium's result, or None
# where it leaves the call to the general path (see "Checked entries" in _flatten.pyx).

cpdef object flatten_checked(space, x)
cpdef object unflatten_checked(space, x)
cpdef object flatdim_checked(space)
cpdef bint cast_is_quiet(object x, object target) except -1
