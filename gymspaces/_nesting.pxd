# How deep the kernels' walks of Dict/Tuple trees go.
#
# The walks recurse on the C stack, where a tree nested deep enough would
# overflow it (a segfault), and where Python 3.12+ no longer applies the
# recursion limit. A tree nested deeper than MAX_KERNEL_DEPTH levels is left
# to the Python implementation, which recurses in Python frames and so raises
# RecursionError where Gymnasium's does. Real observation spaces nest a few
# levels; the walks that must answer themselves (``contains``) count against
# ``sys.getrecursionlimit()`` instead (see _contains.pyx).

cdef enum:
    MAX_KERNEL_DEPTH = 64
