"""``python -m gymspaces bench``: benchmark gymspaces against Gymnasium and gate on targets.

The command runs the pytest-benchmark suite shipped in
:mod:`gymspaces.bench.suite` in this process, then reads pytest-benchmark's
JSON to print, per case, the gymspaces and Gymnasium medians and their ratio
(Gymnasium / gymspaces, so higher is better) against the floors of a targets
file, and the distance of gymspaces to the case's floor: the least work the
case must do, timed in the same run (:mod:`gymspaces.bench.floors`).
``--check`` turns missed floors into a non-zero exit status.

Examples
--------
>>> from gymspaces.bench.cli import main
>>> main(["--quick", "--cases", "discrete_sample"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import math
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, cast

from gymspaces.bench import realloop
from gymspaces.bench.cases import CASES, CASES_BY_KEY

SUITE = "gymspaces.bench.suite"
GATE_ENV = "GYMSPACES_GATE"
GATE_MODES = ("fail", "warn")
IMPORT_KEY = "import"
# The geometric mean compares like with like: Gymnasium's own operations,
# neither the import nor the batched APIs Gymnasium lacks.
GEOMETRIC_KEYS = frozenset(case.key for case in CASES if not case.slow and not case.beyond)
BASELINE = "numpy"  # the implementation timed next to the import case
FLOOR = "floor"  # the implementation name of a case's lower bound (bench.floors)
NEAR_FLOOR = 2.0  # a case within this factor of its floor has little left to gain

# pytest-benchmark settings. Full mode keeps its defaults (1 s per
# measurement, at least 5 rounds); quick mode spends a tenth of that, which
# still gives thousands of rounds for every case but the import one.
QUICK_ARGS = ("--benchmark-max-time=0.1", "--benchmark-min-rounds=3")
FULL_ARGS: tuple[str, ...] = ()
# A case below its floor is measured again, with longer measurements, before
# the gate calls it a miss: on a shared 2-core machine one noisy measurement
# of a sub-microsecond case can move a ratio by a third. Only a case that
# misses every time fails the gate.
CONFIRM_ATTEMPTS = 2
CONFIRM_ARGS = ("--benchmark-max-time=0.5", "--benchmark-min-rounds=5")

EXIT_OK, EXIT_MISSED, EXIT_USAGE, EXIT_ERROR = 0, 1, 2, 3

BENCH_EXTRA = "pip install 'gymspaces[bench]'"
PLOT_EXTRA = "pip install 'gymspaces[plot]'"


class UsageError(Exception):
    """A problem with the command line, the environment or an input file."""


# ---------------------------------------------------------------- targets


@dataclass(frozen=True)
class Targets:
    """The speed targets of one targets file.

    Attributes
    ----------
    ratio : dict of str to float
        Gated floors of Gymnasium median / gymspaces median, per case key.
    geometric_mean : float or None
        Gated floor of the geometric mean of the ratios of every case of a
        Gymnasium operation (not ``import``, not the batched APIs).
    absolute : dict of str to dict
        Reported, never gated: ``{"max_us": x}`` bounds the gymspaces median
        of a case; ``{"max_ms_over_numpy": x}`` bounds how much slower the
        import case is than ``import numpy``.
    path : str
        Where the targets were read from.
    """

    ratio: dict[str, float]
    geometric_mean: float | None
    absolute: dict[str, dict[str, float]]
    path: str


ABSOLUTE_FIELDS = {"max_us", "max_ms_over_numpy"}


def default_targets_path() -> Path | None:
    """The targets file shipped in the package, else the checkout's ``benchmarks/targets.toml``."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "targets.toml", package.parent.parent / "benchmarks" / "targets.toml"):
        if candidate.is_file():
            return candidate
    return None


def _toml() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise UsageError(f"reading a targets file on Python 3.10 needs tomli: {BENCH_EXTRA}") from None
    return tomllib


