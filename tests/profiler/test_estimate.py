"""The report's estimate (``gymspaces.gymnasium.profiler.estimate``): what patch mode removed, priced with the
replay's times per call, scaled by the run's wait for a core; its range where the system does not say what
the run waited for; and what the child processes' gain took off the parent's wait for them.

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


def _group(run: float, cpu: float, core: tuple[float, float] | None = None) -> Group:
    """A process that ran ``run`` seconds on ``cpu`` seconds of CPU, with CALLS compiled Discrete samples;
    its main thread ``core``: (seconds on a core, seconds waiting for one), or None: the system did not say."""
    group = Group()
    group.processes = 1
    group.core_seconds = core
    label = "Discrete.sample"
    group.calls[label] = group.outer_calls[label] = CALLS
    group.seconds[label] = group.outer_seconds[label] = CALLS * COMPILED * 3  # recording triples a call
    group.run_seconds, group.run_cpu_seconds = run, cpu
    group.counted_from.add("process start")
    return group


def _replay() -> Replay:
    return Replay({"Discrete.sample": (PLAIN, COMPILED)}, "replayed")


def test_a_run_that_never_waited_has_one_estimate():
    figures = figures_of("this process", _group(run=1.0, cpu=1.0, core=(1.0, 0.0)), NO_TIMER, _replay())
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
        f"    between ~{other.gain:.2f}x and ~{figures.gain:.2f}x: it took 2.00x its CPU time, waiting for a core "
        "or for workers or I/O (the system does not say which)"
    )
    assert max(map(len, _report._wrap(line))) <= _report.WIDTH


def test_contention_is_capped():
    figures = figures_of("this process", _group(run=10.0, cpu=0.1), NO_TIMER, _replay())
    assert figures.contention == _estimate.MAX_CONTENTION
    figures = figures_of("this process", _group(run=10.0, cpu=0.1, core=(0.1, 9.0)), NO_TIMER, _replay())
    assert figures.contention == _estimate.MAX_CONTENTION


def test_a_wait_for_a_core_scales_and_a_wait_for_workers_does_not():
    """Where the system says how long the run waited for a core, that alone scales the replay's times,
    and there is no range: a run of 4 s with 1 s on a core, 1 s waiting for one, 2 s asleep."""
    figures = figures_of("this process", _group(run=4.0, cpu=1.0, core=(1.0, 1.0)), NO_TIMER, _replay())
    assert figures.contention == pytest.approx(2.0)
    assert figures.removed == pytest.approx(CALLS * (PLAIN - COMPILED) * 2.0)
    assert figures.unscaled is None and _report._range_line(figures) is None
    asleep = figures_of("this process", _group(run=4.0, cpu=1.0, core=(1.0, 0.0)), NO_TIMER, _replay())
    assert asleep.contention == 1.0 and asleep.removed == pytest.approx(CALLS * (PLAIN - COMPILED))


def _workers(count: int, each_on_core: float, each_queued: float) -> Group:
    """``count`` worker processes that each ran CALLS compiled Discrete samples."""
    group = Group()
    for _ in range(count):
        one = _group(run=10.0, cpu=each_on_core, core=(each_on_core, each_queued))
        group.add(
            {
                "calls": one.calls, "seconds": one.seconds, "outer_calls": one.outer_calls,
                "outer_seconds": one.outer_seconds, "plain_outer_seconds": {}, "plain_calls": {},
                "run_seconds": one.run_seconds, "run_cpu_seconds": each_on_core,
                "run_core_seconds": (each_on_core, each_queued), "startup_seconds": 0.0, "imported": False,
                "counted_from": "process start",
            }
        )
    return group


def test_the_parent_waits_less_by_the_share_of_the_workers_gain_it_waited_for():
    """Four workers, 1 s on a core and 1 s waiting for one each (8 s of work side by side), while the
    parent waited 2 s for them: it waited for a quarter of their work, and a quarter of what patch mode
    removed in them (at their contention, 2x) comes off its wait; so does a quarter of their recording."""
    workers = _workers(4, each_on_core=1.0, each_queued=1.0)
    children = figures_of("4 child processes", workers, NO_TIMER, _replay(), summed=True)
    assert children.removed == pytest.approx(4 * CALLS * (PLAIN - COMPILED) * 2.0)
    parent = _group(run=3.0, cpu=1.0, core=(0.5, 0.5))  # 1 s on a core or waiting for one, 2 s waiting
    assert _estimate.share_waited(parent, workers) == pytest.approx(2.0 / 8.0)
    alone = figures_of("this process", parent, NO_TIMER, _replay())
    figures = figures_of("this process", parent, NO_TIMER, _replay(), children=(workers, children))
    assert figures.from_children == pytest.approx(children.removed / 4)
    assert figures.recording == pytest.approx(alone.recording + children.recording / 4)
    assert figures.plain_run == pytest.approx(figures.run + figures.removed + figures.from_children)
    line = _report._children_line(figures, children)
    assert line is not None and line.startswith("    of that, ") and "less waiting for its 4 child processes" in line


def test_a_parent_that_never_waited_gains_nothing_from_its_workers():
    workers = _workers(2, each_on_core=1.0, each_queued=0.0)
    children = figures_of("2 child processes", workers, NO_TIMER, _replay(), summed=True)
    parent = _group(run=1.0, cpu=1.0, core=(1.0, 0.0))
    figures = figures_of("this process", parent, NO_TIMER, _replay(), children=(workers, children))
    assert figures.from_children == 0.0 and _report._children_line(figures, children) is None


def test_an_operation_timed_in_the_run_is_priced_from_its_own_calls_not_the_replay():
    """Some calls were timed whole where the program made them, as Gymnasium's own code (in a stretch
    run plain) and compiled: their time on a core prices the operation as it ran, scaled by the run's
    wait for a core as the replay's would be; the replay's times are left unused. What the run measured
    beyond the compiled price (the recording's timers, the calls run as Gymnasium's code) is the
    recording's, taken out of the run."""
    label = "Discrete.sample"
    group = _group(run=4.0, cpu=1.0, core=(1.0, 1.0))  # waited for a core as long as it ran: 2x
    whole = CALLS // 32  # of each kind
    plain_in_run, compiled_in_run = 5e-6, 4e-7  # on a core; colder than the replay's
    recorded = COMPILED * 9  # each other call, as the recording measured it (wall clock)
    group.whole_calls[label, "plain"] = group.whole_calls[label, "compiled"] = whole
    group.whole_cpu_seconds[label, "plain"] = whole * plain_in_run
    group.whole_cpu_seconds[label, "compiled"] = whole * compiled_in_run
    group.whole_seconds[label, "plain"] = whole * plain_in_run * 2
    group.whole_seconds[label, "compiled"] = whole * compiled_in_run * 2
    group.seconds[label] = group.outer_seconds[label] = (
        (CALLS - 2 * whole) * recorded + 2 * whole * (plain_in_run + compiled_in_run)
    )
    figures = figures_of("this process", group, NO_TIMER, _replay())
    assert list(figures.in_place) == [label]
    assert figures.in_place[label] == pytest.approx((plain_in_run, compiled_in_run))
    assert figures.removed == pytest.approx(CALLS * (plain_in_run - compiled_in_run) * 2)
    assert figures.spent == pytest.approx(CALLS * compiled_in_run * 2)
    assert figures.recording == pytest.approx(group.outer_seconds[label] - figures.spent)
    assert figures.run == pytest.approx(4.0 - figures.recording)
    # Too few calls timed whole: the replay prices the operation, scaled alike.
    group.whole_calls[label, "plain"] = _estimate.MIN_TIMED_WHOLE - 1
    replayed = figures_of("this process", group, NO_TIMER, _replay())
    assert replayed.in_place == {} and replayed.removed == pytest.approx(CALLS * (PLAIN - COMPILED) * 2.0)
