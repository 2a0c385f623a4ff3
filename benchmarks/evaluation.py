"""The verdict on a bench run: per case, the ratio to Gymnasium and the distance to the floor, judged against speed targets.

The ratio is Gymnasium median / gymspaces median (higher is better); the
distance is gymspaces median / floor median (1.0 is as fast as the work
allows). A case below its gated target, or a geometric mean below its own, is
a miss; the ``[absolute]`` targets and the distances become notes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from benchmarks import left
from benchmarks.cases import CASES, CASES_BY_KEY
from benchmarks.patched import KERNELS
from benchmarks.results import BASELINE, FLOOR, IMPORT_KEY, Run
from benchmarks.startup import STARTUPS, WITHOUT
from benchmarks.table import duration
from benchmarks.targets import PATCHED_PREFIX, Targets

# The geometric mean compares like with like: Gymnasium's own operations,
# neither the import nor the batched APIs Gymnasium lacks.
GEOMETRIC_KEYS = frozenset(case.key for case in CASES if not case.slow and not case.beyond)
# The patch-mode group: Gymnasium's objects plain ("gymnasium") and patched
# ("gymspaces"), and gymspaces' own classes ("kernels").
PATCHED_KEYS = frozenset(case.key for case in CASES if case.key.startswith(PATCHED_PREFIX))
NEAR_FLOOR = 2.0  # a case within this factor of its floor has little left to gain
# The cases whose floor is a compiled least-work bound (benchmarks.floors):
# not the import (floored by `import numpy`), nor the start-up cases.
FLOORED_KEYS = frozenset(case.key for case in CASES if not case.slow)


def _bound_of(key: str) -> str:
    """The implementation shown in the ``floor`` column of case ``key``."""
    if key == IMPORT_KEY:
        return BASELINE  # ``import numpy``, timed beside it
    return WITHOUT if key in STARTUPS else FLOOR


def _judge(ratio: float | None, target: float | None, unmeasured: str) -> str:
    """``"pass"`` or ``"MISS"`` of ``ratio`` against ``target``; ``unmeasured`` without a ratio, ``""`` without a target."""
    if target is None:
        return ""
    if ratio is None:
        return unmeasured
    return "pass" if ratio >= target else "MISS"


@dataclass
class Row:
    """One case of the report."""

    key: str
    label: str
    ours: float | None
    theirs: float | None
    target: float | None = None
    """The gated speed target of ``ratio`` from the targets file."""
    baseline: float | None = None
    """The ratio of the case in the ``--compare`` baseline (Gymnasium / gymspaces there)."""
    bound: float | None = None
    """The median of the case's floor (its least work), in seconds."""
    kernels: float | None = None
    """A patch-mode case's third column: gymspaces' own classes, in seconds."""
    unmeasured: str = ""
    """Why the case has no figure at all (a skip's reason or an error), if known."""
    remeasured: int = 0
    """How many times the case, below its target at first, was measured again."""

    @classmethod
    def measured(cls, key: str, medians: dict[str, float]) -> Row:
        """The row of case ``key`` from its medians by implementation (no target, no baseline)."""
        return cls(
            key, CASES_BY_KEY[key].label, medians.get("gymspaces"), medians.get("gymnasium"),
            bound=medians.get(_bound_of(key)), kernels=medians.get(KERNELS),
        )

    @property
    def empty(self) -> bool:
        """Whether the row has no figure at all."""
        return all(value is None for value in (self.ours, self.theirs, self.bound, self.kernels))

    @property
    def kernels_gain(self) -> float | None:
        """A patch-mode case's Gymnasium median / kernels median: what the kernels give."""
        if self.kernels is None or self.theirs is None or self.kernels <= 0:
            return None
        return self.theirs / self.kernels

    @property
    def kept(self) -> float | None:
        """The patched gain over the kernels' gain: the share that reaches patched users."""
        if self.ratio is None or self.kernels_gain is None:
            return None
        return self.ratio / self.kernels_gain

    @property
    def ratio(self) -> float | None:
        """Gymnasium median / gymspaces median, or ``None`` without both."""
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
        """``"pass"``, ``"MISS"``, ``"n/a"`` (no Gymnasium figure) or ``""`` (no target)."""
        # No gymspaces figure is a miss: the case was selected and did not run.
        return _judge(self.ratio, self.target, "MISS" if self.ours is None else "n/a")


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
    patched_mean: float | None = None
    """Geometric mean of the patched gains over the patch-mode group."""
    kernels_mean: float | None = None
    """Geometric mean of the kernels' gains over the same cases."""
    kept_floor: float | None = None
    patched_complete: bool = False
    """Whether every patch-mode case was measured (``kept`` is judged only then)."""

    @property
    def geometric_status(self) -> str:
        """``"pass"``, ``"MISS"``, ``"n/a"`` (not every case measured) or ``""`` (no target)."""
        return _judge(self.geometric_mean, self.geometric_floor, "n/a")

    @property
    def kept(self) -> float | None:
        """``patched_mean / kernels_mean``: the share of the kernels' gain patch mode keeps."""
        if self.patched_mean is None or self.kernels_mean is None:
            return None
        return self.patched_mean / self.kernels_mean

    @property
    def kept_status(self) -> str:
        """``"pass"``, ``"MISS"``, ``"n/a"`` (not every patch-mode case measured) or ``""`` (no target)."""
        return _judge(self.kept if self.patched_complete else None, self.kept_floor, "n/a")


