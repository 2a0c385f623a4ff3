"""What ran compiled while patched, what did not, and what it means for the program: the report's text.

:func:`report` formats the tables and what they mean for the program: the
gain (the run time, and the estimated run time without patch mode), what is
left (the share of the run still in space operations, and the gain if it took no time), which
operations ran compiled and which ran Gymnasium's own code and why, and the
spaces that did not run compiled, with where they were created; for this
process and for the processes its program started that recorded too.

What it reports is recorded in each process by
:mod:`gymspaces.gymnasium.profiler.recording` (``patch(report=True)``, ``python -m
gymspaces.gymnasium --report``), gathered from the processes of the run by
:mod:`gymspaces.gymnasium.profiler.processes`, and figured (the time in space
operations, the estimate of what patch mode removed) by
:mod:`gymspaces.gymnasium.profiler.estimate`.
"""

from __future__ import annotations

import math
import re
import textwrap
import time
from collections import Counter
from typing import Any

from gymspaces.gymnasium.profiler import recording
from gymspaces.gymnasium.profiler.estimate import Figures, Group, Replay, figures_of, replay_calls, timer_cost
from gymspaces.gymnasium.profiler.processes import child_counts_written
from gymspaces.gymnasium.profiler.recording import COMPILED_EVERY, STRETCH, STRETCH_EVERY

__all__ = ["report"]


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def _durations(*seconds: float) -> list[str]:
    """``seconds`` in one unit, the one that suits the largest (ms below a
    second: a short program's figures do not round to zero), each with at
    least three significant digits."""
    scale, unit = (1.0, "s") if max(seconds) >= 1 else (1e3, "ms")
    return [f"{_significant(value * scale)} {unit}" for value in seconds]


def _significant(value: float) -> str:
    if value >= 100 or value == 0:
        return f"{value:.0f}"
    decimals = 2 - math.floor(math.log10(value))
    return f"{value:.{min(decimals, 6)}f}"


NO_GAIN = 0.01
"""A plain estimate within this fraction of the run is no measurable gain (nor loss)."""


def report(estimate: bool = True, details: bool = False) -> str:
    """What patch mode gained this program and what is left, as text.

    Operations are recorded while Gymnasium is patched with
    ``patch(report=True)`` or run through ``python -m gymspaces.gymnasium
    --report`` (which prints this report at exit). Counts of the processes
    the program started that have exited are included (see
    :mod:`gymspaces.gymnasium.profiler.processes`).

    The default text reads in ten seconds: the gain first (the run time and
    the estimated plain run time; under ``python -m gymspaces.gymnasium``,
    the whole process, patch mode's own start-up counted in the run and not
    in the plain estimate), then what is left (the share of the run still in
    space operations and the gain 1 / (1 - share) if they took no time), then which operations
    ran compiled and which ran Gymnasium's own code, and what the report
    itself took. Every line is at most 100 columns. ``details`` gives the
    whole table and the method.

    Parameters
    ----------
    estimate : bool
        Estimate the time patch mode removed by replaying kept calls in a
        separate interpreter (a fraction of a second to a second); ``False``
        leaves it out.
    details : bool
        Every operation, per process group, and how each figure is made
        (``python -m gymspaces.gymnasium --report-details``).

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium import patch, report, unpatch
    >>> patch(report=True)
    >>> space = gymnasium.spaces.Discrete(3, seed=0)
    >>> _ = [space.sample() for _ in range(5)]
    >>> print(report(estimate=False, details=True).splitlines()[2].split()[:2])
    ['Discrete.sample', '5']
    >>> unpatch()
    """
    started = time.perf_counter()
    own = recording.current().snapshot()
    child_counts, missing = child_counts_written()
    main, workers = Group(), Group()
    main.add(own)
    for counts in child_counts:
        workers.add(counts)
    slow: Counter[tuple[str, str]] = Counter(own["slow_spaces"])
    plain: Counter[tuple[str, str, str]] = Counter(own["plain_calls"])
    for counts in child_counts:
        slow.update(counts["slow_spaces"])
        plain.update(counts["plain_calls"])
    replay = Replay(None, "")
    if estimate:
        kept_calls = _kept_for_replay([own, *child_counts])
        replay = replay_calls(kept_calls, for_import=bool(main.importers or workers.importers))
    cost = timer_cost()
    figures = [figures_of("this process", main, cost, replay)]
    if workers.processes:
        name = f"{workers.processes} child process{'es' if workers.processes != 1 else ''}"
        children = figures_of(name, workers, cost, replay, summed=True)
        figures = [figures_of("this process", main, cost, replay, children=(workers, children)), children]
    itself = time.perf_counter() - started
    if not details:
        return "\n".join(_summary(figures, main, workers, missing, plain, slow, replay, itself))
    lines = _table(main, workers)
    lines.append("")
    lines.extend(_time_section(figures, missing, cost, replay if estimate else None, itself))
    lines.append("")
    lines.extend(_plain_section(plain, slow))
    return "\n".join(line for text in lines for line in _wrap(text))


