"""The comparison logic of ``tests/tools/compare_builds.py`` (CI's portable-build leg), on made-up runs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "compare_builds.py"
_spec = importlib.util.spec_from_file_location("compare_builds", TOOL)
assert _spec is not None and _spec.loader is not None
compare_builds = importlib.util.module_from_spec(_spec)
sys.modules["compare_builds"] = compare_builds  # (its dataclasses look their module up)
_spec.loader.exec_module(compare_builds)


def _bench(case: str, implementation: str, median: float) -> dict:
    return {"extra_info": {"case": case, "implementation": implementation}, "stats": {"median": median}}


def test_reads_gymspaces_side_of_every_case_only():
    data = {"benchmarks": [
        _bench("box_sample_image", "gymspaces", 2e-5),
        _bench("box_sample_image", "gymnasium", 5e-4),
        _bench("box_sample_image", "floor", 1e-5),
        {"extra_info": {}, "stats": {"median": 1.0}},  # not the bench's
    ]}
    assert compare_builds.gymspaces_medians(data) == {"box_sample_image": 2e-5}


def test_each_build_is_the_median_of_its_runs_and_cases_missing_from_a_run_drop_out():
    base = [{"a": 1.0, "b": 2.0}, {"a": 3.0, "b": 2.0}, {"a": 2.0}]
    build = [{"a": 4.0, "b": 1.0}, {"a": 6.0, "b": 1.0}, {"a": 5.0, "b": 1.0}]
    rows = compare_builds.compare(base, build)
    assert [(row.case, row.base, row.build) for row in rows] == [("a", 2.0, 5.0)]
    assert rows[0].ratio == 2.5


@pytest.mark.parametrize(
    ("ratio", "expected"),
    [(1.0, "within target"), (1.15, "within target"), (1.8, "over the 1.15x target"), (2.6, "FAIL (over 2.5x)")],
)
def test_verdict_separates_the_target_from_the_failure(ratio, expected):
    row = compare_builds.Row("box_sample_image", 1.0, ratio)
    assert compare_builds.verdict(row, 1.15, 2.5) == expected


def test_build_argument_needs_an_interpreter_and_a_tree():
    assert compare_builds.Build.parse("/venv/bin/python:/src") == compare_builds.Build("/venv/bin/python", Path("/src"))
    with pytest.raises(Exception, match="PYTHON:TREE"):
        compare_builds.Build.parse("/venv/bin/python")