def _floor(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise UsageError(f"{where} must be a positive number, got {value!r}")
    return float(value)


def load_targets(path: str | os.PathLike[str]) -> Targets:
    """Read and validate a targets file.

    Parameters
    ----------
    path : str or path-like
        A TOML file with a ``[ratio]`` table (case key or ``geometric_mean``
        to floor) and an optional ``[absolute]`` table.

    Returns
    -------
    Targets

    Raises
    ------
    UsageError
        If the file is missing or malformed, or names an unknown case.
    """
    try:
        with open(path, "rb") as handle:
            data = _toml().load(handle)
    except OSError as error:
        raise UsageError(f"cannot read targets file {path}: {error.strerror}") from None
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise UsageError(f"{path}: {error}") from None
    unknown_tables = set(data) - {"ratio", "absolute"}
    if unknown_tables:
        raise UsageError(f"{path}: unknown tables {sorted(unknown_tables)}")
    ratio = dict(data.get("ratio", {}))
    geometric_mean = ratio.pop("geometric_mean", None)
    for key, value in ratio.items():
        if key not in CASES_BY_KEY:
            raise UsageError(f"{path}: [ratio] names unknown case {key!r}")
        ratio[key] = _floor(f"{path}: ratio.{key}", value)
    if geometric_mean is not None:
        geometric_mean = _floor(f"{path}: ratio.geometric_mean", geometric_mean)
    absolute: dict[str, dict[str, float]] = {}
    for key, limits in data.get("absolute", {}).items():
        if key not in CASES_BY_KEY:
            raise UsageError(f"{path}: [absolute] names unknown case {key!r}")
        if not isinstance(limits, dict) or not limits or set(limits) - ABSOLUTE_FIELDS:
            raise UsageError(f"{path}: absolute.{key} must be a table of {sorted(ABSOLUTE_FIELDS)}")
        absolute[key] = {name: _floor(f"{path}: absolute.{key}.{name}", value) for name, value in limits.items()}
    return Targets(ratio, geometric_mean, absolute, str(path))


# ---------------------------------------------------------------- results


@dataclass
class Run:
    """The medians of one pytest-benchmark run, indexed by case and implementation.

    Attributes
    ----------
    medians : dict
        ``medians[case_key][implementation]`` in seconds.
    versions : dict of str to str
        Version of each implementation as recorded by the suite.
    max_time : float or None
        pytest-benchmark's ``max_time`` of the run (seconds per measurement).
    machine : str
        A one-line description of the machine and interpreter.
    mode : str
        ``"quick"`` or ``"full"`` for runs of ``python -m gymspaces bench``, else ``""``.
    confirmed : list of str
        Notes on cases whose figures were replaced by a confirming measurement.
    extra : dict
        ``extra[case_key]``: what a case recorded besides its medians (the real
        loops' plain ``share``).
    """

    medians: dict[str, dict[str, float]] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    max_time: float | None = None
    machine: str = ""
    mode: str = ""
    confirmed: list[str] = field(default_factory=list)
    extra: dict[str, dict[str, float]] = field(default_factory=dict)

    def median(self, key: str, implementation: str) -> float | None:
        return self.medians.get(key, {}).get(implementation)


def read_run(data: dict[str, Any]) -> Run:
    """Extract the medians from pytest-benchmark's JSON (a parsed ``--benchmark-json`` file).

    Measurements not made by the gymspaces suite (no ``case`` in
    ``extra_info``) are ignored.
    """
    run = Run()
    for bench in data.get("benchmarks", []):
        info = bench.get("extra_info", {})
        key, implementation = info.get("case"), info.get("implementation")
        if key is None or implementation is None:
            continue
        run.medians.setdefault(key, {})[implementation] = float(bench["stats"]["median"])
        if "share" in info:
            run.extra.setdefault(key, {})["share"] = float(info["share"])
        run.versions[implementation] = str(info.get("version", "unknown"))
        run.max_time = bench.get("options", {}).get("max_time", run.max_time)
    run.mode = str(data.get("gymspaces_bench", {}).get("mode", ""))
    machine = data.get("machine_info", {})
    cpu = machine.get("cpu", {}).get("brand_raw", "")
    run.machine = " ".join(
        part
        for part in (
            f"{machine.get('python_implementation', '')} {machine.get('python_version', '')}".strip(),
            f"{machine.get('system', '')} {machine.get('machine', '')}".strip(),
            cpu,
        )
        if part
    )
    return run


def load_run(path: str | os.PathLike[str]) -> Run:
    """Read a JSON file written by ``--json`` or ``pytest --benchmark-json``."""
    try:
        with open(path, encoding="utf8") as handle:
            return read_run(json.load(handle))
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{path} is not pytest-benchmark JSON: {error}") from None


# ---------------------------------------------------------------- verdict


@dataclass
class Row:
    """One case of the report."""

    key: str
    label: str
    ours: float | None
    theirs: float | None
    target: float | None = None
    """The gated floor of ``ratio`` from the targets file."""
    baseline: float | None = None
    bound: float | None = None
    """The median of the case's floor (its least work), in seconds."""

    @property
    def ratio(self) -> float | None:
        if self.ours is None or self.theirs is None or self.ours <= 0:
            return None
        return self.theirs / self.ours

    @property
    def distance(self) -> float | None:
        """gymspaces median / floor median: 1.0 is as fast as the work allows."""
        if self.ours is None or self.bound is None or self.bound <= 0:
            return None
        return self.ours / self.bound

    @property
    def status(self) -> str:
        """``"pass"``, ``"MISS"``, ``"n/a"`` (no Gymnasium figure) or ``""`` (no floor)."""
        if self.target is None:
            return ""
        if self.ours is None:
            return "MISS"
        if self.ratio is None:
            return "n/a"
        return "pass" if self.ratio >= self.target else "MISS"


@dataclass
class Report:
    """The rows of a run, its geometric mean and the verdict on the targets."""

    rows: list[Row]
    geometric_mean: float | None
    geometric_floor: float | None
    geometric_count: int
    misses: list[str]
    notes: list[str]
    has_reference: bool

    @property
    def geometric_status(self) -> str:
        if self.geometric_floor is None:
            return ""
        if self.geometric_mean is None:
            return "n/a"
        return "pass" if self.geometric_mean >= self.geometric_floor else "MISS"


def _shortfall(ratio: float, floor: float) -> str:
    return f"{ratio:.1f}x < {floor:g}x: {ratio / floor:.0%} of the floor, needs {floor / ratio:.2f}x more"


def evaluate(
    run: Run,
    targets: Targets | None,
    cases: Iterable[str] | None = None,
    baseline: Run | None = None,
    has_reference: bool | None = None,
) -> Report:
    """Compare the run with the targets.

    Parameters
    ----------
    run : Run
        The measurements.
    targets : Targets or None
        Floors to check; ``None`` reports ratios only.
    cases : iterable of str, optional
        The case keys that were meant to run (default: every case). A floor
        of a case outside them is not checked; a floor of a selected case
        without a gymspaces result counts as missed. The geometric mean is
        only judged over the full set of cases.
    baseline : Run, optional
        An earlier run whose gymspaces medians are shown for comparison.
    has_reference : bool, optional
        Whether Gymnasium was benchmarked; by default, whether the run holds
        any Gymnasium figure.

    Returns
    -------
    Report
    """
    wanted = None if cases is None else set(cases)
    selected = [key for key in CASES_BY_KEY if wanted is None or key in wanted]
    if has_reference is None:
        has_reference = any("gymnasium" in by_impl for by_impl in run.medians.values())
    rows = []
    for key in selected:
        row = Row(key, CASES_BY_KEY[key].label, run.median(key, "gymspaces"), run.median(key, "gymnasium"))
        # The import case's floor is ``import numpy``, timed beside it.
        row.bound = run.median(key, BASELINE if key == IMPORT_KEY else FLOOR)
        if targets is not None:
            row.target = targets.ratio.get(key)
        if baseline is not None:
            row.baseline = baseline.median(key, "gymspaces")
        rows.append(row)
    misses: list[str] = []
    notes: list[str] = []
    for row in rows:
        if row.status == "MISS":
            if row.ours is None:
                misses.append(f"{row.key}: no gymspaces result (floor {row.target:g}x)")
            else:
                misses.append(f"{row.key}: {_shortfall(row.ratio, row.target)}")  # type: ignore[arg-type]

    ratios = [row.ratio for row in rows if row.key in GEOMETRIC_KEYS and row.ratio is not None]
    complete = len(ratios) == len(GEOMETRIC_KEYS)
    geometric = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if complete and ratios else None
    geometric_floor = targets.geometric_mean if targets is not None else None
    report = Report(rows, geometric, geometric_floor, len(ratios), misses, notes, has_reference)
    if geometric_floor is not None:
        if report.geometric_status == "MISS":
            misses.append(f"geometric mean: {_shortfall(geometric, geometric_floor)}")  # type: ignore[arg-type]
        elif report.geometric_status == "n/a":
            notes.append("geometric mean floor not judged: it needs every case, with Gymnasium")
    if targets is not None:
        notes.extend(_absolute_notes(run, targets, set(selected)))
    distances = [row.distance for row in rows if row.distance is not None and row.key != IMPORT_KEY]
    if distances:
        near = sum(distance <= NEAR_FLOOR for distance in distances)
        notes.append(
            f"floor: {near} of {len(distances)} cases within {NEAR_FLOOR:g}x of their floor "
            f"(median distance {sorted(distances)[len(distances) // 2]:.1f}x); see README, 'How the floors are built'"
        )
    return report


def _absolute_notes(run: Run, targets: Targets, selected: set[str]) -> list[str]:
    notes = []
    for key, limits in targets.absolute.items():
        if key not in selected:
            continue
        ours = run.median(key, "gymspaces")
        if ours is None:
            continue
        if "max_us" in limits:
            limit = limits["max_us"]
            verdict = "within" if ours * 1e6 <= limit else "over"
            notes.append(f"{key}: {_time(ours)} per call, {verdict} the {limit:g} us orientation target (not gated)")
        if "max_ms_over_numpy" in limits:
            numpy_time = run.median(key, BASELINE)
            if numpy_time is None:
                continue
            extra = (ours - numpy_time) * 1e3
            limit = limits["max_ms_over_numpy"]
            verdict = "within" if extra <= limit else "over"
            notes.append(
                f"{key}: {_time(ours)} vs import numpy {_time(numpy_time)}, {extra:+.1f} ms, "
                f"{verdict} the {limit:g} ms orientation target (not gated)"
            )
    return notes


# ---------------------------------------------------------------- rendering


def _time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            break
    value = seconds / scale
    digits = 3 if value < 10 else 2 if value < 100 else 1
    return f"{value:.{digits}f} {unit}"


def _change(row: Row) -> str:
    if row.baseline is None or row.ours is None:
        return "-"
    return f"{(row.ours / row.baseline - 1):+.1%}"


def render(report: Report, run: Run, *, mode: str = "", baseline_name: str | None = None) -> str:
    """The report as a plain-text table followed by the misses and notes."""
    lines = []
    versions = f"gymspaces {run.versions.get('gymspaces', '?')}"
    if report.has_reference:
        versions += f" vs Gymnasium {run.versions.get('gymnasium', '?')}"
    if BASELINE in run.versions:
        versions += f"  (numpy {run.versions[BASELINE]})"
    lines.append(versions)
    if run.machine:
        lines.append(run.machine)
    settings = "pytest-benchmark medians"
    mode = mode or run.mode
    if mode:
        settings += f", {mode} mode"
    if run.max_time is not None:
        settings += f" (max {run.max_time:g} s per measurement)"
    lines.append(settings + "; ratio = Gymnasium / gymspaces, higher is better")
    lines.append("floor = the least work of the case, timed in this run; distance = gymspaces / floor, 1.0x is the floor")
    if not report.has_reference:
        lines.append(f"Gymnasium is not installed: gymspaces alone ({BENCH_EXTRA} to compare)")
    lines.append("")

    header = ["case", "gymspaces", "floor", "distance", "gymnasium", "ratio", "target", "status"]
    if baseline_name is not None:
        header += ["baseline", "change"]
    table = [header]
    for row in report.rows:
        cells = [
            row.key,
            _time(row.ours),
            _time(row.bound),
            f"{row.distance:.1f}x" if row.distance is not None else "-",
            _time(row.theirs),
            f"{row.ratio:.1f}x" if row.ratio is not None else "-",
            f"{row.target:g}x" if row.target is not None else "",
            row.status,
        ]
        if baseline_name is not None:
            cells += [_time(row.baseline), _change(row)]
        table.append(cells)
        if row.key == IMPORT_KEY and run.median(IMPORT_KEY, BASELINE) is not None:
            table.append([f"  ({BASELINE})", _time(run.median(IMPORT_KEY, BASELINE)), "", "", "", "", "", ""])
            if baseline_name is not None:
                table[-1] += ["", ""]
    if report.has_reference:
        table.append(
            [
                f"geometric mean ({report.geometric_count})",
                "",
                "",
                "",
                "",
                f"{report.geometric_mean:.1f}x" if report.geometric_mean is not None else "-",
                f"{report.geometric_floor:g}x" if report.geometric_floor is not None else "",
                report.geometric_status,
            ]
            + (["", ""] if baseline_name is not None else [])
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for index, cells in enumerate(table):
        text = "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(cells, widths)))
        lines.append(text.rstrip())
        if index == 0 or index == len(table) - 2 and report.has_reference:
            lines.append("  ".join("-" * w for w in widths))
    if baseline_name is not None:
        lines.append(f"baseline: gymspaces medians of {baseline_name}; change = time now vs then")
    real = realloop.render(run)
    if real:
        lines.append("")
        lines.extend(real)
    if report.notes:
        lines.append("")
        lines.extend(f"note: {note}" for note in report.notes)
    return "\n".join(lines)


def plot(report: Report, run: Run, path: str, *, mode: str = "") -> None:
    """Draw the speedup of every case as a horizontal bar chart (PNG or SVG by extension)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [row for row in report.rows if row.ratio is not None]
    labels = [row.key for row in rows]
    values = [cast(float, row.ratio) for row in rows]  # rows without a ratio were dropped
    floors = [row.target for row in rows]
    colours = [{"pass": "#2e7d32", "MISS": "#c62828"}.get(row.status, "#78909c") for row in rows]
    if report.geometric_mean is not None:
        labels.append("geometric mean")
        values.append(report.geometric_mean)
        floors.append(report.geometric_floor)
        colours.append({"pass": "#1b5e20", "MISS": "#b71c1c"}.get(report.geometric_status, "#455a64"))

    figure, axes = plt.subplots(figsize=(8, 0.32 * len(labels) + 1.6))
    positions = list(range(len(labels)))[::-1]
    axes.barh(positions, values, color=colours, height=0.7)
    for y, value, floor in zip(positions, values, floors):
        # The label goes right of both the bar and its floor tick.
        axes.annotate(
            f"{value:.1f}x",
            (max(value, floor or 0), y),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
        if floor is not None:
            axes.plot([floor, floor], [y - 0.42, y + 0.42], color="black", linewidth=1.6)
    if report.geometric_mean is not None:
        axes.axhline(0.5, color="#9e9e9e", linewidth=0.8)
    axes.axvline(1.0, color="#424242", linestyle="--", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_yticks(positions, labels, fontsize=8)
    axes.set_xlim(min([0.5, *values]) * 0.8, max(values + [f for f in floors if f]) * 2.5)
    axes.set_xlabel("speedup: Gymnasium median / gymspaces median (log scale)")
    mode = mode or run.mode
    subtitle = run.machine + (f", {mode} mode" if mode else "")
    axes.set_title(
        f"gymspaces {run.versions.get('gymspaces', '?')} vs Gymnasium {run.versions.get('gymnasium', '?')}"
        f"\n{subtitle}\ngreen: meets its floor (black tick), red: below it, grey: no floor",
        fontsize=9,
    )
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


# ---------------------------------------------------------------- running


class ProgressBar:
    """A pytest plugin that draws a progress bar on stderr while the suite runs.

    Only on a terminal, where the bar is redrawn in place. Elsewhere (a file, a
    pipe, CI logs) a bar would be one line per measurement, over a hundred in
    a full run: the session ends with one line saying how many measurements
    ran and for how long instead.
    """

    def __init__(self, stream: TextIO, cases: Sequence[str] | None = None) -> None:
        self.stream = stream
        self.cases = None if cases is None else set(cases)
        self.total = 0
        self.done = 0
        self.started = time.perf_counter()
        self.interactive = bool(getattr(stream, "isatty", lambda: False)())

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        if self.cases is None:
            return
        kept: list[Any] = []
        dropped: list[Any] = []
        for item in items:
            params = getattr(item, "callspec", None)
            key = params.params["case"].key if params is not None else IMPORT_KEY
            (kept if key in self.cases else dropped).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept

    def pytest_collection_finish(self, session: Any) -> None:
        self.total = len(session.items)

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if self.interactive:
            self._draw(nodeid)

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        self.done += 1
        if self.interactive:
            self._draw(nodeid)

    def pytest_sessionfinish(self, session: Any) -> None:
        if not self.total:
            return
        if self.interactive:
            self.stream.write("\n")
        else:
            elapsed = time.perf_counter() - self.started
            self.stream.write(f"{self.done}/{self.total} measurements in {elapsed:.0f}s\n")
        self.stream.flush()

    def _draw(self, nodeid: str) -> None:
        width = 30
        filled = width * self.done // max(self.total, 1)
        name = nodeid.rsplit("[", 1)[-1].rstrip("]") if "[" in nodeid else nodeid.rsplit("::", 1)[-1]
        name = name.replace("test_import_baseline", f"{IMPORT_KEY}-{BASELINE}")
        elapsed = time.perf_counter() - self.started
        text = f"[{'#' * filled}{'.' * (width - filled)}] {self.done:>3}/{self.total} {elapsed:5.0f}s  {name}"
        self.stream.write("\r" + text.ljust(79)[:79])
        self.stream.flush()


class RunLabel:
    """A pytest plugin that records the mode of the run, and a summary per case, in pytest-benchmark's JSON.

    ``gymspaces_bench.cases[key]`` holds the medians (seconds) of gymspaces,
    Gymnasium and the floor, ``ratio`` (Gymnasium / gymspaces) and
    ``distance`` (gymspaces / floor), each ``null`` when not measured.
    """

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def pytest_benchmark_update_json(self, config: Any, benchmarks: Any, output_json: dict[str, Any]) -> None:
        run = read_run(output_json)
        summary = {}
        for key, medians in run.medians.items():
            row = Row(key, CASES_BY_KEY[key].label, medians.get("gymspaces"), medians.get("gymnasium"))
            row.bound = medians.get(BASELINE if key == IMPORT_KEY else FLOOR)
            summary[key] = {
                "gymspaces": row.ours,
                "gymnasium": row.theirs,
                "floor": row.bound,
                "ratio": row.ratio,
                "distance": row.distance,
            }
        output_json["gymspaces_bench"] = {"mode": self.mode, "cases": summary}


def run_suite(
    json_path: str,
    *,
    quick: bool,
    cases: Sequence[str] | None,
    pytest_args: Sequence[str],
    verbose: bool,
    timing_args: Sequence[str] | None = None,
) -> int:
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
    timing_args : sequence of str, optional
        pytest-benchmark timing options replacing those ``quick`` selects.

    Returns
    -------
    int
        pytest's exit code.
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
        *(timing_args if timing_args is not None else QUICK_ARGS if quick else FULL_ARGS),
        *pytest_args,
    ]
    plugins = [ProgressBar(sys.stderr, cases), RunLabel("quick" if quick else "full")]
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
    return int(code)


def _have(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gymspaces bench",
        description=(
            "Benchmark gymspaces against Gymnasium with pytest-benchmark, print the medians "
            "and their ratio (Gymnasium / gymspaces) per case, and check them against speed targets."
        ),
        epilog=(
            "Arguments after '--' go to pytest (for instance -- --benchmark-max-time=2). "
            f"Exit status: {EXIT_OK} ok, {EXIT_MISSED} a floor missed under --check "
            f"({GATE_ENV}=warn reports misses but exits {EXIT_OK}), {EXIT_USAGE} usage or "
            f"missing package, {EXIT_ERROR} a benchmark failed to run."
        ),
    )
    parser.add_argument("--quick", action="store_true", help="short measurements (about a tenth of the default time)")
    parser.add_argument("--cases", metavar="KEY[,KEY...]", help="run only these cases (see --list)")
    parser.add_argument("--list", action="store_true", help="list the case keys and exit")
    parser.add_argument("--json", metavar="FILE", help="write pytest-benchmark's JSON of the run to FILE")
    parser.add_argument(
        "--check",
        metavar="TARGETS",
        nargs="?",
        const="",
        help=(
            "exit non-zero when a case is below its floor in TARGETS "
            "(default: the targets.toml shipped with gymspaces)"
        ),
    )
    parser.add_argument(
        "--compare",
        metavar="BASELINE",
        help="show the change of every gymspaces median against a JSON file saved earlier with --json",
    )
    parser.add_argument(
        "--plot", metavar="FILE", help="draw the speedups as a bar chart (.png or .svg; needs matplotlib)"
    )
    parser.add_argument(
        "--from-json",
        metavar="FILE",
        help="report on a saved run (from --json or pytest --benchmark-json) instead of benchmarking",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show pytest's and pytest-benchmark's own output")
    return parser


def _split_pytest_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    argv = list(argv)
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1 :]
    return argv, []


def _parse_cases(text: str | None) -> list[str] | None:
    if text is None:
        return None
    keys = [key.strip() for key in text.split(",") if key.strip()]
    unknown = [key for key in keys if key not in CASES_BY_KEY]
    if unknown or not keys:
        raise UsageError(f"unknown cases {unknown or [text]}; known: {', '.join(CASES_BY_KEY)}")
    return keys


def _gate_mode() -> str:
    mode = os.environ.get(GATE_ENV, "fail").strip().lower() or "fail"
    if mode not in GATE_MODES:
        raise UsageError(f"{GATE_ENV} must be one of {', '.join(GATE_MODES)}, got {mode!r}")
    return mode


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m gymspaces bench``; returns the exit status."""
    own_args, pytest_args = _split_pytest_args(sys.argv[1:] if argv is None else argv)
    options = _parser().parse_args(own_args)
    try:
        return _main(options, pytest_args)
    except UsageError as error:
        print(f"python -m gymspaces bench: error: {error}", file=sys.stderr)
        return EXIT_USAGE


def _main(options: argparse.Namespace, pytest_args: list[str]) -> int:
    if options.list:
        for case in CASES:
            print(f"{case.key:30} {case.label}")
        return EXIT_OK
    cases = _parse_cases(options.cases)
    # Everything that can fail is checked before minutes of benchmarking.
    gate = _gate_mode() if options.check is not None else None
    if gate is not None and not options.from_json and not _have("gymnasium"):
        raise UsageError(f"--check judges ratios to Gymnasium, which is not installed: {BENCH_EXTRA}")
    targets_path = options.check or default_targets_path()
    if options.check == "" and targets_path is None:
        raise UsageError("no targets file found: pass one, as in --check benchmarks/targets.toml")
    targets = load_targets(targets_path) if targets_path is not None else None
    baseline = load_run(options.compare) if options.compare else None
    if options.plot:
        if Path(options.plot).suffix.lower() not in (".png", ".svg"):
            raise UsageError(f"--plot writes .png or .svg files, not {options.plot!r}")
        if not _have("matplotlib"):
            raise UsageError(f"--plot needs matplotlib, which is not installed: {PLOT_EXTRA}")

    mode = ""
    has_reference = None
    if options.from_json:
        run = load_run(options.from_json)
        code = 0
    else:
        missing = [name for name in ("pytest", "pytest_benchmark") if not _have(name)]
        if missing:
            raise UsageError(f"benchmarking needs {' and '.join(missing)}, which is not installed: {BENCH_EXTRA}")
        has_reference = _have("gymnasium")
        if not has_reference:
            print(
                f"Gymnasium is not installed: benchmarking gymspaces alone ({BENCH_EXTRA} to compare).",
                file=sys.stderr,
            )
        mode = "quick" if options.quick else "full"
        with tempfile.TemporaryDirectory(prefix="gymspaces-bench-json-") as scratch:
            json_path = options.json or str(Path(scratch) / "run.json")
            started = time.perf_counter()
            code = run_suite(
                json_path, quick=options.quick, cases=cases, pytest_args=pytest_args, verbose=options.verbose
            )
            elapsed = time.perf_counter() - started
            try:
                run = load_run(json_path)
            except UsageError:
                if code == 0:
                    raise
                run = Run()  # every measurement failed: pytest-benchmark wrote no results
        print(f"benchmarked in {elapsed:.0f} s", file=sys.stderr)

    report = evaluate(run, targets, cases, baseline, has_reference)
    if gate is not None and not options.from_json and has_reference:
        report = _confirm_misses(run, report, targets, cases, baseline, pytest_args, options.verbose)
    print(render(report, run, mode=mode, baseline_name=options.compare))
    if options.json and not options.from_json:
        print(f"\nwrote {options.json} (pytest-benchmark JSON)")
    if options.plot and any(row.ratio is not None for row in report.rows):
        plot(report, run, options.plot, mode=mode)
        print(f"wrote {options.plot}")
    elif options.plot:
        print(f"not drawing {options.plot}: there is no Gymnasium figure to compare with", file=sys.stderr)

    verdict = EXIT_OK if gate is None else _verdict(report, targets, gate)
    if code not in (0, 5):
        # A benchmark that crashed is an error whatever GYMSPACES_GATE says.
        print(f"\nsome benchmarks failed to run (pytest exit code {code}); see the output above", file=sys.stderr)
        return EXIT_ERROR
    return verdict


def _confirm_misses(
    run: Run,
    report: Report,
    targets: Targets | None,
    cases: Sequence[str] | None,
    baseline: Run | None,
    pytest_args: Sequence[str],
    verbose: bool,
) -> Report:
    """Measure again, longer, every case below its floor (``CONFIRM_ATTEMPTS`` times at most).

    Both implementations of such a case are re-timed side by side and replace
    its figures in ``run``; the report is then evaluated anew. A case passes
    as soon as one measurement meets its floor; a real regression misses
    every time, so the gate still fails on it.
    """
    for attempt in range(1, CONFIRM_ATTEMPTS + 1):
        missed = [row.key for row in report.rows if row.status == "MISS" and row.ours is not None]
        if not missed:
            break
        print(
            f"re-measuring {', '.join(missed)} (below the floor; attempt {attempt} of "
            f"{CONFIRM_ATTEMPTS}, {CONFIRM_ARGS[0]})",
            file=sys.stderr,
        )
        with tempfile.TemporaryDirectory(prefix="gymspaces-bench-confirm-") as scratch:
            json_path = str(Path(scratch) / "confirm.json")
            code = run_suite(
                json_path, quick=False, cases=missed, pytest_args=pytest_args, verbose=verbose,
                timing_args=CONFIRM_ARGS,
            )
            if code != 0:
                break
            again = load_run(json_path)
        for key in missed:
            if key in again.medians:
                run.medians[key] = again.medians[key]
                report_note = f"{key}: re-measured ({CONFIRM_ARGS[0]}) after a first figure below the floor"
                if report_note not in run.confirmed:
                    run.confirmed.append(report_note)
        report = evaluate(run, targets, cases, baseline, True)
    report.notes.extend(run.confirmed)
    return report


def _verdict(report: Report, targets: Targets | None, gate: str) -> int:
    assert targets is not None
    print()
    if not report.has_reference:
        print(f"gate: cannot judge ratio floors without Gymnasium ({BENCH_EXTRA})")
        return EXIT_USAGE
    judged = sum(1 for row in report.rows if row.status in ("pass", "MISS"))
    judged += report.geometric_status in ("pass", "MISS")
    if not report.misses:
        print(f"gate: PASS, {judged} floors of {targets.path} met")
        return EXIT_OK
    print(f"gate: FAIL, {len(report.misses)} of {judged} floors of {targets.path} missed:")
    for miss in report.misses:
        print(f"  {miss}")
    if gate == "warn":
        print(f"{GATE_ENV}=warn: reporting the misses without failing")
        return EXIT_OK
    return EXIT_MISSED