def _shortfall(ratio: float, target: float) -> str:
    return f"{ratio:.1f}x < {target:g}x: {ratio / target:.0%} of the target, needs {target / ratio:.2f}x more"


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
        The case keys that were meant to run (default: every case). A target
        of a case outside them is not checked; a target of a selected case
        without a gymspaces result counts as missed. The geometric mean is
        only judged over the full set of cases.
    baseline : Run, optional
        An earlier run whose ratios are shown for comparison (``Row.baseline``).
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
        row = Row.measured(key, run.medians.get(key, {}))
        row.unmeasured = run.unmeasured.get(key, "")
        row.remeasured = run.remeasured.get(key, 0)
        if targets is not None:
            row.target = targets.target_of(key)
        if baseline is not None:
            row.baseline = Row.measured(key, baseline.medians.get(key, {})).ratio
        rows.append(row)
    misses: list[str] = []
    notes: list[str] = []
    for row in rows:
        if row.status == "MISS":
            if row.ours is None:
                why = f", {row.unmeasured}" if row.unmeasured else ""
                misses.append(f"{row.key}: no gymspaces result (target {row.target:g}x{why})")
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
            notes.append("geometric mean target not judged: it needs every case, with Gymnasium")
    _judge_patched(report, targets)
    if targets is not None:
        notes.extend(_absolute_notes(run, targets, set(selected)))
    notes.extend(_floors_above_their_case(rows))
    notes.extend(left.notes(run.medians))  # each left row's claim beside its measured figures
    distances = [row.distance for row in rows if row.distance is not None and row.key in FLOORED_KEYS]
    if distances:
        near = sum(distance <= NEAR_FLOOR for distance in distances)
        notes.append(
            f"floor: {near} of {len(distances)} cases within {NEAR_FLOOR:g}x of their floor "
            f"(median distance {sorted(distances)[len(distances) // 2]:.1f}x); docs/performance.md explains floors"
        )
    return report


def _floors_above_their_case(rows: list[Row]) -> list[str]:
    """A note per floor measured slower than the gymspaces case it bounds: such a floor bounds nothing.

    A floor does a strict part of its case's work (benchmarks/floors.py), so
    this flags a floor to fix, or a case that stopped doing its work.
    """
    return [
        f"FLOOR ABOVE ITS CASE: {row.key}: floor {duration(row.bound)} > gymspaces {duration(row.ours)} "
        f"(distance {row.distance:.2f}x): the floor is no lower bound, fix it in benchmarks/floors.py"
        for row in rows
        if row.key in FLOORED_KEYS and row.distance is not None and row.distance < 1.0
    ]


def _geometric(values: list[float]) -> float:
    return math.exp(sum(math.log(value) for value in values) / len(values))


def _judge_patched(report: Report, targets: Targets | None) -> None:
    """The patch-mode group's geometric means and the verdict on *kept* (every case needed)."""
    rows = [row for row in report.rows if row.key in PATCHED_KEYS]
    measured = [row for row in rows if row.ratio is not None and row.kernels_gain is not None]
    report.kept_floor = targets.patched_kept if targets is not None else None
    if not rows:
        return
    if measured:
        report.patched_mean = _geometric([row.ratio for row in measured])  # type: ignore[misc]
        report.kernels_mean = _geometric([row.kernels_gain for row in measured])  # type: ignore[misc]
    report.patched_complete = len(measured) == len(PATCHED_KEYS)
    if report.kept_status == "MISS":
        report.misses.append(
            f"patch mode kept {report.kept:.0%} of the kernels' gain < {report.kept_floor:.0%} "
            f"(geometric means {report.patched_mean:.2f}x patched, {report.kernels_mean:.2f}x kernels)"
        )
    elif report.kept_status == "n/a":
        report.notes.append("patch mode's kept share not judged: it needs every patched_* case, with Gymnasium")


def _absolute_notes(run: Run, targets: Targets, selected: set[str]) -> list[str]:
    """The notes on the ``[absolute]`` targets of the selected cases (reported, never gated)."""
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
            notes.append(f"{key}: {duration(ours)} per call, {verdict} its {limit:g} us target (not gated)")
        if "max_ms_added" in limits and key in run.extra:
            notes.append(_added_note(key, run.extra[key], limits["max_ms_added"]))
        if "max_ms_over_numpy" in limits:
            numpy_time = run.median(key, BASELINE)
            if numpy_time is None:
                continue
            extra = (ours - numpy_time) * 1e3
            limit = limits["max_ms_over_numpy"]
            verdict = "within" if extra <= limit else "over"
            notes.append(
                f"{key}: {duration(ours)} vs import numpy {duration(numpy_time)}, {extra:+.1f} ms, "
                f"{verdict} its {limit:g} ms target (not gated)"
            )
    return notes


def _added_note(key: str, extra: dict[str, float], limit: float) -> str:
    """The note on a start-up case: the median of its paired differences against its limit (not gated)."""
    added = extra["added"] * 1e3
    verdict = "within" if added <= limit else "over"
    return (
        f"{key}: {added:+.1f} ms added (median, {extra['pairs']:.0f} pairs), "
        f"{verdict} its +{limit:g} ms target (not gated)"
    )


__all__ = ["FLOORED_KEYS", "GEOMETRIC_KEYS", "NEAR_FLOOR", "PATCHED_KEYS", "Report", "Row", "evaluate"]
