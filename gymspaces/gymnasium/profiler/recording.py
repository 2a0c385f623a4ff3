"""Recording in one process while patched: calls counted and timed, some kept, spaces that run plain.

``patch(report=True)`` (``python -m gymspaces.gymnasium --report``) wraps every
method and helper patching installs in :func:`timed`, which counts and times
its calls (apart, those not already inside another timed call: the program's
time in space operations) and keeps a copy of a few of them for the estimate
(:mod:`gymspaces.gymnasium.profiler.estimate`). Calls that ran Gymnasium's own code
are counted as such, with their reason (:func:`ran_plain`), and every
Gymnasium space created whose class does not run compiled (a custom space, or
a subclass overriding ``sample``/``contains``) is recorded with the place in
user code that created it (:func:`plain_space`).

All of it goes to the process's one record (:func:`current`), which
:mod:`gymspaces.gymnasium.profiler.processes` renews when counting starts and in a
forked child. Recording costs about 2.5 us per patched call, and 1.6 us more
per sub-call, each being timed too (a Discrete's sample 0.15 us, 2.6 us
recorded; a Dict's of three Discrete spaces 0.9 us, 8.2 us: measured in
docs/patching.md), so it is off unless asked for. To price each operation
where the program calls it, stretches of the run go as Gymnasium's own code
and a few calls go compiled with their sub-calls untimed (:data:`STRETCH`).
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

import gymnasium
import numpy as np

import gymspaces
from gymspaces.gymnasium.recorder import gymnasium_tree

__all__ = ["Record", "current", "deciding", "nesting", "patched", "plain_space", "ran_plain", "replace", "timed"]

KEPT_PER_OPERATION = 12
"""Calls kept per operation for the estimate: the 1st, 2nd, 4th, 8th, ... outermost call."""

STRETCH, STRETCH_EVERY = 64, 2048
"""Of every ``STRETCH_EVERY`` outermost calls a process makes, of any operation, a stretch of
``STRETCH`` runs Gymnasium's own code instead where it would run compiled, sub-calls included (the
outcome is the same): a stretch of the program run plain, the first from the 257th call. Its second
half, Gymnasium's code as warm as in a plain run, prices each operation plain where the program
calls it, caches as the program leaves them (the first half warms it up)."""

COMPILED_EVERY = 32
"""One outermost call of an operation in this many (the 5th, 37th, ...: never a kept one), outside
the stretches, runs compiled with its sub-calls untimed: the operation's compiled price, alike."""

_QUIET_AT = 4  # that call's place in each COMPILED_EVERY
_FIRST_STRETCH = 256  # where the first stretch starts: past the calls of the program's start

_QUIET_DEPTH, _PLAIN_DEPTH = 1 << 29, 1 << 30
"""The nesting inside those calls: a timed call there is counted, not timed, and runs its entry
(compiled, or not, as patch mode decides) or, at the second, Gymnasium's code."""


