"""Patch mode and its profiler stay within their size budgets (code lines, tests/support/code_lines.py).

Patch mode is ``gymspaces/gymnasium/`` without ``profiler/``: at most 2,000 code
lines, the profiler at most 1,200, no file over 400, stubs and Cython
declarations counted. A budget is what keeps "why did this call run
Gymnasium's code?" answerable from a few files.
"""

from pathlib import Path

import pytest

from tests.support.code_lines import code_lines

GYMNASIUM_LAYER = Path(__file__).resolve().parents[2] / "gymspaces" / "gymnasium"
SOURCES = (".py", ".pyx", ".pyi", ".pxd")
BUDGETS = {"patch mode": 2000, "profiler": 1200}
MOST_PER_FILE = 400


def _parts() -> dict[str, list[Path]]:
    files = sorted(path for path in GYMNASIUM_LAYER.rglob("*") if path.suffix in SOURCES)
    profiler = GYMNASIUM_LAYER / "profiler"
    return {
        "patch mode": [path for path in files if profiler not in path.parents],
        "profiler": [path for path in files if profiler in path.parents],
    }


@pytest.mark.parametrize("part", list(BUDGETS))
def test_each_part_of_the_gymnasium_layer_keeps_its_budget(part: str) -> None:
    files = _parts()[part]
    assert files
    counts = {path.relative_to(GYMNASIUM_LAYER).as_posix(): code_lines(path) for path in files}
    assert sum(counts.values()) <= BUDGETS[part], counts
    assert {name: count for name, count in counts.items() if count > MOST_PER_FILE} == {}


def test_the_count_leaves_out_comments_blank_lines_and_docstrings(tmp_path: Path) -> None:
    source = tmp_path / "example.pyx"
    source.write_text(
        '"""Module docstring,\nover two lines."""\n\n'
        "# a comment\n"
        "ANSWER = 42  # counted\n"
        '"""An attribute\'s docstring."""\n\n'
        "def f(x):\n"
        '    """A function\'s docstring."""\n'
        "    return (x +\n"
        "            1)\n\n"
        "cdef extern from *:\n"
        '    """\n'
        "    #define TWICE(x) (2 * (x))\n"
        '    """\n'
        "    int TWICE(int x)\n"
    )
    # ANSWER, def, return (two lines), cdef extern, the C block (three lines with its quotes), int TWICE.
    assert code_lines(source) == 9
