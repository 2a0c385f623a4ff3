"""The report's figures: the time in space operations, and the estimate of what patch mode removed.

The counts of a group of processes (:class:`Group`) give the time spent in
space operations -- calls not already inside another timed call, the timer's
own cost (:func:`timer_cost`) taken out -- and with the run time, the share of
the run in space operations and ``1 / (1 - share)`` (:attr:`Figures.if_free`):
how much faster the program would be if they took no time. The time patch mode
removed is estimated from each operation's calls timed whole in the run, as
Gymnasium's own code and compiled (:meth:`Group.price_in_run`), or, for an
operation with too few, from a replay of the kept calls in a separate
interpreter (:func:`replay_calls`, running :mod:`gymspaces.gymnasium.profiler.replay`), and
the plain run from it: the run without patch mode's start-up, with what it
removed (:func:`figures_of`). Calls that ran Gymnasium's own code are counted as
such, not as compiled, and not priced.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import gymspaces
from gymspaces.gymnasium.profiler import recording
from gymspaces.gymnasium.profiler.recording import Record, nesting, timed

__all__ = ["timer_cost"]

REPLAY_TIMEOUT = 120.0
"""Seconds the replay (:mod:`gymspaces.gymnasium.profiler.replay`) may take before the report gives up the estimate."""

REPLAY_PROGRAM = (
    "import sys, time\n"
    # -c puts the working directory first on sys.path (not under -P): no
    # module there may stand in for Gymnasium's or gymspaces'.
    "if not getattr(sys.flags, 'safe_path', False): del sys.path[0]\n"
    "import gymnasium\n"
    "started = time.perf_counter()\n"
    "import gymspaces.gymnasium, gymspaces.gymnasium.__main__\n"
    "imported = time.perf_counter() - started\n"
    "from gymspaces.gymnasium.profiler.replay import main\n"
    "main(imported)\n"
)
"""The replay's program (``python -c``): times the import of gymspaces' layer once
Gymnasium is imported, then runs :func:`gymspaces.gymnasium.profiler.replay.main`."""


# ---------------------------------------------------------------- the timer's own cost


def timer_cost() -> tuple[float, float]:
    """``(outer, nested)``: seconds the timer adds to one call's recorded time, and
    to the time of a call it is nested in (measured now, on a call that does nothing)."""
    scratch = Record()
    saved = recording.replace(scratch)  # a scratch record: the program's counts are untouched
    try:
        nothing = timed("nothing", _nothing, _nothing)
        clock = time.perf_counter
        rounds = 2000
        outer = nested = float("inf")
        for _ in range(5):
            scratch.outer_seconds.clear()
            scratch.outer_calls.clear()
            for _ in range(rounds):
                nothing()
            outer = min(outer, scratch.outer_seconds["nothing"] / rounds)
            depth = getattr(nesting, "value", 0)
            nesting.value = depth + 1  # as inside another timed call
            try:
                start = clock()
                for _ in range(rounds):
                    nothing()
                wrapped = clock() - start
                start = clock()
                for _ in range(rounds):
                    _nothing()
                bare = clock() - start
            finally:
                nesting.value = depth
            nested = min(nested, max(wrapped - bare, 0.0) / rounds)
        return outer, nested
    finally:
        recording.replace(saved)


def _nothing() -> None:
    return None


# ---------------------------------------------------------------- the estimate


@dataclass
class Replay:
    """What the replay in a separate interpreter measured (:mod:`gymspaces.gymnasium.profiler.replay`)."""

    per_call: dict[str, tuple[float, float]] | None
    """Seconds per call of each operation, ``(plain, compiled)``, averaged over its kept calls; None when
    not estimated."""
    note: str
    """How the ratios were obtained, or why there are none."""
    imported: float | None = None
    """Seconds that interpreter took to import gymspaces' layer once Gymnasium was imported."""
    seconds: float = 0.0
    """What the replay took, at exit (0 when it did not run)."""

    @property
    def ratios(self) -> dict[str, float] | None:
        """Plain/compiled cost ratio per operation; None when not estimated."""
        if self.per_call is None:
            return None
        return {label: plain / compiled for label, (plain, compiled) in self.per_call.items()}


_NOTHING_KEPT = "nothing to replay: no call was kept (none on Gymnasium's own classes with pickle-safe arguments)"


