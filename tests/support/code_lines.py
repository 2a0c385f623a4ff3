"""Code lines of a source file: what the size budgets of patch mode and its profiler count.

A line counts when it holds code: a token that is neither a comment nor part
of a docstring (a string standing alone as a statement: a module's, class's
or function's docstring, or an attribute's below its assignment). Blank
lines, comments and docstrings do not count; stubs
(``.pyi``) and Cython declarations (``.pxd``) do. Cython sources are read
with Python's tokenizer, which takes their extra syntax (``cdef``, ``<type>
value``, ``&x``) as names and operators; C code written verbatim in a
``cdef extern from *`` block is code, not a docstring.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

__all__ = ["code_lines"]

_NOT_CODE = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)


def code_lines(path: Path) -> int:
    """The number of lines of ``path`` that hold code."""
    lines: set[int] = set()
    statement: list[tokenize.TokenInfo] = []  # the tokens of the logical line being read
    previous: list[tokenize.TokenInfo] = []  # those of the logical line before it
    for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER) and statement:
            docstring = all(item.type == tokenize.STRING for item in statement)
            verbatim_c = bool(previous) and previous[0].string == "cdef" and previous[1].string == "extern"
            if not docstring or verbatim_c:
                for item in statement:
                    lines.update(range(item.start[0], item.end[0] + 1))
            previous, statement = statement, []
        elif token.type not in _NOT_CODE:
            statement.append(token)
    return len(lines)
