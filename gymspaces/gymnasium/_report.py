"""What ran compiled while patched, what did not, and what it means for the program.

``patch(report=True)`` (``python -m gymspaces.gymnasium --report``) counts and
times every call of the methods and helpers patching installed, and records
every Gymnasium space created whose class does not run compiled (a custom
space, or a subclass overriding ``sample``/``contains``) with the place in
user code that created it. :func:`report` formats the tables and what they
mean for the program:

* the time spent in space operations -- calls not already inside another
  timed call, the timer's own cost taken out -- and the run time since
  patching started, hence the share of the run in space operations and the
  ceiling ``1 / (1 - share)``: the most any spaces library could still speed
  the program up;
* an estimate of the time patch mode removed, from a replay of sampled calls
  (see :mod:`gymspaces.gymnasium._replay`);
* the same for every process the program started that recorded too
  (``AsyncVectorEnv`` workers under fork, spawn and forkserver): a recording
  process makes a directory, which forked children inherit and
  ``python -m gymspaces.gymnasium --report`` names in ``GYMSPACES_REPORT``
  for the processes started otherwise (patched and recording from their
  import of Gymnasium, see :mod:`gymspaces._autopatch`); every such process
  writes its counts there when it exits, for the report to merge.

Recording costs a few hundred nanoseconds per call, so it is off unless asked for.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

import gymnasium
import numpy as np

import gymspaces
from gymspaces.gymnasium._guard import GYMNASIUM_CLASSES, tree_reason

__all__ = ["report"]

DIRECTORY_VARIABLE = "GYMSPACES_REPORT"
"""Where the processes of a recorded run write their counts (set by the process that reports)."""

SAMPLES_PER_OPERATION = 12
"""Calls kept per operation for the estimate: the 1st, 2nd, 4th, 8th, ... outermost call."""

REPLAY_TIMEOUT = 120.0
"""Seconds the replay (:mod:`gymspaces.gymnasium._replay`) may take before the report gives up the estimate."""

_SUFFIX = ".counts"  # a finished process's counts
_STARTED = ".started"  # a recording child process that has started


class _Record:
    """Everything recorded in this process since patching (or :func:`reset`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        self.seconds: dict[str, float] = {}
        # Calls not inside another timed call, and their time: the program's
        # time in space operations, each counted once.
        self.outer_calls: Counter[str] = Counter()
        self.outer_seconds: dict[str, float] = {}
        self.slow_spaces: Counter[tuple[str, str]] = Counter()
        self.plain_calls: Counter[tuple[str, str, str]] = Counter()  # (operation, class, reason)
        self.samples: dict[str, list[bytes]] = {}
        self.started = time.perf_counter()

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
                "samples": {label: list(items) for label, items in self.samples.items()},
                "run_seconds": time.perf_counter() - self.started,
            }


_record = _Record()
_depth = threading.local()  # .value: timed calls open in this thread

