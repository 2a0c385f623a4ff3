"""``python -m gymspaces`` (the README Quick start's first command) samples
every kind of space and, with Gymnasium, shows that each first sample is
Gymnasium's."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gymspaces
from gymspaces import _demo as demo
from gymspaces._gymnasium_releases import VERIFIED_GYMNASIUM

ROOT = Path(__file__).resolve().parents[2]

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


def assert_names_nothing_missing(text: str) -> None:
    """Every file the text names exists in the checkout; the reader's own program
    is named by an unmistakable placeholder (``YOUR_SCRIPT.py``)."""
    for name in re.findall(r"[\w./-]+\.py\b", text):
        assert name == "YOUR_SCRIPT.py" or (ROOT / name).exists(), f"{name} is named but does not exist"


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
    assert rows[-3] == "An unmodified Gymnasium program, run plain and under patch mode in this process:"
    assert re.fullmatch(r"  .+: plain [\d.]+ s, patched [\d.]+ s \([\d.]+x\), results identical", rows[-2]), rows[-2]
    assert rows[-1] == "A program of yours under patch mode: python -m gymspaces.gymnasium --report YOUR_SCRIPT.py"
    assert_names_nothing_missing(text)
    assert max(map(len, text.splitlines())) <= 100  # a terminal's width, as every command here
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
    # How to get it, naming every release patch mode supports.
    assert "pip install 'gymnasium==1.4.0'" in text
    assert all(release in text for release in VERIFIED_GYMNASIUM)
    header, rows = table(text)
    assert header.split() == ["operation", "sample", "gymspaces", "us"]
    assert [row.split(" ", 1)[0] for row in rows] == [case.label for case in demo.CASES]


def test_composite_samples_are_spelled_out() -> None:
    assert demo._format_sample((np.int64(1), np.array([0.25, 0.5]))) == "(1, [0.25 0.5 ])"
    assert demo._format_sample({"a": np.int64(3)}) == "{a: 3}"
    assert demo._format_sample(gymspaces.GraphInstance(np.array([[0.0], [1.0]]), None, None)) == "2 nodes, 0 edges"
    assert demo._format_sample("x" * 40).endswith("...") and len(demo._format_sample("x" * 40)) == demo.SAMPLE_WIDTH



def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GYMSPACES_")}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120,
                          env={**environment, **env})


@pytest.mark.parametrize(
    ("argument", "problem"),
    [
        ("--foo", "unknown option --foo"),
        ("--verison", "unknown option --verison (did you mean --version?)"),
        ("--hlep", "unknown option --hlep (did you mean --help?)"),
        ("bench", "unknown command 'bench' (the benchmarks run from a checkout: python -m benchmarks)"),
    ],
)
def test_a_usage_error_comes_first_and_alone(argument: str, problem: str) -> None:
    """The error is the first line, then the one-line usage: not the whole help.
    The nearest option is found the same way on every supported Python."""
    result = run("-m", "gymspaces", argument)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        f"python -m gymspaces: error: {problem}",
        "usage: python -m gymspaces [--version [--verbose] | --help]",
        "Try `python -m gymspaces --help' for more information.",
    ]


def test_the_help_names_nothing_missing() -> None:
    from gymspaces.__main__ import HELP, USAGE

    result = run("-m", "gymspaces", "--help")
    assert (result.returncode, result.stdout.strip()) == (0, HELP)
    assert USAGE in HELP and "python -m gymspaces.gymnasium --report YOUR_SCRIPT.py" in HELP
    assert_names_nothing_missing(HELP)


def test_the_hints_without_gymnasium_name_the_supported_releases(tmp_path: Path) -> None:
    """Without Gymnasium, importing patch mode says how to install it, naming every
    release it supports (0.29.1 too: not ``gymnasium>=1.0``)."""
    shadow = tmp_path / "gymnasium"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise ImportError('No module named gymnasium')\n")
    result = run("-c", "import gymspaces.gymnasium", PYTHONPATH=str(tmp_path))
    last = result.stderr.strip().splitlines()[-1]
    assert last == (
        "ImportError: gymspaces.gymnasium needs Gymnasium: pip install 'gymnasium==1.4.0' "
        "(patch mode supports Gymnasium 0.29.1, 1.0.0, 1.1.1, 1.2.2, 1.3.0 and 1.4.0)"
    ), result.stderr


def test_the_releases_named_are_the_releases_patched() -> None:
    from gymspaces.gymnasium import _patch

    assert _patch.VERIFIED_GYMNASIUM is VERIFIED_GYMNASIUM  # one list, not a copy