def _kept_for_replay(processes: list[dict[str, Any]]) -> list[bytes]:
    """The kept calls to replay: per operation, as many as one process keeps
    (:data:`~gymspaces.gymnasium.profiler.recording.KEPT_PER_OPERATION`), taken from the
    processes in turn (workers running the same code keep much the same calls, and each
    replayed call costs the report a few milliseconds at exit)."""
    by_label: dict[str, list[list[bytes]]] = {}
    for counts in processes:
        for label, items in counts["kept_calls"].items():
            by_label.setdefault(label, []).append(list(items))
    chosen: list[bytes] = []
    for lists in by_label.values():
        taken = 0
        for round_ in range(max(map(len, lists))):
            for items in lists:
                if round_ < len(items) and taken < recording.KEPT_PER_OPERATION:
                    chosen.append(items[round_])
                    taken += 1
    return chosen


WIDTH = 100
"""The widest line of either report."""


def _wrap(text: str) -> list[str]:
    """``text`` as lines of at most :data:`WIDTH` columns, broken between words (a
    word longer than a line, a long path say, is broken where it must), never
    between a figure and its unit; lines after the first are indented two
    columns more than the first."""
    if len(text) <= WIDTH:
        return [text]
    indent = " " * (len(text) - len(text.lstrip(" ")))
    joined = _FIGURE_AND_UNIT.sub(_NO_BREAK, text.strip())
    lines = textwrap.wrap(
        joined, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False
    )
    return [line.replace(_NO_BREAK, " ") for line in lines]


_NO_BREAK = "\u00a0"  # a space textwrap does not break at (it breaks at ASCII whitespace alone)
_FIGURE_AND_UNIT = re.compile(r"(?<=\d) (?=(?:s|ms|us|ns|calls?)\b)")


def _since(figures: Figures) -> str:
    where = {"process start": "since the process started", "the command's start": "since the command started",
             "patching": "since patching started"}.get(figures.counted_from, "")
    if figures.summed:
        where = {"since the process started": "since each started"}.get(where, where)
        return f"summed{', ' + where if where else ''}"
    return where


def _gain_line(figures: Figures) -> str:
    """``name: the gain (run time, plain estimate)``: faster, slower, or no measurable gain."""
    since = _since(figures)
    plain = figures.plain_run
    if plain is None:
        return f"  {figures.name}: {_durations(figures.run)[0]} run ({since}); the gain was not estimated"
    now, before = _durations(figures.run, plain)
    times = f"({now} run {since}, plain about {before})"
    if abs(plain - figures.run) < NO_GAIN * figures.run:
        return f"  {figures.name}: no measurable gain {times}"
    if plain > figures.run:
        return f"  {figures.name}: ~{plain / figures.run:.2f}x faster than plain {times}"
    return f"  {figures.name}: ~{figures.run / max(plain, 1e-9):.2f}x slower than plain {times}"


def _range_line(figures: Figures) -> str | None:
    """The estimate's range for a run that took longer than its CPU time where the system does not
    say what it waited for: its gain had it waited for a core (the replay's times scaled) and had it
    waited for workers or I/O (unscaled); None when there is no such range."""
    other = figures.unscaled
    if other is None or other.gain is None or figures.gain is None or abs(other.gain - figures.gain) < 0.005:
        return None
    low, high = sorted((other.gain, figures.gain))
    return (
        f"    between ~{low:.2f}x and ~{high:.2f}x: it took {figures.contention:.2f}x its CPU time, "
        "waiting for a core or for workers or I/O (the system does not say which)"
    )


def _children_line(figures: Figures, children: Figures | None) -> str | None:
    """What the child processes' gain took off this process's waits for them."""
    if children is None or abs(figures.from_children) < NO_GAIN * max(figures.run, 1e-9):
        return None
    how = "less" if figures.from_children > 0 else "more"
    return (
        f"    of that, {_durations(abs(figures.from_children))[0]} {how} waiting for its "
        f"{children.name} (patch mode's work in them, below)"
    )


LISTED = 3
"""Operations the short report names per group; --report-details lists every one."""


def _compiled_line(group: Group) -> str:
    """The operations that ran compiled in ``group``, most time first, and how many are left out."""
    compiled = group.compiled_calls()
    labels = sorted(compiled, key=lambda label: (-group.seconds[label], label))
    if not labels:
        return "    compiled: nothing (no patched space operation ran compiled)"
    shown = ", ".join(f"{label} x{compiled[label]}" for label in labels[:LISTED])
    left_out = len(labels) - LISTED
    more = f"; {left_out} more operation{'s' if left_out != 1 else ''}: --report-details" if left_out > 0 else ""
    return f"    compiled: {shown}{more}"