# Frames in these directories are library internals, not "where it was created".
_LIBRARY_DIRS = tuple(
    os.path.dirname(os.path.abspath(str(package.__file__))) + os.sep for package in (gymnasium, gymspaces)
)


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` counting its calls and their time under ``label``."""
    clock = time.perf_counter
    depth = _depth

    def call(*args: Any, **kwargs: Any) -> Any:
        level = getattr(depth, "value", 0)
        depth.value = level + 1
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            elapsed = clock() - start
            depth.value = level
            record = _record
            with record.lock:
                record.calls[label] += 1
                record.seconds[label] = record.seconds.get(label, 0.0) + elapsed
                if not level:
                    count = record.outer_calls[label] + 1
                    record.outer_calls[label] = count
                    record.outer_seconds[label] = record.outer_seconds.get(label, 0.0) + elapsed
            if not level and count & (count - 1) == 0 and count < 1 << SAMPLES_PER_OPERATION:
                _keep_sample(record, label, args, kwargs)

    call.__name__ = getattr(function, "__name__", label)
    call.__qualname__ = getattr(function, "__qualname__", label)
    call.__doc__ = function.__doc__
    call.__module__ = getattr(function, "__module__", __name__)
    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call


# ---------------------------------------------------------------- samples for the estimate

_SCALAR_TYPES = frozenset({int, float, bool, complex, str, bytes, type(None)})


def _pickles_as_data(value: Any, budget: list[int]) -> bool:
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
        return all(_pickles_as_data(item, budget) for item in value)
    if kind is dict:
        return all(_pickles_as_data(key, budget) and _pickles_as_data(item, budget) for key, item in value.items())
    return False


def _gymnasium_tree(space: Any) -> bool:
    """Whether every node of ``space`` is exactly one of Gymnasium's classes (pickles by value, anywhere)."""
    stack = [space]
    while stack:
        node = stack.pop()
        if type(node) not in GYMNASIUM_CLASSES:
            return False
        children = vars(node).get("spaces")
        if children is not None:
            stack.extend(children.values() if isinstance(children, dict) else children)
        for name in ("feature_space", "node_space", "edge_space"):
            child = vars(node).get(name)
            if child is not None:
                stack.append(child)
    return True


# Replayed with a shared memory of the replay's own; not replayed at all.
_SHARED_MEMORY_ARGUMENT = {"write_to_shared_memory": 3, "read_from_shared_memory": 1}
_NOT_REPLAYED = frozenset({"create_shared_memory"})
_ARRAY_FACTORIES = (np.zeros, np.empty, np.ones)


def _keep_sample(record: _Record, label: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Keep a copy of one call for the estimate, if copying it has no observable effect.

    Only calls on spaces made entirely of Gymnasium's own classes, with plain
    data arguments, are kept: pickling them reads the objects (a generator's
    state included) and runs no code of the program.
    """
    if label in _NOT_REPLAYED or not args or not _gymnasium_tree(args[0]):
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
    if not all(_pickles_as_data(item, budget) for item in rest) or not _pickles_as_data(kwargs, budget):
        return
    try:
        sample = pickle.dumps((label, args[0], tuple(rest), dict(kwargs)), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # anything that does not pickle is left out of the estimate
        return
    with record.lock:
        record.samples.setdefault(label, []).append(sample)


# ---------------------------------------------------------------- spaces that run plain


def _creation_site() -> str:
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(_LIBRARY_DIRS) and frame.f_code.co_name != "__init__":
            return f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"
        frame = frame.f_back
    return "<unknown>"


def recording_init(original: Callable[..., Any], compiled: Callable[[type], bool]) -> Callable[..., Any]:
    """``Space.__init__`` that records spaces whose class does not run compiled."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        cls = type(self)
        if not compiled(cls):
            key = (f"{cls.__module__}.{cls.__qualname__}", _creation_site())
            record = _record
            with record.lock:
                record.slow_spaces[key] += 1

    __init__.__qualname__ = getattr(original, "__qualname__", "__init__")
    __init__.__wrapped__ = original  # type: ignore[attr-defined]
    return __init__


def note_plain(label: str, space: Any) -> None:
    """Record that a patched ``label`` call on ``space`` ran Gymnasium's own code, and why."""
    reason = tree_reason(space) or "arguments that Gymnasium's own code handles (see docs/patching.md)"
    cls = type(space)
    record = _record
    with record.lock:
        record.plain_calls[(label, f"{cls.__module__}.{cls.__qualname__}", reason)] += 1


# ---------------------------------------------------------------- the processes of a run

_directory: str | None = None  # where the processes this one starts write, when this process reports
_target: str | None = None  # where this process writes its counts at exit, when it was started by one that reports
_written_by: int | None = None  # the pid that wrote this process's counts (once per process)
_hooks_installed = False


def reset() -> None:
    """Forget everything recorded so far, and start counting the run time anew.

    The first call in a process sets up the collection of counts: a process
    started with ``GYMSPACES_REPORT`` naming a directory writes its counts
    there at exit; any other process creates a directory for the processes it
    forks (``python -m gymspaces.gymnasium --report`` also names it in
    ``GYMSPACES_REPORT``, for the processes it starts otherwise).
    """
    global _record, _directory, _target
    _record = _Record()
    _install_hooks()
    if _directory is not None:
        for name in _listdir(_directory):
            _remove(os.path.join(_directory, name))
        return
    if _target is not None:
        return
    inherited = os.environ.get(DIRECTORY_VARIABLE)
    if inherited and os.path.isdir(inherited):
        _target = inherited
        return
    try:
        _directory = tempfile.mkdtemp(prefix="gymspaces-report-")
    except OSError:
        return  # no place to collect: the report covers this process alone
    atexit.register(_remove_directory, _directory, os.getpid())


def directory() -> str | None:
    """The directory this process's children write their counts to, if it reports."""
    return _directory


def _install_hooks() -> None:
    global _hooks_installed
    if _hooks_installed:
        return
    _hooks_installed = True
    atexit.register(_at_exit)
    # A forked child starts with a copy of its parent's counts: it forgets
    # them and reports its own to the parent's directory.
    os.register_at_fork(after_in_child=_forked)
    # multiprocessing's children (fork, spawn, forkserver) leave by
    # os._exit() after _bootstrap, where atexit handlers do not run: its
    # finalizers do.
    import multiprocessing.util as mp_util

    mp_util.register_after_fork(_AFTER_FORK, _multiprocessing_child)


class _AfterFork:
    """The object multiprocessing's after-fork registry holds (it keeps weak references)."""


_AFTER_FORK = _AfterFork()


def _forked() -> None:
    global _record, _directory, _target
    _record = _Record()  # its run starts now
    if _directory is not None:
        _directory, _target = None, _directory


def _multiprocessing_child(_: object) -> None:
    """In a multiprocessing child, at start: announce it and arrange its report at exit."""
    import multiprocessing.util as mp_util

    if _target is None:
        return
    try:
        with open(os.path.join(_target, f"{os.getpid()}{_STARTED}"), "w"):
            pass
    except OSError:
        return
    mp_util.Finalize(None, _write_counts, exitpriority=100)


def _at_exit() -> None:
    if _target is not None:
        _write_counts()


def _write_counts() -> None:
    """Write this process's counts to the reporting process's directory (once)."""
    global _written_by
    pid = os.getpid()
    if _target is None or _written_by == pid:
        return
    _written_by = pid
    snapshot = _record.snapshot()
    started = os.path.exists(os.path.join(_target, f"{pid}{_STARTED}"))
    if not snapshot["calls"] and not snapshot["slow_spaces"] and not started:
        return  # a helper process (resource tracker, fork server) that ran no space operation
    final = os.path.join(_target, f"{pid}{_SUFFIX}")
    try:
        with open(final + ".tmp", "wb") as handle:
            pickle.dump(snapshot, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(final + ".tmp", final)
    except OSError:
        pass


def _listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _remove_directory(directory: str, pid: int) -> None:
    if os.getpid() == pid:
        shutil.rmtree(directory, ignore_errors=True)


def _children() -> tuple[list[dict[str, Any]], int]:
    """The counts the started processes wrote, and how many started but have not written."""
    if _directory is None:
        return [], 0
    names = _listdir(_directory)
    finished = {name[: -len(_SUFFIX)] for name in names if name.endswith(_SUFFIX)}
    started = {name[: -len(_STARTED)] for name in names if name.endswith(_STARTED)}
    counts = []
    for pid in sorted(finished):
        try:
            with open(os.path.join(_directory, pid + _SUFFIX), "rb") as handle:
                counts.append(pickle.load(handle))  # written by this run's processes, above
        except (OSError, EOFError, pickle.UnpicklingError):
            continue
    return counts, len(started - finished)


# ---------------------------------------------------------------- the timer's own cost


def timer_cost() -> tuple[float, float]:
    """``(outer, nested)``: seconds the timer adds to one call's recorded time, and
    to the time of a call it is nested in (measured now, on a call that does nothing)."""
    global _record
    saved = _record
    _record = _Record()  # a scratch record: the program's counts are untouched
    try:
        nothing = timed("nothing", _nothing)
        clock = time.perf_counter
        rounds = 2000
        outer = nested = float("inf")
        for _ in range(5):
            _record.outer_seconds.clear()
            _record.outer_calls.clear()
            for _ in range(rounds):
                nothing()
            outer = min(outer, _record.outer_seconds["nothing"] / rounds)
            depth = getattr(_depth, "value", 0)
            _depth.value = depth + 1  # as inside another timed call
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
                _depth.value = depth
            nested = min(nested, max(wrapped - bare, 0.0) / rounds)
        return outer, nested
    finally:
        _record = saved


def _nothing() -> None:
    return None


# ---------------------------------------------------------------- the estimate


def _replay_ratios(samples: list[bytes]) -> tuple[dict[str, float] | None, str]:
    """Plain/compiled cost ratio per operation from ``samples``, and how it was obtained.

    Returns ``(None, why)`` when there is nothing to replay or the replay failed.
    """
    if not samples:
        return {}, "nothing to replay: no call was kept (none on Gymnasium's own classes with plain-data arguments)"
    environment = {
        key: value for key, value in os.environ.items() if key not in ("GYMSPACES_PATCH", "GYMSPACES_REPORT")
    }
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(str(gymspaces.__file__))))
    # This gymspaces, wherever it was imported from (last: nothing else moves).
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [environment.get("PYTHONPATH"), package_root]))
    started = time.perf_counter()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "gymspaces.gymnasium._replay"],
            input=pickle.dumps(samples, protocol=pickle.HIGHEST_PROTOCOL),
            capture_output=True,
            env=environment,
            timeout=REPLAY_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"not available: the replay could not run ({type(error).__name__}: {error})"
    if result.returncode != 0:
        last = (result.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
        return None, f"not available: the replay failed ({last})"
    measured = json.loads(result.stdout)
    plain: dict[str, float] = {}
    compiled: dict[str, float] = {}
    used = failed = 0
    for label, plain_seconds, compiled_seconds in measured:
        if plain_seconds is None or compiled_seconds is None or compiled_seconds <= 0:
            failed += 1
            continue
        used += 1
        plain[label] = plain.get(label, 0.0) + plain_seconds
        compiled[label] = compiled.get(label, 0.0) + compiled_seconds
    result_ratios = {label: plain[label] / compiled[label] for label in plain}
    spread = ", ".join(f"{label} {ratio:.1f}x" for label, ratio in sorted(result_ratios.items()))
    note = (
        f"{used} kept calls (the 1st, 2nd, 4th, 8th, ... of each operation) replayed on copies, plain and "
        f"compiled, in a separate interpreter ({time.perf_counter() - started:.1f} s); plain time of an "
        f"operation ~ its measured time x its plain/compiled ratio: {spread or 'none'}"
    )
    if failed:
        note += f"; {failed} kept calls could not be replayed"
    return result_ratios, note


# ---------------------------------------------------------------- the report


class _Group:
    """Counts summed over processes."""

    def __init__(self) -> None:
        self.processes = 0
        self.calls: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()
        self.outer_calls: Counter[str] = Counter()
        self.outer_seconds: Counter[str] = Counter()
        self.run_seconds = 0.0

    def add(self, counts: dict[str, Any]) -> None:
        self.processes += 1
        self.calls.update(counts["calls"])
        self.seconds.update(counts["seconds"])
        self.outer_calls.update(counts["outer_calls"])
        self.outer_seconds.update(counts["outer_seconds"])
        self.run_seconds += counts["run_seconds"]

    def in_operations(self, cost: tuple[float, float]) -> dict[str, float]:
        """Seconds in each operation's outermost calls, the timer's cost taken out."""
        outer_cost, nested_cost = cost
        nested_calls = sum(self.calls.values()) - sum(self.outer_calls.values())
        total_outer = sum(self.outer_seconds.values()) or 1.0
        result = {}
        for label, seconds in self.outer_seconds.items():
            # Nested calls are spread over the outermost ones by time.
            share_of_nested = nested_calls * nested_cost * seconds / total_outer
            result[label] = max(seconds - self.outer_calls[label] * outer_cost - share_of_nested, 0.0)
        return result


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


@dataclass
class _Figures:
    """What the space operations cost one group of processes (this one, or its children summed)."""

    name: str
    spent: float
    """Seconds in space operations (outermost calls), the timer's cost taken out."""
    run: float
    removed: float | None = None
    """Estimated seconds patch mode removed (negative: added); None when not estimated."""
    unknown: tuple[str, ...] = ()
    """Operations the estimate could not price (no replayable call kept)."""
    summed: bool = False

    @property
    def share(self) -> float:
        return min(self.spent / self.run, 1.0) if self.run > 0 else 0.0

    @property
    def ceiling(self) -> str:
        return "unbounded" if self.share >= 1.0 else f"{1 / (1 - self.share):.2f}x"

    @property
    def plain_run(self) -> float | None:
        return None if self.removed is None else self.run + self.removed

    @property
    def gain(self) -> float | None:
        plain = self.plain_run
        return None if plain is None or self.run <= 0 else plain / self.run


def report(estimate: bool = True, details: bool = False) -> str:
    """What patch mode gained this program and what is left, as text.

    Operations are recorded while Gymnasium is patched with
    ``patch(report=True)`` or run through ``python -m gymspaces.gymnasium
    --report`` (which prints this report at exit). Counts of the processes
    the program started that have exited are included (see the module).

    The default text reads in ten seconds: the gain first (run time now and
    the estimated plain run time), then what is left (the share of the run
    still in space operations and its ceiling 1 / (1 - share)), then which
    operations ran compiled and which did not, at most 12 lines of at most
    100 columns. ``details`` gives the whole table and the method.

    Parameters
    ----------
    estimate : bool
        Estimate the time patch mode removed by replaying sampled calls in a
        separate interpreter (about a second); ``False`` leaves it out.
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
    own = _record.snapshot()
    children, missing = _children()
    main, workers = _Group(), _Group()
    main.add(own)
    for counts in children:
        workers.add(counts)
    slow: Counter[tuple[str, str]] = Counter(own["slow_spaces"])
    plain: Counter[tuple[str, str, str]] = Counter(own["plain_calls"])
    for counts in children:
        slow.update(counts["slow_spaces"])
        plain.update(counts["plain_calls"])
    ratios: dict[str, float] | None = None
    note = ""
    if estimate:
        samples = [sample for counts in [own, *children] for items in counts["samples"].values() for sample in items]
        ratios, note = _replay_ratios(samples)
    cost = timer_cost()
    figures = [_figures("this process", main, cost, ratios)]
    if workers.processes:
        name = f"{workers.processes} child process{'es' if workers.processes != 1 else ''}"
        figures.append(_figures(name, workers, cost, ratios, summed=True))
    if not details:
        return "\n".join(_summary(figures, main, workers, missing, plain, slow))

    lines = ["gymspaces: patched space operations"]
    with_workers = bool(workers.calls)
    header = f"{'operation':<36} {'calls':>10} {'total ms':>10}"
    if with_workers:
        header += f" {'in children':>12} {'children ms':>12}"
    lines.append(header)
    labels = sorted(set(main.calls) | set(workers.calls), key=lambda k: -(main.seconds[k] + workers.seconds[k]))
    for label in labels:
        line = f"{label:<36} {main.calls[label]:>10} {_ms(main.seconds[label]):>10}"
        if with_workers:
            line += f" {workers.calls[label]:>12} {_ms(workers.seconds[label]):>12}"
        lines.append(line)
    if not labels:
        lines.append("(none)")
    lines.append("")
    lines.extend(_time_section(figures, missing, cost, note if estimate else None))
    lines.append("")
    lines.append("gymspaces: patched calls that ran Gymnasium's own code (the outcome is not provably the same)")
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
    return "\n".join(lines)


def _figures(
    name: str, group: _Group, cost: tuple[float, float], ratios: dict[str, float] | None, summed: bool = False
) -> _Figures:
    operations = group.in_operations(cost)
    figures = _Figures(name, sum(operations.values()), group.run_seconds, summed=summed)
    if ratios is None or figures.spent <= 0:
        return figures
    removed = 0.0
    unknown = []
    for label, seconds in operations.items():
        if label in ratios:
            removed += seconds * (ratios[label] - 1.0)  # negative where compiled is slower
        elif seconds > 0:
            unknown.append(label)
    figures.removed = removed
    figures.unknown = tuple(sorted(unknown))
    return figures


WIDTH = 100
"""The widest line of the short report."""


def _fit(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 3] + "..."


def _summary(
    figures: list[_Figures],
    main: _Group,
    workers: _Group,
    missing: int,
    plain: Counter[tuple[str, str, str]],
    slow: Counter[tuple[str, str]],
) -> list[str]:
    """The short report: the gain, what is left, what ran how (at most 12 lines)."""
    lines = ["gymspaces patch mode (python -m gymspaces.gymnasium --report-details: every figure and how)"]
    for group in figures:
        run_text = _durations(group.run)[0] + (" summed" if group.summed else "")
        if group.gain is None:
            lines.append(f"  {group.name}: {run_text} run; the gain was not estimated")
        else:
            now, before = _durations(group.run, group.plain_run)  # type: ignore[arg-type]
            faster = "faster" if group.gain >= 1 else "slower"
            lines.append(f"  {group.name}: ~{group.gain:.2f}x {faster} than plain ({now} run, plain about {before})")
        spent_text = _durations(group.spent)[0]
        lines.append(
            _fit(
                f"    left: {spent_text} ({group.share:.1%} of the run) in space operations; "
                f"most any spaces library could add: {group.ceiling}"
            )
        )
    calls = main.calls + workers.calls
    seconds = main.seconds + workers.seconds
    labels = sorted(calls, key=lambda label: -seconds[label])
    if labels:
        shown = ", ".join(f"{label} x{calls[label]}" for label in labels[:3])
        more = f", {len(labels) - 3} more" if len(labels) > 3 else ""
        lines.append(_fit(f"  compiled: {shown}{more}"))
    else:
        lines.append("  compiled: nothing (no patched space operation ran)")
    if plain:
        (label, name, reason), count = plain.most_common(1)[0]
        total = sum(plain.values())
        lines.append(_fit(f"  ran Gymnasium's own code: {total} call{'s' if total != 1 else ''}, e.g. {label} on {name}: {reason}"))
    if slow:
        (name, site), count = slow.most_common(1)[0]
        total = sum(slow.values())
        lines.append(_fit(f"  not compiled: {total} space{'s' if total != 1 else ''}, e.g. {name} created at {site}"))
    if missing:
        lines.append(_fit(f"  {missing} child process{'es' if missing != 1 else ''} did not report (still running, or killed)"))
    return lines


def _time_section(figures: list[_Figures], missing: int, cost: tuple[float, float], note: str | None) -> list[str]:
    lines = ["gymspaces: what space operations cost this program"]
    for group in figures:
        summed = " (summed over the processes)" if group.summed else ""
        spent_text, run_text = _durations(group.spent, group.run)
        lines.append(
            f"{group.name}: {spent_text} in space operations of {run_text} run time{summed}: "
            f"{group.share:.1%}, ceiling {group.ceiling}"
        )
        if group.removed is None:
            continue
        plain_run = group.run + group.removed
        verb = "removed" if group.removed >= 0 else "added"
        removed_text, plain_text = _durations(abs(group.removed), plain_run)
        text = f"  patch mode {verb} ~{removed_text}: plain, about {plain_text}"
        if group.run > 0:
            text += (
                f", {(group.spent + group.removed) / plain_run:.1%} in space operations; gain ~{plain_run / group.run:.2f}x"
            )
        lines.append(text)
        if group.unknown:
            lines.append(f"  not estimated (no replayable call kept): {', '.join(group.unknown)}")
    if missing:
        lines.append(
            f"{missing} child process{'es' if missing != 1 else ''} started recording but did not report "
            "(still running, or ended without exiting: terminated, killed)"
        )
    lines.append(
        "run time: since patching started in each process; space operations: calls not inside another, "
        f"the timer's own cost ({cost[0] * 1e9:.0f} ns a call) taken out"
    )
    lines.append(
        "ceiling = 1 / (1 - share): the most any spaces library could still speed the process up; "
        "in processes running side by side, time saved in children shortens the run only where the "
        "main process waits for them"
    )
    if note is not None:
        lines.append(f"estimate: {note}")
    return lines
