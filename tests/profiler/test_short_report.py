"""The short report's lines, from counts given directly: per group of processes, what ran compiled and
how many operations it leaves out; lines within the width, never broken inside a figure."""

from __future__ import annotations

from gymspaces.gymnasium.profiler import report as _report
from gymspaces.gymnasium.profiler.estimate import Group


def test_a_line_is_never_broken_inside_a_figure():
    text = (
        "  4 child processes: ~1.36x faster than plain (5.92 s run summed, since each started, plain about "
        "8.06 s), 12 calls, 1.25 ms and 4.5 us"
    )
    for width in range(60, 101):
        saved, _report.WIDTH = _report.WIDTH, width
        try:
            lines = _report._wrap(text)
        finally:
            _report.WIDTH = saved
        assert max(map(len, lines)) <= width
        assert " ".join(line.strip() for line in lines) == text.strip()
        for line in lines:  # a figure and its unit on one line
            assert not line.rstrip().endswith(("5.92", "8.06", "12", "1.25", "4.5")), lines
            assert not line.lstrip().startswith(("s ", "s)", "calls", "ms", "us")), lines
        assert "\u00a0" not in "".join(lines)


def _group(compiled: dict[str, int]) -> Group:
    group = Group()
    for rank, (label, calls) in enumerate(compiled.items()):
        group.calls[label] = calls
        group.seconds[label] = 10.0 - rank  # listed in this order, most time first
    return group


def test_each_group_names_its_own_compiled_operations_and_how_many_it_leaves_out():
    parent = _group({"MultiDiscrete.sample": 30, "concatenate": 10})
    workers = _group({"Dict.sample": 7, "Dict.contains": 6, "flatten": 5, "MultiDiscrete.contains": 4, "flatdim": 1})
    assert _report._compiled_line(parent) == "    compiled: MultiDiscrete.sample x30, concatenate x10"
    assert _report._compiled_line(workers) == (
        "    compiled: Dict.sample x7, Dict.contains x6, flatten x5; 2 more operations: --report-details"
    )
    workers.calls["flatdim"] = 0  # none of them compiled
    assert _report._compiled_line(workers).endswith("; 1 more operation: --report-details")
    assert _report._compiled_line(Group()) == "    compiled: nothing (no patched space operation ran compiled)"
