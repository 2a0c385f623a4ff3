"""Plain-text tables of the bench reports: durations with their unit."""

from __future__ import annotations


def duration(seconds: float | None) -> str:
    """``seconds`` in s, ms or us with three significant digits (``"-"`` for no figure).

    Examples
    --------
    >>> duration(0.000148), duration(0.5543), duration(None)
    ('148.0 us', '554.3 ms', '-')
    """
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            break
    value = seconds / scale
    digits = 3 if value < 10 else 2 if value < 100 else 1
    return f"{value:.{digits}f} {unit}"


__all__ = ["duration"]
