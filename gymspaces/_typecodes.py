"""Which numpy dtypes ``multiprocessing`` holds as typed shared arrays (imports nothing).

``multiprocessing.sharedctypes`` maps its own table of typecodes to ctypes
types; a numpy dtype whose character is not in it (float16, long double,
the complex types) has no typed shared array on any CPython. ``array``'s
typecodes are not that table: 3.15 adds ``'e'`` (float16) to them while
``multiprocessing`` still refuses it.
"""

from __future__ import annotations

SHARED_ARRAY_TYPECODES = "bBhHiIlLqQfd"
"""The numpy dtype characters ``multiprocessing.sharedctypes`` accepts, on CPython 3.10-3.15.

Written out rather than read from ``multiprocessing`` so that knowing it
imports neither ``multiprocessing`` nor ``ctypes``; a test compares it with
the running interpreter's table.
"""
