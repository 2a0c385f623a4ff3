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
forked child. Recording costs about 2 us per patched call, and as much again
per sub-call, each being timed too (a Discrete's sample 0.14 us, 2.0 us
recorded; a Dict's of three Discrete spaces 1.1 us, 8.2 us: measured in
docs/patching.md), so it is off unless asked for.
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

__all__ = ["Record", "current", "nesting", "patched", "plain_space", "ran_plain", "replace", "timed"]

KEPT_PER_OPERATION = 12
"""Calls kept per operation for the estimate: the 1st, 2nd, 4th, 8th, ... outermost call."""


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


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` counting its calls and their time under ``label``."""
    clock = time.perf_counter
    depth = nesting

    def call(*args: Any, **kwargs: Any) -> Any:
        level = getattr(depth, "value", 0)
        depth.value = level + 1
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            elapsed = clock() - start
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
                    count = record.outer_calls[label] + 1
                    record.outer_calls[label] = count
                    record.outer_seconds[label] = record.outer_seconds.get(label, 0.0) + elapsed
                    if ran_plain:
                        record.plain_outer_seconds[label] = record.plain_outer_seconds.get(label, 0.0) + elapsed
            # Only calls that ran compiled are kept: the estimate prices those alone.
            if not level and not ran_plain and count & (count - 1) == 0 and count < 1 << KEPT_PER_OPERATION:
                _keep_call(record, label, args, kwargs)

    call.__name__ = getattr(function, "__name__", label)
    call.__qualname__ = getattr(function, "__qualname__", label)
    call.__doc__ = function.__doc__
    call.__module__ = getattr(function, "__module__", __name__)
    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call


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
    nesting.plain = getattr(nesting, "plain", 0) | (1 << depth)
    cls = type(space)
    record = _record
    with record.lock:
        record.plain_calls[(label, f"{cls.__module__}.{cls.__qualname__}", reason)] += 1


def patched(seconds: float) -> None:
    """Record how long :func:`gymspaces.gymnasium.patch` took in this process (part of
    patch mode's start-up, counted when the whole process is)."""
    _record.patching = seconds
