"""``python -m gymspaces`` (the README Quick start's first command) samples
every kind of space and, with Gymnasium, shows that each first sample is
Gymnasium's."""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import gymspaces
from gymspaces import _demo as demo

SPACE_KINDS = sorted(
    name
    for name in gymspaces.__all__
    if inspect.isclass(getattr(gymspaces, name))
    and issubclass(getattr(gymspaces, name), gymspaces.Space)
    and getattr(gymspaces, name) is not gymspaces.Space
)


@pytest.fixture
def untimed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo, "median_seconds", lambda func, **kwargs: (func(), 1e-6)[1])


def table(text: str) -> tuple[str, list[str]]:
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if line and set(line) == {"-"})
    return lines[rule - 1], lines[rule + 1 :]


def test_every_space_kind_is_sampled() -> None:
    assert len(SPACE_KINDS) == 10, SPACE_KINDS
    shown = {case.label.split("(", 1)[0] for case in demo.CASES}
    assert shown == set(SPACE_KINDS)


def test_the_table_shows_every_kind_identical_to_gymnasium(untimed: None, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("gymnasium")  # the test extra installs it
    assert demo.main([]) == 0
    text = capsys.readouterr().out
    header, rows = table(text)
    assert header.split() == ["operation", "sample", "gymspaces", "us", "gymnasium", "us", "speedup", "same"]
    # Then one unmodified Gymnasium program, plain and patched, results checked identical.
    assert rows[-2] == "An unmodified Gymnasium program, plain and patched (python -m gymspaces.gymnasium train.py):"
    assert re.fullmatch(r"  .+: plain [\d.]+ s, patched [\d.]+ s \([\d.]+x\), results identical", rows[-1]), rows[-1]
    rows = rows[: len(demo.CASES)]
    for case, row in zip(demo.CASES, rows):
        assert row.startswith(case.label + " ") and row.endswith(" yes"), row
        assert len(row) == len(header), "columns are aligned"


def test_the_table_without_gymnasium(untimed: None, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(demo, "_reference", lambda: None)
    assert demo.main([]) == 0
    text = capsys.readouterr().out
    assert "Gymnasium not installed" in text
    header, rows = table(text)
    assert header.split() == ["operation", "sample", "gymspaces", "us"]
    assert [row.split(" ", 1)[0] for row in rows] == [case.label for case in demo.CASES]


def test_composite_samples_are_spelled_out() -> None:
    assert demo._format_sample((np.int64(1), np.array([0.25, 0.5]))) == "(1, [0.25 0.5 ])"
    assert demo._format_sample({"a": np.int64(3)}) == "{a: 3}"
    assert demo._format_sample(gymspaces.GraphInstance(np.array([[0.0], [1.0]]), None, None)) == "2 nodes, 0 edges"
    assert demo._format_sample("x" * 40).endswith("...") and len(demo._format_sample("x" * 40)) == 28

