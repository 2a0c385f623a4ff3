"""The report's estimate (``gymspaces.gymnasium.profiler.estimate``): what patch mode removed, priced with the
replay's times per call, and its range where the run's contention leaves it uncertain.

These tests give the estimate counts and replayed times directly, so each
figure can be worked out by hand.
"""

from __future__ import annotations

import pytest

from gymspaces.gymnasium.profiler import estimate as _estimate
from gymspaces.gymnasium.profiler import report as _report
from gymspaces.gymnasium.profiler.estimate import CONTENDED, Group, Replay, figures_of

CALLS = 10_000
PLAIN, COMPILED = 2e-6, 2e-7  # seconds per call in the replay
NO_TIMER = (0.0, 0.0)  # the timer's cost, outer and nested: none, so the arithmetic stays exact


def _group(run: float, cpu: float) -> Group:
    """A process that ran ``run`` seconds on ``cpu`` seconds of CPU, with CALLS compiled Discrete samples."""
    group = Group()
    group.processes = 1
    label = "Discrete.sample"
    group.calls[label] = group.outer_calls[label] = CALLS
    group.seconds[label] = group.outer_seconds[label] = CALLS * COMPILED * 3  # recording triples a call
    group.run_seconds, group.run_cpu_seconds = run, cpu
    group.counted_from.add("process start")
    return group


def _replay() -> Replay:
    return Replay({"Discrete.sample": (PLAIN, COMPILED)}, "replayed")


def test_a_run_that_never_waited_has_one_estimate():
    figures = figures_of("this process", _group(run=1.0, cpu=1.0), NO_TIMER, _replay())
    assert figures.contention == 1.0 and figures.unscaled is None
    assert figures.removed == pytest.approx(CALLS * (PLAIN - COMPILED))
    assert _report._range_line(figures) is None


def test_a_contended_run_gives_the_other_end_of_its_estimate_unscaled():
    contention = 2.0
    figures = figures_of("this process", _group(run=1.0, cpu=1.0 / contention), NO_TIMER, _replay())
    assert figures.contention == pytest.approx(contention) and contention > CONTENDED
    # Taken as waiting for a core: the replay's times scaled by the contention.
    assert figures.removed == pytest.approx(CALLS * (PLAIN - COMPILED) * contention)
    # Taken as waiting for something else: the replay's times as they are.
    other = figures.unscaled
    assert other is not None and other.unscaled is None
    assert other.removed == pytest.approx(CALLS * (PLAIN - COMPILED))
    assert other.gain is not None and figures.gain is not None and 1.0 < other.gain < figures.gain
    line = _report._range_line(figures)
    assert line == (
        f"    range: ~{other.gain:.2f}x if the run, at 2.00x its CPU time, waited for workers or I/O, not a core"
    )
    assert len(line) <= _report.WIDTH


def test_contention_is_capped():
    figures = figures_of("this process", _group(run=10.0, cpu=0.1), NO_TIMER, _replay())
    assert figures.contention == _estimate.MAX_CONTENTION
