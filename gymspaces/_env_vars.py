"""The on and off values of gymspaces' environment variables, read one way.

A variable is on for ``1``, ``true``, ``yes`` or ``on`` and off for ``0``,
``false``, ``no``, ``off`` or an empty value, case and surrounding whitespace
ignored; unset, it is off. What another value does is its reader's to say:
``GYMSPACES_PATCH`` warns, ``GYMSPACES_PATCH_UNVERIFIED`` takes it as off.

Two readers hold copies of these values instead of importing them, because
they run at start-up, where importing this module would import the package
(NumPy and the kernels with it): ``gymspaces-patch.pth`` (its off values) and
the start-up hook ``gymspaces._autopatch``. tests/project/test_env_vars.py
checks that they agree with this module.
"""

import os

ON = ("1", "true", "yes", "on")
OFF = ("0", "false", "no", "off", "")


def flag(name: str) -> bool | None:
    """Whether the environment variable ``name`` is on.

    Parameters
    ----------
    name : str
        The variable, e.g. ``"GYMSPACES_PATCH_UNVERIFIED"``.

    Returns
    -------
    bool or None
        ``True`` for an on value, ``False`` for an off value or when it is
        not set, ``None`` for a value that is neither.

    Examples
    --------
    >>> import os
    >>> os.environ["GYMSPACES_EXAMPLE"] = " Yes "
    >>> flag("GYMSPACES_EXAMPLE"), flag("GYMSPACES_NOT_SET")
    (True, False)
    >>> os.environ["GYMSPACES_EXAMPLE"] = "maybe"
    >>> flag("GYMSPACES_EXAMPLE")
    >>> del os.environ["GYMSPACES_EXAMPLE"]
    """
    value = os.environ.get(name, "").strip().lower()
    return True if value in ON else False if value in OFF else None
