"""The speed gate of ``python -m gymspaces bench --check``: confirm the misses, then give the verdict.

A case below its floor is measured again before it counts as a miss
(:func:`confirm_misses`); :func:`verdict` prints the gate's lines and returns
the exit status, which ``GYMSPACES_GATE=warn`` keeps at 0 for misses.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from gymspaces.bench.errors import BENCH_EXTRA, EXIT_MISSED, EXIT_OK, EXIT_USAGE, UsageError
from gymspaces.bench.evaluation import Report, evaluate
from gymspaces.bench.results import Run, load_run
from gymspaces.bench.runner import run_suite
from gymspaces.bench.targets import Targets

GATE_ENV = "GYMSPACES_GATE"
GATE_MODES = ("fail", "warn")

# A case below its floor is measured again, with longer measurements, before
# the gate calls it a miss: on a shared 2-core machine one noisy measurement
# of a sub-microsecond case can move a ratio by a third. Only a case that
# misses every time fails the gate.
CONFIRM_ATTEMPTS = 2
CONFIRM_ARGS = ("--benchmark-max-time=0.5", "--benchmark-min-rounds=5")


def gate_mode() -> str:
    """The gate's mode from ``GYMSPACES_GATE``: ``"fail"`` (the default) or ``"warn"``."""
    mode = os.environ.get(GATE_ENV, "fail").strip().lower() or "fail"
    if mode not in GATE_MODES:
        raise UsageError(f"{GATE_ENV} must be one of {', '.join(GATE_MODES)}, got {mode!r}")
    return mode


def confirm_misses(
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


def verdict(report: Report, targets: Targets | None, gate: str) -> int:
    """Print the gate's verdict on ``report`` and return the exit status (``gate``: ``"fail"`` or ``"warn"``)."""
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


__all__ = ["CONFIRM_ARGS", "CONFIRM_ATTEMPTS", "GATE_ENV", "GATE_MODES", "confirm_misses", "gate_mode", "verdict"]