class Record:
    """Everything recorded in this process since patching (or :func:`~gymspaces.gymnasium.profiler.processes.reset`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        self.seconds: dict[str, float] = {}
        # Calls not inside another timed call, and their time: the program's
        # time in space operations, each counted once.
        self.outer_calls: Counter[str] = Counter()
        self.outer_seconds: dict[str, float] = {}
        # Outermost calls that ran Gymnasium's own code: their time is not
        # priced by the estimate (patch mode did not change it).
        self.plain_outer_seconds: dict[str, float] = {}
        # Outermost calls timed whole (STRETCH, COMPILED_EVERY), by (operation, how), and their time.
        self.whole_calls: Counter[tuple[str, str]] = Counter()
        self.whole_seconds: dict[tuple[str, str], float] = {}
        self.whole_cpu_seconds: dict[tuple[str, str], float] = {}  # their thread's time on a core
        self.untimed_calls = 0  # the sub-calls of those, counted and not timed
        self.outer_total = 0  # outermost calls of any operation: where the stretches fall
        self.wrapper_seconds = 0.0  # the timer's own time around the outermost calls it timed
        self.slow_spaces: Counter[tuple[str, str]] = Counter()
        self.plain_calls: Counter[tuple[str, str, str]] = Counter()  # (operation, class, reason)
        self.kept_calls: dict[str, list[bytes]] = {}
        self.started = time.perf_counter()
        # Where the run starts: when counting started, unless the whole process
        # is counted (count_whole_process), and what that start was.
        self.origin = self.started
        # The process's CPU time at the origin: a run that waited for a core took longer than its CPU time.
        self.cpu_origin = time.process_time()
        # The main thread's time on a core and waiting for one at the origin (None: the system
        # does not say): what tells a wait for a core from a wait for workers or I/O.
        self.core_origin = core_times()
        self.counted_from = "patching"
        self.patching = 0.0  # seconds patch() took: patch mode's start-up, when in the run
        self.imported = False  # whether gymspaces' layer was imported inside the run

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {
                "pid": os.getpid(),
                "calls": dict(self.calls),
                "seconds": dict(self.seconds),
                "outer_calls": dict(self.outer_calls),
                "outer_seconds": dict(self.outer_seconds),
                "slow_spaces": dict(self.slow_spaces),
                "plain_calls": dict(self.plain_calls),
                "kept_calls": {label: list(items) for label, items in self.kept_calls.items()},
                "plain_outer_seconds": dict(self.plain_outer_seconds),
                "whole_calls": dict(self.whole_calls),
                "whole_seconds": dict(self.whole_seconds),
                "whole_cpu_seconds": dict(self.whole_cpu_seconds),
                "untimed_calls": self.untimed_calls,
                "wrapper_seconds": self.wrapper_seconds,
                "run_seconds": time.perf_counter() - self.origin,
                "run_cpu_seconds": time.process_time() - self.cpu_origin,
                "run_core_seconds": _since(core_times(), self.core_origin),
                "counted_from": self.counted_from,
                "startup_seconds": self.patching if self.counted_from != "patching" else 0.0,
                "imported": self.imported,
            }


def core_times() -> tuple[float, float] | None:
    """The main thread's seconds on a core and waiting in the queue for one, since it started
    (Linux's /proc/<pid>/schedstat); None where the system does not say."""
    try:
        with open(f"/proc/{os.getpid()}/schedstat", "rb") as handle:
            on_core, waiting = handle.read().split()[:2]
        return int(on_core) / 1e9, int(waiting) / 1e9
    except (OSError, ValueError):
        return None


def _since(now: tuple[float, float] | None, origin: tuple[float, float] | None) -> tuple[float, float] | None:
    if now is None or origin is None:
        return None
    return now[0] - origin[0], now[1] - origin[1]


_record = Record()

nesting = threading.local()
"""Per thread: ``.value``, the timed calls open; ``.plain``, a bit per open call,
set (at its depth) when that call ran Gymnasium's own code (:func:`ran_plain`)."""


def current() -> Record:
    """The process's record: what :func:`timed` and :func:`ran_plain` add to."""
    return _record


def replace(record: Record) -> Record:
    """Make ``record`` the process's record; returns the one it replaces."""
    global _record
    previous, _record = _record, record
    return previous

# Frames in these directories are library internals, not "where it was created".
_LIBRARY_DIRS = tuple(
    os.path.dirname(os.path.abspath(str(package.__file__))) + os.sep for package in (gymnasium, gymspaces)
)


def timed(label: str, function: Callable[..., Any], plain: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` counting its calls and their time under ``label``; some outermost calls run
    ``plain`` (Gymnasium's own code, the same outcome) or untimed sub-calls (:data:`STRETCH`,
    :data:`COMPILED_EVERY`)."""
    clock, on_core = time.perf_counter, time.thread_time
    depth = nesting

    def call(*args: Any, **kwargs: Any) -> Any:
        level = getattr(depth, "value", 0)
        if level >= _QUIET_DEPTH:  # inside a call timed whole: counted only
            record = _record
            with record.lock:
                record.calls[label] += 1
                record.untimed_calls += 1
            return (plain if level >= _PLAIN_DEPTH else function)(*args, **kwargs)
        kind = None  # or how the call is timed whole: "plain", "warm-up", "compiled"
        entered = 0.0  # when an outermost call entered the timer (a sub-call's is inside its caller's time)
        if not level:
            entered = clock()
            record = _record
            place = (record.outer_total - _FIRST_STRETCH) % STRETCH_EVERY
            if place < STRETCH:
                kind = "plain" if place >= STRETCH // 2 else "warm-up"
            elif record.outer_calls[label] % COMPILED_EVERY == _QUIET_AT:
                kind = "compiled"
            if kind is not None and not _runs_compiled(label, args, kwargs):
                kind = None
        depth.value = level + 1 if kind is None else _QUIET_DEPTH if kind == "compiled" else _PLAIN_DEPTH
        cpu = on_core() if kind is not None else 0.0
        start = clock()
        try:
            return (function if kind is None or kind == "compiled" else plain)(*args, **kwargs)
        finally:
            stop = clock()
            elapsed = stop - start
            if kind is not None:
                # The thread's time on a core, or the wall clock's where less (a call never taken off
                # its core, whose two system calls to read its time would count in it).
                cpu = min(on_core() - cpu, elapsed)
            depth.value = level
            marks = getattr(depth, "plain", 0)
            ran_plain = (marks >> (level + 1)) & 1
            if ran_plain:
                depth.plain = marks & ~(1 << (level + 1))
            record = _record
            with record.lock:
                record.calls[label] += 1
                record.seconds[label] = record.seconds.get(label, 0.0) + elapsed
                if not level:
                    record.outer_total += 1
                    count = record.outer_calls[label] + 1
                    record.outer_calls[label] = count
                    record.outer_seconds[label] = record.outer_seconds.get(label, 0.0) + elapsed
                    if ran_plain:
                        record.plain_outer_seconds[label] = record.plain_outer_seconds.get(label, 0.0) + elapsed
                    if kind is not None:
                        record.whole_calls[label, kind] += 1
                        record.whole_seconds[label, kind] = record.whole_seconds.get((label, kind), 0.0) + elapsed
                        record.whole_cpu_seconds[label, kind] = record.whole_cpu_seconds.get((label, kind), 0.0) + cpu
            # Only calls that ran compiled are kept: the estimate prices those alone.
            if not (level or ran_plain or kind) and count & (count - 1) == 0 and count < 1 << KEPT_PER_OPERATION:
                _keep_call(record, label, args, kwargs)
            if not level:  # the timer's own time around the call, for the estimate to take out
                record.wrapper_seconds += start - entered + clock() - stop

    call.__name__ = getattr(function, "__name__", label)
    call.__qualname__ = getattr(function, "__qualname__", label)
    call.__doc__ = function.__doc__
    call.__module__ = getattr(function, "__module__", __name__)
    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call


_decide: Callable[..., str | None] | None = None


def deciding(decide: Callable[..., str | None]) -> None:
    """Ask ``decide`` (patch mode's :func:`~gymspaces.gymnasium.plain_reason`) which calls run compiled."""
    global _decide
    _decide = decide


def _runs_compiled(label: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether patch mode runs this call compiled (its :func:`~gymspaces.gymnasium.plain_reason`, which
    decides as the call would, without making it): only such a call is run as Gymnasium's code to price
    it, so one that runs Gymnasium's code anyway stays counted as such."""
    decide = _decide
    if decide is None:
        return False
    level = getattr(nesting, "value", 0)
    nesting.value = _PLAIN_DEPTH  # whatever the decision calls runs as Gymnasium's code, untimed
    try:
        return bool(args) and decide(args[0], label.rpartition(".")[2], *args[1:], **kwargs) is None
    except Exception:  # a call the decision cannot read: left to the entry, which tells
        return False
    finally:
        nesting.value = level


# ---------------------------------------------------------------- calls kept for the estimate

_SCALAR_TYPES = frozenset({int, float, bool, complex, str, bytes, type(None)})


def _is_pickle_safe(value: Any, budget: list[int]) -> bool:
    """Whether pickling ``value`` runs no code but the interpreter's and numpy's
    (builtin scalars and containers, exact numpy arrays and scalars)."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    kind = type(value)
    if kind in _SCALAR_TYPES:
        return True
    if kind is np.ndarray:
        return not value.dtype.hasobject
    if isinstance(value, np.generic):
        return kind.__module__ == "numpy" and not isinstance(value, np.object_)
    if kind in (tuple, list) or kind is gymnasium.spaces.GraphInstance:
        return all(_is_pickle_safe(item, budget) for item in value)
    if kind is dict:
        return all(_is_pickle_safe(key, budget) and _is_pickle_safe(item, budget) for key, item in value.items())
    return False


# Replayed with a shared memory of the replay's own; not replayed at all.
_SHARED_MEMORY_ARGUMENT = {"write_to_shared_memory": 3, "read_from_shared_memory": 1}
_NOT_REPLAYED = frozenset({"create_shared_memory"})
_ARRAY_FACTORIES = (np.zeros, np.empty, np.ones)


def _keep_call(record: Record, label: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Keep a copy of one call for the estimate, if copying it has no observable effect.

    Only calls on spaces made entirely of Gymnasium's own classes, with pickle-safe
    arguments, are kept: pickling them reads the objects (a generator's
    state included) and runs no code of the program.
    """
    if label in _NOT_REPLAYED or not args or not gymnasium_tree(args[0]):
        return
    rest = list(args[1:])
    position = _SHARED_MEMORY_ARGUMENT.get(label)
    if position is not None:  # the replay makes a shared memory of its own
        if len(args) > position:
            del rest[position - 1]
        elif "shared_memory" in kwargs:
            kwargs = {key: value for key, value in kwargs.items() if key != "shared_memory"}
        else:
            return
    if label == "create_empty_array" and rest[1:2] and not any(rest[1] is f for f in _ARRAY_FACTORIES):
        return
    if label == "create_empty_array":
        rest = rest[:1] + [rest[1].__name__] if rest[1:2] else rest
    budget = [10_000]
    if not all(_is_pickle_safe(item, budget) for item in rest) or not _is_pickle_safe(kwargs, budget):
        return
    try:
        kept = pickle.dumps((label, args[0], tuple(rest), dict(kwargs)), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # anything that does not pickle is left out of the estimate
        return
    with record.lock:
        record.kept_calls.setdefault(label, []).append(kept)


# ---------------------------------------------------------------- spaces that run plain


def _creation_site() -> str:
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(_LIBRARY_DIRS) and frame.f_code.co_name != "__init__":
            return f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"
        frame = frame.f_back
    return "<unknown>"


def plain_space(space: Any) -> None:
    """Record ``space``, just created, of a class that runs Gymnasium's own code, with
    the place in the program that created it."""
    cls = type(space)
    key = (f"{cls.__module__}.{cls.__qualname__}", _creation_site())
    record = _record
    with record.lock:
        record.slow_spaces[key] += 1


def ran_plain(label: str, space: Any, reason: str) -> None:
    """Record that a patched ``label`` call on ``space`` runs Gymnasium's own code, for ``reason``.

    Called inside the timed call it is about: the mark at the current depth
    tells that call (:func:`timed`) it ran plain, so it is not counted as compiled.
    """
    depth = getattr(nesting, "value", 0)
    if depth < _QUIET_DEPTH:  # inside a call timed whole, nothing reads the mark
        nesting.plain = getattr(nesting, "plain", 0) | (1 << depth)
    cls = type(space)
    record = _record
    with record.lock:
        record.plain_calls[(label, f"{cls.__module__}.{cls.__qualname__}", reason)] += 1


def patched(seconds: float) -> None:
    """Record how long :func:`gymspaces.gymnasium.patch` took in this process (part of
    patch mode's start-up, counted when the whole process is)."""
    _record.patching = seconds