def _summary(
    figures: list[Figures],
    main: Group,
    workers: Group,
    missing: int,
    plain: Counter[tuple[str, str, str]],
    slow: Counter[tuple[str, str]],
    replay: Replay,
    itself: float,
) -> list[str]:
    """The short report: per group of processes the gain, what is left, what ran compiled;
    then what ran Gymnasium's code, and what the report took."""
    lines = ["gymspaces patch mode report (every figure, and how it is made: --report-details)"]
    children = figures[1] if len(figures) > 1 else None
    for group, counts in zip(figures, (main, workers)):
        lines.append(_gain_line(group))
        other_end = _range_line(group)
        if other_end:
            lines.append(other_end)
        if group is not children:
            waited_less = _children_line(group, children)
            if waited_less:
                lines.append(waited_less)
        if group.recording >= NO_GAIN * group.run:
            lines.append(
                f"    recording this report added ~{_durations(group.recording)[0]} to the run, "
                "taken out of these figures"
            )
        if group.startup:
            lines.append(
                f"    of the run, {_durations(group.startup)[0]} was patch mode's own start-up "
                "(importing gymspaces, patching)"
            )
        lines.append(_left_line(group))
        lines.append(_compiled_line(counts))
    lines.extend(_plain_summary(plain))
    if slow:
        (name, site), _ = slow.most_common(1)[0]
        total = sum(slow.values())
        lines.append(f"  not compiled: {total} space{'s' if total != 1 else ''}, e.g. {name} created at {site}")
    if missing:
        lines.append(f"  {missing} child process{'es' if missing != 1 else ''} did not report (still running, or killed)")
    if replay.seconds:
        lines.append(
            f"  this report: {_durations(itself)[0]} more at exit, outside the run "
            f"({_durations(replay.seconds)[0]} of it replaying calls for the estimate)"
        )
    return [line for text in lines for line in _wrap(text)]


def _left_line(figures: Figures) -> str:
    """What is left in space operations, and the most that taking it away could gain."""
    left = f"    left: {_durations(figures.spent)[0]} in space operations ({figures.share:.1%} of the run)"
    if figures.share < 0.005:  # a gain that rounds to 1.00x
        return f"{left}: nothing measurable left to gain there"
    return f"{left}; {figures.if_free} faster if they took no time"


def _plain_summary(plain: Counter[tuple[str, str, str]]) -> list[str]:
    """The short report's lines on calls that ran Gymnasium's own code: how many of
    which operation, and the reason of the most common one, whole."""
    if not plain:
        return []
    by_label: Counter[str] = Counter()
    for (label, _, _), count in plain.items():
        by_label[label] += count
    total = sum(by_label.values())
    shown = ", ".join(f"{label} x{count}" for label, count in by_label.most_common(3))
    more = f", {len(by_label) - 3} more" if len(by_label) > 3 else ""
    (label, name, reason), _ = plain.most_common(1)[0]
    return [
        f"  ran Gymnasium's own code: {total} call{'s' if total != 1 else ''} ({shown}{more})",
        f"    why, e.g. {label} on {name}: {reason}",
    ]


def _table(main: Group, workers: Group) -> list[str]:
    """Every operation: its calls (compiled or not) and their time, in this process and in the children."""
    lines = ["gymspaces: patched space operations"]
    with_workers = bool(workers.calls)
    header = f"{'operation':<30} {'calls':>9} {'compiled':>9} {'total ms':>10}"
    if with_workers:
        header += f" {'in children':>12} {'compiled':>9} {'children ms':>12}"
    lines.append(header)
    compiled, compiled_in_workers = main.compiled_calls(), workers.compiled_calls()
    labels = sorted(set(main.calls) | set(workers.calls), key=lambda k: -(main.seconds[k] + workers.seconds[k]))
    for label in labels:
        line = f"{label:<30} {main.calls[label]:>9} {compiled[label]:>9} {_ms(main.seconds[label]):>10}"
        if with_workers:
            line += f" {workers.calls[label]:>12} {compiled_in_workers[label]:>9} {_ms(workers.seconds[label]):>12}"
        lines.append(line)
    if not labels:
        lines.append("(none)")
    return lines


def _plain_section(plain: Counter[tuple[str, str, str]], slow: Counter[tuple[str, str]]) -> list[str]:
    lines = ["gymspaces: patched calls that ran Gymnasium's own code (the outcome is not provably the same)"]
    if plain:
        for (label, name, reason), count in plain.most_common():
            lines.append(f"{label} on {name} x{count}: {reason}")
    else:
        lines.append("(none)")
    lines.append("")
    lines.append("gymspaces: spaces that did not run compiled (custom classes, overridden methods)")
    if slow:
        for (name, site), count in slow.most_common():
            lines.append(f"{name} x{count}  created at {site}")
    else:
        lines.append("(none)")
    return lines


