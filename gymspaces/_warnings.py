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
