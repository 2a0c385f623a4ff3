"""What the package's commands (``python -m gymspaces``, ``python -m gymspaces.gymnasium``)
say about an option they do not have."""

from __future__ import annotations

import difflib


def unknown_option(option: str, options: tuple[str, ...]) -> str:
    """``unknown option OPTION``, with the nearest of ``options`` when it looks misspelt.

    By hand rather than argparse's: its suggestions come with Python 3.14 (3.12
    and 3.13 for some cases only); these are the same on 3.10-3.15.

    Examples
    --------
    >>> unknown_option("--reprot", ("--report", "--help"))
    'unknown option --reprot (did you mean --report?)'
    >>> unknown_option("--zzz", ("--report", "--help"))
    'unknown option --zzz'
    """
    nearest = difflib.get_close_matches(option, options, n=1, cutoff=0.6)
    return f"unknown option {option}" + (f" (did you mean {nearest[0]}?)" if nearest else "")
