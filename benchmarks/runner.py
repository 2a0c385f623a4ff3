"""The pytest driver of ``python -m benchmarks``: runs the suite in this process.

:func:`run_suite` runs :mod:`benchmarks.suite` with ``pytest.main``,
keeping only the selected cases (:class:`CaseSelection`), drawing the
progress (:class:`~benchmarks.progress.ProgressBar`) and adding the
bench's own section to pytest-benchmark's JSON (:class:`RunLabel`). pytest is
imported only when the suite runs: reporting on a saved run needs no pytest.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.evaluation import Row
from benchmarks.progress import ProgressBar
from benchmarks.results import IMPORT_KEY, read_run

SUITE = "benchmarks.suite"

# pytest-benchmark settings. Full mode keeps its defaults (1 s per
# measurement, at least 5 rounds); quick mode spends a tenth of that, which
# still gives thousands of rounds for every case but the import one.
QUICK_ARGS = ("--benchmark-max-time=0.1", "--benchmark-min-rounds=3")
FULL_ARGS: tuple[str, ...] = ()


class CaseSelection:
    """A pytest plugin that deselects every measurement of a case not in ``cases``.

    The ``import numpy`` baseline goes with the ``import`` case.
    """

    def __init__(self, cases: Sequence[str]) -> None:
        self.cases = set(cases)

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        kept: list[Any] = []
        dropped: list[Any] = []
        for item in items:
            (kept if _case_key(item) in self.cases else dropped).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _case_key(item: Any) -> str:
    params = getattr(item, "callspec", None)
    return params.params["case"].key if params is not None else IMPORT_KEY


def _reason(report: Any) -> str:
    """Why a measurement did not run, in a few words: the skip's reason, or the error it failed with."""
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    crash = getattr(report.longrepr, "reprcrash", None)
    message = crash.message if crash is not None else str(report.longrepr).strip()
    return "failed: " + (message.splitlines() or ["?"])[0]


class RunLabel:
    """A pytest plugin that records the mode of the run, and a summary per case, in pytest-benchmark's JSON.

    ``gymspaces_bench.cases[key]`` holds the medians (seconds) of gymspaces,
    Gymnasium and the floor, ``ratio`` (Gymnasium / gymspaces) and
    ``distance`` (gymspaces / floor), each ``null`` when not measured;
    ``gymspaces_bench.unmeasured[key]`` says why a measurement of the case
    was skipped or failed (the first such reason of the case).
    """

    def __init__(self, mode: str, *, raw: bool = False) -> None:
        self.mode = mode
        self.raw = raw
        self.keys: dict[str, str] = {}
        self.unmeasured: dict[str, str] = {}

    def pytest_collection_finish(self, session: Any) -> None:
        self.keys = {item.nodeid: _case_key(item) for item in session.items}

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.passed or (report.when == "teardown" and report.skipped):
            return
        key = self.keys.get(report.nodeid)
        if key is not None:
            self.unmeasured.setdefault(key, _reason(report))

    def pytest_benchmark_update_json(self, config: Any, benchmarks: Any, output_json: dict[str, Any]) -> None:
        if not self.raw:
            # pytest-benchmark's JSON holds every round's time (160 MB for a
            # quick run); its statistics are what a report or --compare reads.
            for bench in output_json.get("benchmarks", []):
                bench.get("stats", {}).pop("data", None)
        run = read_run(output_json)
        summary = {}
        for key, medians in run.medians.items():
            row = Row.measured(key, medians)
            summary[key] = {
                "gymspaces": row.ours,
                "gymnasium": row.theirs,
                "floor": row.bound,
                "ratio": row.ratio,
                "distance": row.distance,
            }
        output_json["gymspaces_bench"] = {"mode": self.mode, "cases": summary, "unmeasured": self.unmeasured}


@dataclass
class SuiteResult:
    """pytest's exit code, and why each case that could not run did not (as in the JSON, which
    pytest-benchmark writes only when something was measured)."""

    code: int
    unmeasured: dict[str, str]


def run_suite(
    json_path: str,
    *,
    quick: bool,
    cases: Sequence[str] | None,
    pytest_args: Sequence[str],
    verbose: bool,
    raw: bool = False,
) -> SuiteResult:
    """Run the benchmark suite in this process with pytest.main.

    Parameters
    ----------
    json_path : str
        Where pytest-benchmark writes its JSON.
    quick : bool
        Use the short settings (``QUICK_ARGS``).
    cases : sequence of str or None
        Case keys to run; ``None`` runs them all.
    pytest_args : sequence of str
        Extra arguments for pytest, after the ones chosen here (so they win).
    verbose : bool
        Show pytest's own output (including pytest-benchmark's tables).
    raw : bool
        Keep every round's time in the JSON (``stats.data``); without it the
        JSON holds each measurement's statistics only.

    Returns
    -------
    SuiteResult
    """
    import pytest

    rootdir = tempfile.mkdtemp(prefix="gymspaces-bench-")
    args = [
        "--pyargs",
        SUITE,
        "-c",
        os.devnull,  # ignore any pytest configuration around the current directory
        "--rootdir",
        rootdir,
        "--noconftest",  # the checkout's tests/conftest.py needs the test extra, not the bench's
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",  # timings need one process, even when run from a parallel test session
        "-q",
        "--benchmark-json",
        json_path,
        "--benchmark-group-by=group",
        "--benchmark-sort=name",
        *(() if verbose else ("--benchmark-quiet",)),
        *(QUICK_ARGS if quick else FULL_ARGS),
        *pytest_args,
    ]
    label = RunLabel("quick" if quick else "full", raw=raw)
    plugins: list[object] = [ProgressBar(sys.stderr), label]
    if cases is not None:
        plugins.append(CaseSelection(cases))
    output = io.StringIO()
    # Started from a worker of a parallel (xdist) test session, the variable
    # it inherits would make pytest-benchmark disable itself.
    worker = os.environ.pop("PYTEST_XDIST_WORKER", None)
    try:
        if verbose:
            code = pytest.main(args, plugins=plugins)
        else:
            with contextlib.redirect_stdout(output):
                code = pytest.main(args, plugins=plugins)
    finally:
        shutil.rmtree(rootdir, ignore_errors=True)
        if worker is not None:
            os.environ["PYTEST_XDIST_WORKER"] = worker
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) and not verbose:
        sys.stderr.write(output.getvalue())
    return SuiteResult(int(code), label.unmeasured)


__all__ = ["FULL_ARGS", "QUICK_ARGS", "SUITE", "CaseSelection", "RunLabel", "SuiteResult", "run_suite"]
