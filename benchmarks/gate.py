"""The speed gate of ``python -m benchmarks --check``: confirm the misses, then give the verdict.

A case below its speed target is measured again, both sides interleaved, before it
counts as a miss (:func:`confirm_misses`); :func:`verdict` prints the gate's lines and returns
the exit status, which ``GYMSPACES_GATE=warn`` keeps at 0 for misses. A speedup that fell
past ``--fail-above`` against the ``--compare`` baseline is measured again the same way
(:func:`confirm_regressions`; :mod:`benchmarks.compare` judges it).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from benchmarks.cases import CASES_BY_KEY, Case
from benchmarks.compare import MAIN, Comparison, sign_test
from benchmarks.errors import BENCH_EXTRA, EXIT_MISSED, EXIT_OK, EXIT_USAGE, UsageError
from benchmarks.evaluation import Report, evaluate
from benchmarks.paired import Interleaved, kernels_side, time_interleaved
from benchmarks.results import Run
from benchmarks.table import fit
from benchmarks.targets import Targets

GATE_ENV = "GYMSPACES_GATE"
GATE_MODES = ("fail", "warn")
REMEASURES = 2  # a case still below its target after one second look gets a third

# A case below its target is measured again before the gate calls it a miss.
# This machine class slows down now and then for one to several seconds
# (another tenant; every process, pure Python too, runs ~1.8x slower), and
# one such spell over one side of a case moves its ratio by half. So a miss
# is timed again with both sides interleaved in blocks of a few milliseconds
# (:mod:`benchmarks.paired`): a spell slows neighbouring blocks of both
# sides alike, a real regression shows in every pair.


def gate_mode() -> str:
    """The gate's mode from ``GYMSPACES_GATE``: ``"fail"`` (the default) or ``"warn"``."""
    mode = os.environ.get(GATE_ENV, "fail").strip().lower() or "fail"
    if mode not in GATE_MODES:
        raise UsageError(f"{GATE_ENV} must be one of {', '.join(GATE_MODES)}, got {mode!r}")
    return mode


def _time_again(cases: dict[str, Case], timings: dict[str, Interleaved], why: str) -> None:
    """Time each of ``cases`` (by the name the output gives it) again, both sides interleaved, adding its
    pairs to ``timings[name]``."""
    for line in fit([f"re-measuring {', '.join(cases)} ({why}): both sides interleaved"]):
        print(line, file=sys.stderr)
    for name, case in cases.items():
        timing = time_interleaved(case)
        timings[name] = timings[name] + timing if name in timings else timing