def _time_section(
    figures: list[Figures], missing: int, cost: tuple[float, float], replay: Replay | None, itself: float
) -> list[str]:
    lines = ["gymspaces: what space operations cost this program"]
    for group in figures:
        summed = " (summed over the processes)" if group.summed else ""
        spent_text, run_text = _durations(group.spent, group.run)
        lines.append(
            f"{group.name}: {spent_text} in space operations of {run_text} run time{summed}: "
            f"{group.share:.1%}, {group.if_free} if free"
        )
        lines.append(f"  run time: {_since(group) or 'since patching or process start'}" + _startup_text(group, replay))
        if group.recording:
            lines.append(
                f"  recording: ~{_durations(group.recording)[0]} of the run as measured was the recording's own "
                "(its timers, the compiled calls it slowed, the calls it ran as Gymnasium's own code), taken out "
                "of the run and the space operations"
            )
        if group.in_place:
            prices = ", ".join(
                f"{label} {plain * 1e6:.3g} / {compiled * 1e6:.3g} us" for label, (plain, compiled) in group.in_place.items()
            )
            lines.append(f"  priced in the run (plain / compiled per call): {prices}; any other by the replay")
        if group.removed is None or group.plain_run is None:
            continue
        plain_run = group.plain_run
        verb = "removed" if group.removed >= 0 else "added"
        removed_text, plain_text = _durations(abs(group.removed), plain_run)
        text = f"  patch mode {verb} ~{removed_text}: plain, about {plain_text}"
        if group.run > 0 and plain_run > 0:
            gain = plain_run / group.run
            said = "no measurable gain" if abs(gain - 1) < NO_GAIN else f"gain ~{gain:.2f}x"
            text += f", {(group.spent + group.removed) / plain_run:.1%} in space operations; {said}"
        lines.append(text)
        other = group.unscaled
        if other is not None and other.gain is not None:
            lines.append(
                f"  contention: the run took {group.contention:.2f}x its CPU time, so the replay's times were "
                f"scaled by it (waiting for a core); unscaled (waiting for workers or I/O): gain ~{other.gain:.2f}x"
            )
        if group.unknown:
            lines.append(f"  not estimated (no replayable call kept): {', '.join(group.unknown)}")
    if missing:
        lines.append(
            f"{missing} child process{'es' if missing != 1 else ''} started recording but did not report "
            "(still running, or ended without exiting: terminated, killed)"
        )
    lines.append(
        "run time: the whole process under python -m gymspaces.gymnasium and in the processes its program "
        "starts (from the system's record of the process's start, to 5 ms, where it has one: Linux), else "
        "since patching started; patch mode's own start-up in it (importing gymspaces' layer, patching) "
        "counts in the run and not in the plain estimate (plain = run - start-up + what patch mode removed), "
        "and the recording's own cost does not count in either"
    )
    lines.append(
        "space operations: calls not inside another, whether they ran compiled or Gymnasium's own code, "
        f"the timer's own cost ({cost[0] * 1e9:.0f} ns a call) taken out"
    )
    lines.append(
        "if free = 1 / (1 - share): how much faster the process would be if its space operations took no "
        "time at all (a program can gain a little more where Gymnasium's operations also slow the code "
        "around them, through their temporaries and caches); in processes running side by side, time saved "
        "in children shortens the run only where the main process waits for them"
    )
    if replay is not None:
        lines.append(
            f"estimate: an operation priced in the run ran plain in stretches of the run ({STRETCH} of every "
            f"{STRETCH_EVERY} outermost calls run as Gymnasium's own code, the same outcome; the second half, as "
            f"warm as a plain run, timed), and compiled in one call in {COMPILED_EVERY} timed with its sub-calls "
            "untimed; the others: " + replay.note
        )
        lines.append(
            f"the report itself: {_durations(itself)[0]} at exit, in no run time above "
            f"(the replay: {_durations(replay.seconds)[0]})"
        )
    return lines


def _startup_text(group: Figures, replay: Replay | None) -> str:
    """What of the run was patch mode's own start-up, and how it was measured."""
    if group.startup is None:
        return "; patch mode's start-up in it not measured (the replay did not run)"
    if not group.startup:
        return ""
    imported = replay.imported if replay is not None else None
    if not imported:
        return f"; {_durations(group.startup)[0]} of it patch mode's start-up (patching)"
    importing = group.startup - group.patching
    return (
        f"; {_durations(group.startup)[0]} of it patch mode's start-up: importing gymspaces' layer "
        f"({_durations(importing)[0]}, timed in the replay's interpreter) and patching "
        f"({_durations(group.patching)[0]})"
    )
