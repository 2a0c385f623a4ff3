"""Plain-text tables of the bench reports: aligned columns and durations with their unit."""

from __future__ import annotations

from collections.abc import Collection, Sequence


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


def aligned(table: Sequence[Sequence[str]], rules_after: Collection[int] = (0,)) -> list[str]:
    """The lines of ``table``: the first column left-aligned, the others right-aligned.

    Parameters
    ----------
    table : sequence of sequences of str
        The rows, header first, each with as many cells as the header.
    rules_after : collection of int
        Indices of the rows followed by a rule of dashes (default: the header).

    Returns
    -------
    list of str
        One line per row and rule, without trailing spaces.
    """
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = []
    for index, cells in enumerate(table):
        text = "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(cells, widths)))
        lines.append(text.rstrip())
        if index in rules_after:
            lines.append("  ".join("-" * w for w in widths))
    return lines


__all__ = ["aligned", "duration"]
