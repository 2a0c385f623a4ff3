"""glibc's allocator at fixed thresholds, the same in every bench process.

By default glibc moves its mmap threshold up as a program frees large
blocks, and returns memory at the top of the heap to the system when more
than its trim threshold is free. Which large blocks come from the heap and
which from fresh pages then depends on what the process freed before, so an
allocation-heavy case runs another path from one process to the next:
Gymnasium's ``Box(0, 255, (84, 84, 3), uint8).sample()`` took 1,207 µs in
one process and 589 µs in the next (a median of 200 blocks each), 267 to
272 µs in each of six processes with the thresholds fixed (this 2-core
machine, idle). A count fixes them in its child's environment
(:data:`FIXED_MALLOC`, read by glibc at start-up); a timed run fixes the same
values in its own process with ``mallopt`` (:func:`fix_allocator`), before
the suite sets up its first case.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform

FIXED_MALLOC = {
    "MALLOC_MMAP_THRESHOLD_": "131072",
    "MALLOC_TRIM_THRESHOLD_": "1073741824",
    "MALLOC_TOP_PAD_": "16777216",
}
"""The thresholds as glibc's environment variables, for a process started with them (a count's child)."""
_OPTIONS = {  # mallopt's parameter of each variable (glibc's malloc.h)
    "MALLOC_TRIM_THRESHOLD_": -1,  # M_TRIM_THRESHOLD
    "MALLOC_TOP_PAD_": -2,  # M_TOP_PAD
    "MALLOC_MMAP_THRESHOLD_": -3,  # M_MMAP_THRESHOLD
}


def fix_allocator() -> bool:
    """Set :data:`FIXED_MALLOC` in this process with glibc's ``mallopt``; whether it could (glibc only).

    Setting a threshold explicitly also stops glibc from moving the mmap
    threshold later, as the environment variables do.
    """
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return all(mallopt(_OPTIONS[name], int(value)) == 1 for name, value in FIXED_MALLOC.items())


__all__ = ["FIXED_MALLOC", "fix_allocator"]
