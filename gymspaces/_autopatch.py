"""Start-up hook: patch Gymnasium in an interpreter started with ``GYMSPACES_PATCH`` on.

``GYMSPACES_PATCH`` is on for ``1``, ``true``, ``yes`` or ``on`` and off for
``0``, ``false``, ``no``, ``off`` or an empty value (case and surrounding
whitespace ignored); any other value leaves Gymnasium unpatched, with a
RuntimeWarning.

``gymspaces-patch.pth`` (installed at the top of site-packages) imports this
module only when the variable is set to something other than an off value, so
an interpreter without it pays one environment lookup.
``python -m gymspaces.gymnasium`` sets ``GYMSPACES_PATCH=1``, so the processes
its program starts (``AsyncVectorEnv`` workers under any start method, Ray
workers) are patched too. With ``GYMSPACES_REPORT`` set as well (``--report``),
they record, and write their counts for the report at exit.

The hook never raises: an exception in a ``.pth`` file prints a traceback at
every start-up. Whatever fails becomes one RuntimeWarning and leaves Gymnasium
unpatched.
"""

from __future__ import annotations

import os
import sys
import warnings

ON = frozenset({"1", "true", "yes", "on"})
OFF = frozenset({"", "0", "false", "no", "off"})  # gymspaces-patch.pth holds the same values


def requested(value: str | None) -> bool | None:
    """Whether a ``GYMSPACES_PATCH`` value turns patching on.

    Parameters
    ----------
    value : str or None
        The variable's value; ``None`` when it is not set.

    Returns
    -------
    bool or None
        ``True`` for an on value, ``False`` for an off value (and for
        ``None``), ``None`` for a value that is not understood.

    Examples
    --------
    >>> requested(" Yes "), requested("0"), requested(None), requested("maybe")
    (True, False, False, None)
    """
    value = (value or "").strip().lower()
    return True if value in ON else False if value in OFF else None


def _warn(message: str) -> None:
    # Line 0: the warning is one line, without a source line under it.
    try:
        warnings.warn_explicit(message, RuntimeWarning, __file__, 0, module=__name__)
    except Exception:  # -W error makes it an exception, a traceback at start-up: show it as a warning
        warnings.showwarning(message, RuntimeWarning, __file__, 0)


def _start() -> None:
    value = os.environ.get("GYMSPACES_PATCH")
    wanted = requested(value)
    if wanted is None:
        _warn(
            f"GYMSPACES_PATCH={value!r} is not understood (on: 1, true, yes, on; off: 0, false, no, off, empty): "
            "Gymnasium is not patched"
        )
    elif wanted:
        try:
            from gymspaces.gymnasium import patch

            # Started by a program that records (``--report``): record too,
            # for its report (gymspaces.gymnasium._report).
            patch(report=bool(os.environ.get("GYMSPACES_REPORT")))
        except Exception as error:
            _unpatch()
            _warn(f"GYMSPACES_PATCH is set but gymspaces cannot patch Gymnasium: {type(error).__name__}: {error}")


def _unpatch() -> None:
    # After a patch() that failed part-way: back to plain Gymnasium, as far as it goes.
    module = sys.modules.get("gymspaces.gymnasium")
    try:
        module.unpatch()  # type: ignore[union-attr]
    except Exception:  # not imported, or cannot: nothing more to do
        pass


_start()
