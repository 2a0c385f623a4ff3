"""Plain-text tables of the bench reports: aligned columns, durations with their unit, lines that fit."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Collection, Iterable, Sequence

WIDTH = 100
"""The widest line the bench prints."""


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
        The rows, header first, each with as many cells as the header, or
        with two: the first cell and a text that runs on past the first
        column (a row that has no figures, saying why).
    rules_after : collection of int
        Indices of the rows followed by a rule of dashes (default: the header).

    Returns
    -------
    list of str
        One line per row and rule, without trailing spaces.
    """
    full = [row for row in table if len(row) == len(table[0])]
    widths = [max(len(row[i]) for row in full) for i in range(len(table[0]))]
    lines = []
    for index, cells in enumerate(table):
        if len(cells) < len(widths):
            text = "  ".join([cells[0].ljust(widths[0]), *cells[1:]])
        else:
            text = "  ".join(
                cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in enumerate(zip(cells, widths))
            )
        lines.append(text.rstrip())
        if index in rules_after:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def fit(lines: Iterable[str], width: int = WIDTH) -> list[str]:
    """``lines`` with every line wider than ``width`` wrapped at spaces.

    A wrapped line continues under its text, past a leading ``"note: "`` or
    indentation, so that notes stay readable as paragraphs.

    Examples
    --------
    >>> fit(["note: " + "word " * 5], width=20)
    ['note: word word word', '      word word']
    """
    fitted = []
    for line in lines:
        if len(line) <= width:
            fitted.append(line)
            continue
        indent = " " * len(re.match(r"\s*(?:[a-z]+: )?", line).group())  # type: ignore[union-attr]
        fitted.extend(
            textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False)
        )
    return fitted


__all__ = ["WIDTH", "aligned", "duration", "fit"]
