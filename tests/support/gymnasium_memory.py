"""Gymnasium 1.4.0's shared memory for the differential tests, on every CPython (quirk Q33).

Gymnasium makes a fixed-shape leaf's memory with the dtype's ``array``
typecode where ``array`` has one, and with raw bytes otherwise. CPython 3.15
gives ``array`` a float16 typecode (``'e'``) that ``multiprocessing`` still
refuses, so there Gymnasium cannot make float16 memory at all: it raises
TypeError. The tests that compare what both libraries write and read still
need Gymnasium's memory for float16 leaves; :func:`gymnasium_shared_memory`
gives what Gymnasium's own code makes on 3.10-3.14.
"""

from __future__ import annotations

import array
import multiprocessing
import sys
from multiprocessing.sharedctypes import typecode_to_type
from types import ModuleType
from typing import Any

import gymnasium.vector.utils as gym_vector

# array's typecodes that multiprocessing refuses: ('e',) on 3.15, none before.
REFUSED_ARRAY_TYPECODES = tuple(code for code in array.typecodes if code not in typecode_to_type and len(code) == 1
                                and code not in "uw")  # characters, never a numpy dtype's
"""The numpy dtype characters Gymnasium 1.4.0 cannot make shared memory for on this Python."""


def gymnasium_shared_memory(space: Any, n: int = 1, ctx: ModuleType = multiprocessing) -> Any:
    """``gymnasium.vector.utils.create_shared_memory(space, n, ctx)`` as Gymnasium 1.4.0 makes it on CPython 3.10-3.14.

    Where this Python's ``array`` has a typecode ``multiprocessing`` refuses,
    Gymnasium's own code runs with ``array``'s typecodes of 3.14, so such a
    leaf gets the raw bytes it gets there.
    """
    if not REFUSED_ARRAY_TYPECODES:
        return gym_vector.create_shared_memory(space, n, ctx)
    module = sys.modules["gymnasium.vector.utils.shared_memory"]
    typecodes = module.typecodes
    module.typecodes = tuple(code for code in typecodes if code not in REFUSED_ARRAY_TYPECODES)
    try:
        return gym_vector.create_shared_memory(space, n, ctx)
    finally:
        module.typecodes = typecodes
