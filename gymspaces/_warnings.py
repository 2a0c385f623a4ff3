"""Warnings formatted the way Gymnasium's logger formats them."""

from __future__ import annotations

import warnings

_YELLOW = "\x1b[33m"
_RESET = "\x1b[0m"


def warn(message: str, *, stacklevel: int = 2) -> None:
    """Emit ``message`` as a yellow ``"WARN: ..."`` :class:`UserWarning`.

    Gymnasium users filter these by text, so the wording and colour codes match.
    """
    warnings.warn(f"{_YELLOW}WARN: {message}{_RESET}", UserWarning, stacklevel=stacklevel + 1)


_OVERFLOW_MESSAGES: dict[object, str] = {}


def scalar_overflow_message(dtype: object) -> str:
    """The text of numpy's warning when adding two ``dtype`` scalars overflows.

    numpy 2 says ``"overflow encountered in scalar add"``, numpy 1.x names the
    C type (``"overflow encountered in byte_scalars"``): the installed numpy is
    asked once per dtype, so gymspaces warns exactly as Gymnasium's scalar
    arithmetic does.
    """
    message = _OVERFLOW_MESSAGES.get(dtype)
    if message is None:
        import numpy as np

        scalar = np.dtype(dtype).type  # type: ignore[call-overload]
        with warnings.catch_warnings(record=True) as caught, np.errstate(over="warn"):
            warnings.simplefilter("always")
            scalar(np.iinfo(scalar).max) + scalar(1)
        message = str(caught[0].message) if caught else "overflow encountered in scalar add"
        _OVERFLOW_MESSAGES[dtype] = message
    return message