def replay_calls(kept_calls: list[bytes], for_import: bool) -> Replay:
    """Replay ``kept_calls`` in a separate interpreter, plain then compiled.

    It runs when there are kept calls or ``for_import`` (a whole process is
    counted, whose start-up holds the import of gymspaces' layer, which that
    interpreter measures).
    """
    if not kept_calls and not for_import:
        return Replay({}, _NOTHING_KEPT)
    environment = {
        key: value for key, value in os.environ.items() if key not in ("GYMSPACES_PATCH", "GYMSPACES_REPORT")
    }
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(str(gymspaces.__file__))))
    # This gymspaces, wherever it was imported from (last: nothing else moves).
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [environment.get("PYTHONPATH"), package_root]))
    started = time.perf_counter()
    try:
        result = subprocess.run(
            [sys.executable, "-c", REPLAY_PROGRAM],
            input=pickle.dumps(kept_calls, protocol=pickle.HIGHEST_PROTOCOL),
            capture_output=True,
            env=environment,
            timeout=REPLAY_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        why = f"not available: the replay could not run ({type(error).__name__}: {error})"
        return Replay(None, why, seconds=time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        last = (result.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
        return Replay(None, f"not available: the replay failed ({last})", seconds=seconds)
    measured = json.loads(result.stdout)
    per_call, note = _per_call(measured["calls"], seconds)
    return Replay(per_call, note if kept_calls else _NOTHING_KEPT, measured["import"], seconds)


def _per_call(measured: list[list[Any]], seconds: float) -> tuple[dict[str, tuple[float, float]], str]:
    """Each operation's seconds per call, plain and compiled, from the replay's ``[label, plain s, compiled s]``
    (one per kept call, averaged), and how they were obtained."""
    plain: dict[str, list[float]] = {}
    compiled: dict[str, list[float]] = {}
    used = failed = 0
    for label, plain_seconds, compiled_seconds in measured:
        if plain_seconds is None or compiled_seconds is None or compiled_seconds <= 0:
            failed += 1
            continue
        used += 1
        plain.setdefault(label, []).append(plain_seconds)
        compiled.setdefault(label, []).append(compiled_seconds)
    per_call = {
        label: (sum(plain[label]) / len(plain[label]), sum(compiled[label]) / len(compiled[label])) for label in plain
    }
    spread = ", ".join(
        f"{label} {one_plain * 1e6:.3g} / {one_compiled * 1e6:.3g} us"
        for label, (one_plain, one_compiled) in sorted(per_call.items())
    )
    note = (
        f"{used} kept calls (the 1st, 2nd, 4th, 8th, ... of each operation) replayed on copies, plain and "
        f"compiled, in a separate interpreter ({seconds:.1f} s); an operation's compiled calls cost the "
        f"program its calls x its plain or compiled time per call there (plain / compiled): {spread or 'none'}"
    )
    if failed:
        note += f"; {failed} kept calls could not be replayed"
    return per_call, note


# ---------------------------------------------------------------- the figures


MIN_TIMED_WHOLE = 3
"""Calls timed whole, of each kind, an operation needs for its price to be read from them
(:meth:`Group.price_in_run`); else the replay prices it."""

MAX_CONTENTION = 4.0
"""The most the replay's times are scaled up for a run that waited for a core."""

CONTENDED = 1.05
"""A run whose wall time is more than this over its CPU time, where the system does not say what it
waited for, gets its estimate also without the scaling (:attr:`Figures.unscaled`)."""


class Group:
    """Counts summed over processes."""

    def __init__(self) -> None:
        self.processes = 0
        self.calls: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()
        self.outer_calls: Counter[str] = Counter()
        self.outer_seconds: Counter[str] = Counter()
        self.plain_outer_seconds: Counter[str] = Counter()
        # Outermost calls timed whole, by (operation, "plain", "warm-up" or "compiled"), and their seconds.
        self.whole_calls: Counter[tuple[str, str]] = Counter()
        self.whole_seconds: Counter[tuple[str, str]] = Counter()
        self.whole_cpu_seconds: Counter[tuple[str, str]] = Counter()  # their thread's time on a core
        self.untimed_calls = 0  # their sub-calls
        self.wrapper_seconds = 0.0  # the timer's own time around the outermost calls
        self.plain_calls: Counter[str] = Counter()  # by operation
        self.run_seconds = 0.0
        self.run_cpu_seconds = 0.0  # the processes' CPU time over their runs
        # Their main threads' seconds on a core and waiting for one (None: a process's system did not say).
        self.core_seconds: tuple[float, float] | None = (0.0, 0.0)
        self.startup_seconds = 0.0  # patching, where it is in the run
        self.importers = 0  # processes that imported gymspaces' layer inside their run
        self.counted_from: set[str] = set()

    def add(self, counts: dict[str, Any]) -> None:
        self.processes += 1
        self.calls.update(counts["calls"])
        self.seconds.update(counts["seconds"])
        self.outer_calls.update(counts["outer_calls"])
        self.outer_seconds.update(counts["outer_seconds"])
        self.plain_outer_seconds.update(counts["plain_outer_seconds"])
        self.whole_calls.update(counts.get("whole_calls", {}))
        self.whole_seconds.update(counts.get("whole_seconds", {}))
        self.whole_cpu_seconds.update(counts.get("whole_cpu_seconds", {}))
        self.untimed_calls += counts.get("untimed_calls", 0)
        self.wrapper_seconds += counts.get("wrapper_seconds", 0.0)
        for (label, _, _), count in counts["plain_calls"].items():
            self.plain_calls[label] += count
        self.run_seconds += counts["run_seconds"]
        self.run_cpu_seconds += counts.get("run_cpu_seconds", counts["run_seconds"])
        core = counts.get("run_core_seconds")
        if core is None or self.core_seconds is None:
            self.core_seconds = None
        else:
            self.core_seconds = (self.core_seconds[0] + core[0], self.core_seconds[1] + core[1])
        self.startup_seconds += counts["startup_seconds"]
        self.importers += bool(counts["imported"])
        self.counted_from.add(counts["counted_from"])

    def compiled_calls(self) -> Counter[str]:
        """Calls that ran compiled, by operation (the timed calls less those that ran plain)."""
        return self.calls - self.plain_calls

    def compiled_outer_calls(self, label: str) -> float:
        """Outermost calls of ``label`` that ran compiled, or would have but for the recording
        (:data:`~gymspaces.gymnasium.profiler.recording.STRETCH`)."""
        return self.outer_calls[label] * self.compiled_calls()[label] / max(self.calls[label], 1)

    def _timed_whole(self, label: str) -> tuple[int, float]:
        """``label``'s outermost calls timed whole (:mod:`~gymspaces.gymnasium.profiler.recording`'s
        ``STRETCH`` and ``COMPILED_EVERY``), and their seconds."""
        keys = ((label, "plain"), (label, "warm-up"), (label, "compiled"))
        return sum(self.whole_calls[key] for key in keys), sum(self.whole_seconds[key] for key in keys)

    def in_operations(self, cost: tuple[float, float]) -> dict[str, float]:
        """Seconds in each operation's outermost calls, the timer's cost taken out, the calls
        timed whole counted as the others."""
        outer_cost, nested_cost = cost
        whole = {label: self._timed_whole(label) for label in self.outer_seconds}
        nested_calls = sum(self.calls.values()) - sum(self.outer_calls.values()) - self.untimed_calls
        others = {label: seconds - whole[label][1] for label, seconds in self.outer_seconds.items()}
        total_outer = sum(others.values()) or 1.0
        result = {}
        for label, seconds in others.items():
            calls = self.outer_calls[label] - whole[label][0]
            # Nested calls are spread over the outermost ones by time.
            share_of_nested = nested_calls * nested_cost * seconds / total_outer
            mean = max(seconds - calls * outer_cost - share_of_nested, 0.0) / max(calls, 1)
            result[label] = mean * self.outer_calls[label]
        return result

    def price_in_run(self, label: str) -> tuple[float, float] | None:
        """``label``'s seconds on a core per outermost call where the program made them, ``(plain,
        compiled)``, from its calls timed whole as Gymnasium's own code and compiled; None with fewer
        than :data:`MIN_TIMED_WHOLE` of either. Time on a core, as the replay's: a wait for one
        lands on a call by chance (a whole-process measure, the contention, scales it)."""
        price = []
        for kind in ("plain", "compiled"):
            calls = self.whole_calls[label, kind]
            if calls < MIN_TIMED_WHOLE:
                return None
            price.append(self.whole_cpu_seconds[label, kind] / calls)
        return price[0], price[1]

    def contention(self) -> float:
        """How much longer the run's work took than its time on a core (1: it never waited for
        one), at most :data:`MAX_CONTENTION`: the replay times calls on a core of their own.

        Where the system says how long the main threads waited for a core, that is the
        measure; elsewhere the wall time over the CPU time, which also counts the waits
        for workers or I/O (hence :attr:`Figures.unscaled`)."""
        if self.core_seconds is not None:
            on_core, queued = self.core_seconds
            return 1.0 if on_core <= 0 else min(max((on_core + queued) / on_core, 1.0), MAX_CONTENTION)
        if self.run_cpu_seconds <= 0:
            return 1.0
        return min(max(self.run_seconds / self.run_cpu_seconds, 1.0), MAX_CONTENTION)

    def busy(self) -> float | None:
        """Seconds the main threads ran or waited for a core (None: not known)."""
        return None if self.core_seconds is None else sum(self.core_seconds)

    def waited(self) -> float | None:
        """Seconds of the run spent waiting neither on a core nor for one: for workers, I/O, a timer."""
        busy = self.busy()
        return None if busy is None else max(self.run_seconds - busy, 0.0)

    def compiled_share(self, label: str) -> float:
        """The part of ``label``'s outermost time spent in calls that ran compiled (the calls
        timed whole left out)."""
        total = self.outer_seconds[label] - self._timed_whole(label)[1]
        return 0.0 if total <= 0 else max(total - self.plain_outer_seconds[label], 0.0) / total


@dataclass
class Figures:
    """What the space operations cost one group of processes (this one, or its children summed)."""

    name: str
    spent: float
    """Seconds in space operations (outermost calls), the timer's cost taken out."""
    run: float
    counted_from: str
    """Where the run starts: "process start", "the command's start", "patching" (or "" when mixed)."""
    startup: float | None = 0.0
    """Seconds of patch mode's own start-up inside the run (None: not measured)."""
    patching: float = 0.0
    """The part of ``startup`` spent in ``patch()`` (the rest: importing gymspaces' layer)."""
    removed: float | None = None
    """Estimated seconds patch mode removed (negative: added); None when not estimated."""
    recording: float = 0.0
    """Estimated seconds the recording itself added to the run, already taken out of ``run`` and ``spent``."""
    unknown: tuple[str, ...] = ()
    """Operations the estimate could not price (no replayable call kept)."""
    in_place: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Seconds on a core per call, ``(plain, compiled)``, of the operations priced from calls timed where
    the program made them (:meth:`Group.price_in_run`), the others from the replay."""
    summed: bool = False
    contention: float = 1.0
    """How much longer the run's work took than its time on a core, which scaled the replay's times
    (:meth:`Group.contention`)."""
    unscaled: Figures | None = None
    """The same estimate with the replay's times unscaled, for a run that took longer than its CPU
    time where the system does not say whether it waited for a core or for workers or I/O (the
    estimate's uncertainty); else None."""
    from_children: float = 0.0
    """Estimated seconds patch mode took off this process's waits for its child processes (what it
    removed in them, and added there by its start-up, in the share of their work it waited for)."""

    @property
    def share(self) -> float:
        return min(self.spent / self.run, 1.0) if self.run > 0 else 0.0

    @property
    def if_free(self) -> str:
        """How much faster the run would be if its space operations took no time: ``1 / (1 - share)``."""
        return "unbounded" if self.share >= 1.0 else f"{1 / (1 - self.share):.2f}x"

    @property
    def plain_run(self) -> float | None:
        """The run without patch mode: its start-up out, what it removed back in."""
        if self.removed is None or self.startup is None:
            return None
        return max(self.run - self.startup + self.removed + self.from_children, 0.0)

    @property
    def gain(self) -> float | None:
        plain = self.plain_run
        return None if plain is None or self.run <= 0 else plain / self.run


def figures_of(
    name: str, group: Group, cost: tuple[float, float], replay: Replay, summed: bool = False,
    contention: float | None = None, children: tuple[Group, Figures] | None = None,
) -> Figures:
    """The figures of ``group``; with the replay's times per call, the recording taken out of them.

    Recording inflates what it measures: a timed call's wrapper, and the
    wrappers of the calls nested in it (a Dict's sample times each of its
    sub-spaces' samples), cost more than the compiled call itself. So an
    operation the replay priced costs the run its compiled calls x the
    replay's compiled time per call, and patch mode removed its compiled
    calls x (plain - compiled) per call, both scaled by the run's
    contention (the replay had a core to itself; a run on a loaded machine
    waited for one, :meth:`Group.contention`); what the run measured in it beyond
    that, and each outermost call's wrapper outside its own timing, was the
    recording's, and comes out of the run. An operation the replay could not
    price keeps its measured time, the timer's cost taken out. A contended
    run gets its figures unscaled too (``contention`` 1), the other end of
    the estimate's range, where the system does not say how long it waited
    for a core.

    With ``children`` (the processes this one started: their counts and
    figures), the time this process waited for them -- neither on a core
    nor waiting for one -- is shortened by what patch mode removed in them
    and lengthened by its start-up there and by their recording, in the
    share their work took of that wait (:func:`share_waited`).
    """
    operations = group.in_operations(cost)
    startup: float | None = group.startup_seconds
    if group.importers:  # the import of gymspaces' layer, timed in the replay's interpreter
        startup = None if replay.imported is None else group.startup_seconds + group.importers * replay.imported
    counted_from = next(iter(group.counted_from)) if len(group.counted_from) == 1 else ""
    figures = Figures(
        name, sum(operations.values()), group.run_seconds, counted_from, startup, group.startup_seconds, summed=summed
    )
    if replay.per_call is None:
        return figures
    removed = spent = 0.0
    unknown = []
    scale = group.contention() if contention is None else contention
    in_place = {}
    for label in group.outer_seconds:
        share = group.compiled_share(label)  # calls that ran plain are as fast as plain
        # Timed on a core where the program made them, else replayed on a core of the replay's own;
        # either scaled by the run's wait for a core.
        on_core = group.price_in_run(label)
        if on_core is not None:
            in_place[label] = on_core
        else:
            on_core = replay.per_call.get(label)
        priced = None if on_core is None else (on_core[0] * scale, on_core[1] * scale)
        if share <= 0 or priced is None:
            if share > 0:
                unknown.append(label)
            spent += operations.get(label, 0.0)
            continue
        plain_per_call, compiled_per_call = priced
        calls = group.compiled_outer_calls(label)
        removed += calls * (plain_per_call - compiled_per_call)  # negative where compiled is slower
        spent += calls * compiled_per_call + operations.get(label, 0.0) * (1.0 - share)
    # The timer's own time around each outermost call, measured, and its clock reads.
    outside = group.wrapper_seconds + sum(group.outer_calls.values()) * cost[0]
    # What the run measured beyond the compiled price is the recording's.
    figures.recording = max(sum(group.outer_seconds.values()) - spent + outside, 0.0)
    figures.run = max(group.run_seconds - figures.recording, 0.0)
    figures.spent = spent
    figures.removed = removed
    figures.unknown = tuple(sorted(unknown))
    figures.in_place = dict(sorted(in_place.items()))
    figures.contention = scale
    if children is not None:
        child_group, child = children
        share = share_waited(group, child_group)
        waited = group.waited() or 0.0
        in_wait = min(child.recording * share, waited)  # the children's recording, as this process waited for it
        figures.recording += in_wait
        figures.run = max(figures.run - in_wait, 0.0)
        if child.removed is not None:
            figures.from_children = (child.removed - (child.startup or 0.0)) * share
    if contention is None and scale > CONTENDED and group.core_seconds is None:
        figures.unscaled = figures_of(name, group, cost, replay, summed, contention=1.0, children=children)
    return figures


def share_waited(parent: Group, children: Group) -> float:
    """The part of the children's work (their time on a core or waiting for one) that ``parent``
    waited for: its waits (neither on a core nor waiting for one) over that work, at most 1.

    Their work, done side by side while the parent waits, shortens the wait by
    its length over how many of them worked at once, on average: a second of
    work taken out of four workers that ran together while the parent waited
    shortens its wait by a quarter of a second. None of it, where the system
    does not say how long the processes waited for a core."""
    waited, work = parent.waited(), children.busy()
    if not waited or not work:
        return 0.0
    return min(waited / work, 1.0)