def _note(name: str, timing: Interleaved, attempts: int, first: str, shown: str = "the median pair shown") -> str:
    """The note on a figure re-measured ``attempts`` times because it was ``first`` at first."""
    ratios = timing.pair_ratios
    quartiles = ratios[len(ratios) // 4], ratios[(3 * len(ratios)) // 4]
    times = "once" if attempts == 1 else f"{attempts} times"
    return (
        f"{name}: {first} at first; re-measured {times}, {len(ratios)} interleaved pairs of blocks "
        f"(ratio of neighbouring blocks {quartiles[0]:.2f}x to {quartiles[1]:.2f}x, middle half), {shown}"
    )


def confirm_misses(
    run: Run, report: Report, targets: Targets | None, cases: Sequence[str] | None, baseline: Run | None
) -> Report:
    """Time every case below its target again, both sides interleaved, and judge it on its median pair.

    A case's gymspaces and Gymnasium medians in ``run`` are replaced by the
    two blocks of its pair with the median ratio (its floor, the least-work
    bound, is kept), and the report is evaluated anew: a slow spell over one
    side cannot fail the gate, and nothing passes a case that is really below
    its target. A case still below is measured once more (``REMEASURES`` in
    all), and judged on the pairs of both together.
    """
    timings: dict[str, Interleaved] = {}
    for attempt in range(1, REMEASURES + 1):
        missed = [row.key for row in report.rows if row.status == "MISS" and row.ours is not None]
        if not missed:
            break
        _time_again({key: CASES_BY_KEY[key] for key in missed}, timings, "below the target")
        for key in missed:
            run.medians[key].update(timings[key].median_pair)
            run.spread.setdefault(key, {}).update(timings[key].quartiles)
            run.remeasured[key] = attempt
        report = evaluate(run, targets, cases, baseline, True)
    if not timings:
        return report
    for key, timing in timings.items():
        run.confirmed.append(_note(key, timing, run.remeasured[key], "below the target"))
    report.notes.extend(run.confirmed)
    return report


def confirm_regressions(run: Run, comparison: Comparison) -> bool:
    """Time every speedup that regressed against the ``--compare`` baseline again, both sides interleaved,
    and judge it on its median pair, as :func:`confirm_misses` judges a miss.

    A case's own speedup takes the figures of its median pair in ``run`` (so
    the report shows what was judged); a patched case's kernels gain takes
    only the ratio of its median pair (its table keeps the first figures).
    The line is :meth:`~benchmarks.compare.Comparison.line`: from the low
    edge of the baseline's spread where it kept one. A case re-measured for
    its target is timed again here too: a timed fall fails only if pairs of
    this run show it, a one-sided sign test
    (:func:`~benchmarks.compare.sign_test`) of how many pairs fell past the
    threshold, below :data:`~benchmarks.compare.SIGNIFICANCE`; one that
    fails the test is looked at again with more pairs, and one that still
    fails it is listed as within noise, not failed. Up to ``REMEASURES``
    looks; each note joins ``run.confirmed``. Returns
    whether anything was re-measured (the report is then evaluated anew).
    """
    for speedup in comparison.speedups:
        if speedup.measure == MAIN:
            speedup.remeasured = run.remeasured.get(speedup.key, 0)
    timings: dict[str, Interleaved] = {}
    attempts: dict[str, int] = {}
    for attempt in range(1, REMEASURES + 1):
        # Below the line on its figures, and not yet shown to be by its pairs (a second look adds pairs).
        regressed = [
            s for s in comparison.speedups if comparison.fell(s) and (s.chance is None or comparison.within_noise(s))
        ]
        if not regressed:
            break
        cases = {s.name: CASES_BY_KEY[s.key] for s in regressed}
        cases.update({s.name: kernels_side(cases[s.name]) for s in regressed if s.measure != MAIN})
        _time_again(cases, timings, f"fell more than {comparison.threshold:g}% against {comparison.name}")
        for s in regressed:
            pair = timings[s.name].median_pair
            s.now = pair["gymnasium"] / pair["gymspaces"]
            # The median pair alone could still be a spell's: the pairs must fall past the line more
            # often than chance before it is called a regression.
            s.chance = sign_test(timings[s.name].pair_ratios, comparison.line(s))
            s.remeasured = attempts[s.name] = attempt
            if s.measure == MAIN:
                run.medians[s.key].update(pair)
                run.spread.setdefault(s.key, {}).update(timings[s.name].quartiles)
    for s in comparison.speedups:
        if s.name in timings:
            shown = "the median pair shown" if s.measure == MAIN else "the median pair's ratio compared"
            first = f"more than {comparison.threshold:g}% below {comparison.name}"
            run.confirmed.append(_note(s.name, timings[s.name], attempts[s.name], first, shown))
    return bool(timings)


def verdict(report: Report, targets: Targets | None, gate: str) -> int:
    """Print the gate's verdict on ``report`` and return the exit status (``gate``: ``"fail"`` or ``"warn"``)."""
    assert targets is not None
    print()
    if not report.has_reference:
        print(f"gate: cannot judge speed targets without Gymnasium ({BENCH_EXTRA})")
        return EXIT_USAGE
    judged = sum(1 for row in report.rows if row.status in ("pass", "MISS"))
    judged += report.geometric_status in ("pass", "MISS")
    if not report.misses:
        print(f"gate: PASS, {judged} targets of {targets.path} met")
        return EXIT_OK
    lines = [f"gate: FAIL, {len(report.misses)} of {judged} targets of {targets.path} missed:"]
    lines += [f"  {miss}" for miss in report.misses]
    print("\n".join(fit(lines)))
    if gate == "warn":
        print(f"{GATE_ENV}=warn: reporting the misses without failing")
        return EXIT_OK
    return EXIT_MISSED


__all__ = ["GATE_ENV", "GATE_MODES", "REMEASURES", "confirm_misses", "confirm_regressions", "gate_mode", "verdict"]
