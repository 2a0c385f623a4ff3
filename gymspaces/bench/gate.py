"""The speed gate of ``python -m gymspaces bench --check``: confirm the misses, then give the verdict.

A case below its floor is measured again, in several short rounds side by
side, before it counts as a miss (:func:`confirm_misses`); :func:`verdict` prints the gate's lines and returns
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

# A case below its floor is measured again before the gate calls it a miss.
# This machine class slows down now and then for a second or two (another
# tenant; every process, pure Python too, runs ~1.8x slower), and one such
# spell over one side of a case moves its ratio by half. So a miss is timed
# again CONFIRM_ROUNDS times, both sides back to back in short measurements,
# alternating which goes first, and judged on the median of those ratios: a
# spell spoils a round or two, a real regression misses in every round.
CONFIRM_ROUNDS = 5
CONFIRM_ARGS = ("--benchmark-max-time=0.2", "--benchmark-min-rounds=5")


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
    """Measure every case below its floor ``CONFIRM_ROUNDS`` more times and keep the median round.

    Each round times both implementations of the missed cases side by side
    (Gymnasium first in every other round). A case's figures in ``run`` are
    replaced by those of its round with the median ratio, and the report is
    evaluated anew: one noisy round cannot fail the gate, and none can pass a
    case that is really below its floor.
    """
    missed = [row.key for row in report.rows if row.status == "MISS" and row.ours is not None]
    if not missed:
        return report
    print(
        f"re-measuring {', '.join(missed)} (below the floor): {CONFIRM_ROUNDS} rounds side by side, "
        f"{CONFIRM_ARGS[0]}",
        file=sys.stderr,
    )
    rounds: dict[str, list[dict[str, float]]] = {key: [] for key in missed}
    for attempt in range(CONFIRM_ROUNDS):
        with tempfile.TemporaryDirectory(prefix="gymspaces-bench-confirm-") as scratch:
            json_path = str(Path(scratch) / "confirm.json")
            code = run_suite(
                json_path, quick=False, cases=missed, pytest_args=pytest_args, verbose=verbose,
                timing_args=CONFIRM_ARGS, gymnasium_first=attempt % 2 == 1,
            )
            if code != 0:
                break
            again = load_run(json_path)
        for key in missed:
            medians = again.medians.get(key, {})
            if medians.get("gymspaces") and medians.get("gymnasium"):
                rounds[key].append(medians)
    for key, measured in rounds.items():
        if not measured:
            continue
        measured.sort(key=lambda medians: medians["gymnasium"] / medians["gymspaces"])
        run.medians[key] = measured[(len(measured) - 1) // 2]
        ratios = ", ".join(f"{medians['gymnasium'] / medians['gymspaces']:.1f}x" for medians in measured)
        run.confirmed.append(
            f"{key}: below the floor at first; re-measured in {len(measured)} rounds side by side "
            f"({CONFIRM_ARGS[0]}): {ratios}, the median round shown"
        )
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


__all__ = ["CONFIRM_ARGS", "CONFIRM_ROUNDS", "GATE_ENV", "GATE_MODES", "confirm_misses", "gate_mode", "verdict"]
