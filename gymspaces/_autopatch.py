"""Start-up hook: patch Gymnasium in an interpreter started with ``GYMSPACES_PATCH=1``.

Imported by ``gymspaces-patch.pth`` (installed at the top of site-packages)
only when the variable is set, so an interpreter without it pays one
environment lookup. ``python -m gymspaces.gymnasium`` sets the variable, so
the processes its program starts (``AsyncVectorEnv`` workers under any start
method, Ray workers) are patched too. Importing this module with the variable
unset does nothing.
"""

from __future__ import annotations

import os
import warnings

if os.environ.get("GYMSPACES_PATCH", "") not in ("", "0"):
    try:
        from gymspaces.gymnasium import patch
    except ImportError as error:  # Gymnasium (or a build of gymspaces) is missing
        warnings.warn(
            f"GYMSPACES_PATCH is set but gymspaces cannot patch Gymnasium: {error}", RuntimeWarning, stacklevel=1
        )
    else:
        patch()
