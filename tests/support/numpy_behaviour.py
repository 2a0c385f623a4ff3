"""What the installed numpy does where numpy versions differ, read from numpy itself.

gymspaces follows the installed numpy wherever numpy versions differ (as
Gymnasium does on it), so tests derive such expectations from numpy at run time
instead of assuming one version's behaviour.
"""

from __future__ import annotations

import warnings

import numpy as np


def _rejects_out_of_bound_python_ints() -> bool:
    # numpy >= 2 raises OverflowError; 1.24-1.26 wrap with a DeprecationWarning; 1.23 wraps.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            np.array([300], dtype=np.int8)
        except OverflowError:
            return True
    return False


#: Whether converting a Python integer outside a dtype's range (300 to int8) is an error.
REJECTS_OUT_OF_BOUND_PYTHON_INTS = _rejects_out_of_bound_python_ints()
