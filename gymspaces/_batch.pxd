# The compiled concatenate of a tree, called in C by patch mode's rules (gymspaces/gymnasium/_calls.pyx).
cpdef object concatenate_tree(space, items, out, fallback)
