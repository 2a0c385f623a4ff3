"""What ran compiled while patched, what did not, and what it means for the program.

``patch(report=True)`` (``python -m gymspaces.gymnasium --report``) counts and
times every call of the methods and helpers patching installed, and records
every Gymnasium space created whose class does not run compiled (a custom
space, or a subclass overriding ``sample``/``contains``) with the place in
user code that created it. :func:`report` formats the tables and what they
mean for the program:

* the time spent in space operations -- calls not already inside another
  timed call, the timer's own cost taken out -- and the run time, hence the
  share of the run in space operations and the ceiling ``1 / (1 - share)``:
  how much faster the program would be if they took no time. The run is the
  whole process under ``python -m gymspaces.gymnasium`` and in the processes
  its program starts (:func:`count_whole_process`: patch mode's own start-up
  is in it), and the time since patching started otherwise;
* an estimate of the time patch mode removed, from a replay of sampled calls
  (see :mod:`gymspaces.gymnasium._replay`), and of the plain run: the run
  without patch mode's start-up, with what it removed. Calls that ran
  Gymnasium's own code (:func:`note_plain`) are counted as such, not as
  compiled, and not priced;
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
import textwrap
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

REPLAY_PROGRAM = (
    "import sys, time\n"
    # -c puts the working directory first on sys.path (not under -P): no
    # module there may stand in for Gymnasium's or gymspaces'.
    "if not getattr(sys.flags, 'safe_path', False): del sys.path[0]\n"
    "import gymnasium\n"
    "started = time.perf_counter()\n"
    "import gymspaces.gymnasium, gymspaces.gymnasium.__main__\n"
    "imported = time.perf_counter() - started\n"
    "from gymspaces.gymnasium._replay import main\n"
    "main(imported)\n"
)
"""The replay's program (``python -c``): times the import of gymspaces' layer once
Gymnasium is imported, then runs :func:`gymspaces.gymnasium._replay.main`."""

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
        # Outermost calls that ran Gymnasium's own code: their time is not
        # priced by the estimate (patch mode did not change it).
        self.plain_outer_seconds: dict[str, float] = {}
        self.slow_spaces: Counter[tuple[str, str]] = Counter()
        self.plain_calls: Counter[tuple[str, str, str]] = Counter()  # (operation, class, reason)
        self.samples: dict[str, list[bytes]] = {}
        self.started = time.perf_counter()
        # Where the run starts: when counting started, unless the whole process
        # is counted (count_whole_process), and what that start was.
        self.origin = self.started
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
                "samples": {label: list(items) for label, items in self.samples.items()},
                "plain_outer_seconds": dict(self.plain_outer_seconds),
                "run_seconds": time.perf_counter() - self.origin,
                "counted_from": self.counted_from,
                "startup_seconds": self.patching if self.counted_from != "patching" else 0.0,
                "imported": self.imported,
            }


_record = _Record()
# .value: timed calls open in this thread; .plain: a bit per open call, set
# (at its depth) when that call ran Gymnasium's own code (note_plain).
_depth = threading.local()

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
            if not level and not ran_plain and count & (count - 1) == 0 and count < 1 << SAMPLES_PER_OPERATION:
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
    """Record that a patched ``label`` call on ``space`` ran Gymnasium's own code, and why.

    Called inside the timed call it is about: the mark at the current depth
    tells that call (:func:`timed`) it ran plain, so it is not counted as compiled.
    """
    depth = getattr(_depth, "value", 0)
    _depth.plain = getattr(_depth, "plain", 0) | (1 << depth)
    reason = tree_reason(space) or "arguments that Gymnasium's own code handles (see docs/patching.md)"
    cls = type(space)
    record = _record
    with record.lock:
        record.plain_calls[(label, f"{cls.__module__}.{cls.__qualname__}", reason)] += 1


def noting_plain(label: str, rule: Callable[..., Any]) -> Callable[..., Any]:
    """Gymnasium's own ``rule`` of helper ``label``, recording each call as plain.

    A patched helper falls back to Gymnasium's rule of the space's class
    (compiled in ``_calls``, which notes nothing there): handing it this
    instead records those calls as :func:`note_plain` does for methods.
    """

    def plain_rule(space: Any, *args: Any, **kwargs: Any) -> Any:
        note_plain(label, space)
        return rule(space, *args, **kwargs)

    plain_rule.__name__ = getattr(rule, "__name__", label)
    plain_rule.__qualname__ = getattr(rule, "__qualname__", label)
    plain_rule.__wrapped__ = rule  # type: ignore[attr-defined]
    return plain_rule


def note_patching(seconds: float) -> None:
    """Record how long :func:`gymspaces.gymnasium.patch` took in this process (part of
    patch mode's start-up, counted when the whole process is)."""
    _record.patching = seconds


def count_whole_process(fallback: float) -> None:
    """Count this process's run from the process's start (``python -m gymspaces.gymnasium``).

    The run then holds patch mode's own start-up (importing gymspaces'
    layer, patching), which the plain estimate leaves out.

    Parameters
    ----------
    fallback : float
        A ``time.perf_counter()`` reading to count from where the system does
        not say when the process started (as early as the caller has one).
    """
    start = _process_start()
    record = _record
    if start is None:
        record.origin, record.counted_from = min(fallback, record.origin), "the command's start"
    else:
        record.origin, record.counted_from = min(start, record.origin), "process start"
    record.imported = True


def _process_start() -> float | None:
    """When this process started, on the ``time.perf_counter`` clock; None where
    the system does not say (read from Linux's /proc, to within 5 ms)."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            # Field 22, starttime; the fields after the command name, which may hold spaces.
            ticks = int(handle.read().rsplit(b")", 1)[1].split()[19])
        per_second = os.sysconf("SC_CLK_TCK")
        since_boot = time.clock_gettime(time.CLOCK_BOOTTIME)  # starttime's clock
        now = time.perf_counter()
    except (OSError, AttributeError, ValueError, IndexError):
        return None
    # starttime is rounded down to a tick: half a tick later is the best guess.
    elapsed = since_boot - (ticks + 0.5) / per_second
    return now - max(elapsed, 0.0)


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
        # Started by a process that reports (patched by the start-up hook when
        # it imported Gymnasium): its whole run counts, start-up included.
        _target = inherited
        count_whole_process(_record.started)
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
    _record = _Record()  # its run starts now, with nothing of patch mode to start up
    _record.counted_from = "process start"
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


@dataclass
class _Replay:
    """What the replay in a separate interpreter measured (:mod:`gymspaces.gymnasium._replay`)."""

    ratios: dict[str, float] | None
    """Plain/compiled cost ratio per operation; None when not estimated."""
    note: str
    """How the ratios were obtained, or why there are none."""
    imported: float | None = None
    """Seconds that interpreter took to import gymspaces' layer once Gymnasium was imported."""
    seconds: float = 0.0
    """What the replay took, at exit (0 when it did not run)."""


_NOTHING_KEPT = "nothing to replay: no call was kept (none on Gymnasium's own classes with plain-data arguments)"


def _replay(samples: list[bytes], for_import: bool) -> _Replay:
    """Replay ``samples`` in a separate interpreter, plain then compiled.

    It runs when there are samples or ``for_import`` (a whole process is
    counted, whose start-up holds the import of gymspaces' layer, which that
    interpreter measures).
    """
    if not samples and not for_import:
        return _Replay({}, _NOTHING_KEPT)
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
            input=pickle.dumps(samples, protocol=pickle.HIGHEST_PROTOCOL),
            capture_output=True,
            env=environment,
            timeout=REPLAY_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        why = f"not available: the replay could not run ({type(error).__name__}: {error})"
        return _Replay(None, why, seconds=time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        last = (result.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
        return _Replay(None, f"not available: the replay failed ({last})", seconds=seconds)
    measured = json.loads(result.stdout)
    ratios, note = _ratios(measured["calls"], seconds)
    return _Replay(ratios, note if samples else _NOTHING_KEPT, measured["import"], seconds)


def _ratios(measured: list[list[Any]], seconds: float) -> tuple[dict[str, float], str]:
    """Each operation's plain/compiled ratio from the replay's ``[label, plain s, compiled s]``, and how."""
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
    ratios = {label: plain[label] / compiled[label] for label in plain}
    spread = ", ".join(f"{label} {ratio:.1f}x" for label, ratio in sorted(ratios.items()))
    note = (
        f"{used} kept calls (the 1st, 2nd, 4th, 8th, ... of each operation) replayed on copies, plain and "
        f"compiled, in a separate interpreter ({seconds:.1f} s); plain time of an operation ~ its measured "
        f"time in compiled calls x its plain/compiled ratio: {spread or 'none'}"
    )
    if failed:
        note += f"; {failed} kept calls could not be replayed"
    return ratios, note


# ---------------------------------------------------------------- the report


class _Group:
    """Counts summed over processes."""

    def __init__(self) -> None:
        self.processes = 0
        self.calls: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()
        self.outer_calls: Counter[str] = Counter()
        self.outer_seconds: Counter[str] = Counter()
        self.plain_outer_seconds: Counter[str] = Counter()
        self.plain_calls: Counter[str] = Counter()  # by operation
        self.run_seconds = 0.0
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
        for (label, _, _), count in counts["plain_calls"].items():
            self.plain_calls[label] += count
        self.run_seconds += counts["run_seconds"]
        self.startup_seconds += counts["startup_seconds"]
        self.importers += bool(counts["imported"])
        self.counted_from.add(counts["counted_from"])

    def compiled_calls(self) -> Counter[str]:
        """Calls that ran compiled, by operation (the timed calls less those that ran plain)."""
        return self.calls - self.plain_calls

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

    def compiled_share(self, label: str) -> float:
        """The part of ``label``'s outermost time spent in calls that ran compiled."""
        total = self.outer_seconds[label]
        return 0.0 if total <= 0 else max(total - self.plain_outer_seconds[label], 0.0) / total


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


@dataclass
class _Figures:
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
        """The run without patch mode: its start-up out, what it removed back in."""
        if self.removed is None or self.startup is None:
            return None
        return max(self.run - self.startup + self.removed, 0.0)

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

    The default text reads in ten seconds: the gain first (the run time and
    the estimated plain run time; under ``python -m gymspaces.gymnasium``,
    the whole process, patch mode's own start-up counted in the run and not
    in the plain estimate), then what is left (the share of the run still in
    space operations and its ceiling 1 / (1 - share)), then which operations
    ran compiled and which ran Gymnasium's own code, and what the report
    itself took. Every line is at most 100 columns. ``details`` gives the
    whole table and the method.

    Parameters
    ----------
    estimate : bool
        Estimate the time patch mode removed by replaying sampled calls in a
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
    replay = _Replay(None, "")
    if estimate:
        samples = [sample for counts in [own, *children] for items in counts["samples"].values() for sample in items]
        replay = _replay(samples, for_import=bool(main.importers or workers.importers))
    cost = timer_cost()
    figures = [_figures("this process", main, cost, replay)]
    if workers.processes:
        name = f"{workers.processes} child process{'es' if workers.processes != 1 else ''}"
        figures.append(_figures(name, workers, cost, replay, summed=True))
    itself = time.perf_counter() - started
    if not details:
        return "\n".join(_summary(figures, main, workers, missing, plain, slow, replay, itself))
    lines = _table(main, workers)
    lines.append("")
    lines.extend(_time_section(figures, missing, cost, replay if estimate else None, itself))
    lines.append("")
    lines.extend(_plain_section(plain, slow))
    return "\n".join(line for text in lines for line in _wrap(text))


def _figures(name: str, group: _Group, cost: tuple[float, float], replay: _Replay, summed: bool = False) -> _Figures:
    operations = group.in_operations(cost)
    startup: float | None = group.startup_seconds
    if group.importers:  # the import of gymspaces' layer, timed in the replay's interpreter
        startup = None if replay.imported is None else group.startup_seconds + group.importers * replay.imported
    counted_from = next(iter(group.counted_from)) if len(group.counted_from) == 1 else ""
    figures = _Figures(
        name, sum(operations.values()), group.run_seconds, counted_from, startup, group.startup_seconds, summed=summed
    )
    if replay.ratios is None:
        return figures
    removed = 0.0
    unknown = []
    for label, seconds in operations.items():
        compiled = seconds * group.compiled_share(label)  # calls that ran plain are as fast as plain
        if compiled <= 0:
            continue
        if label in replay.ratios:
            removed += compiled * (replay.ratios[label] - 1.0)  # negative where compiled is slower
        else:
            unknown.append(label)
    figures.removed = removed
    figures.unknown = tuple(sorted(unknown))
    return figures


WIDTH = 100
"""The widest line of either report."""


def _wrap(text: str) -> list[str]:
    """``text`` as lines of at most :data:`WIDTH` columns, broken between words (a
    word longer than a line, a long path say, is broken where it must); lines
    after the first are indented two columns more than the first."""
    if len(text) <= WIDTH:
        return [text]
    indent = " " * (len(text) - len(text.lstrip(" ")))
    return textwrap.wrap(
        text.strip(), WIDTH, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False
    )


def _since(figures: _Figures) -> str:
    where = {"process start": "since the process started", "the command's start": "since the command started",
             "patching": "since patching started"}.get(figures.counted_from, "")
    if figures.summed:
        where = {"since the process started": "since each started"}.get(where, where)
        return f"summed{', ' + where if where else ''}"
    return where


def _gain_line(figures: _Figures) -> str:
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


def _summary(
    figures: list[_Figures],
    main: _Group,
    workers: _Group,
    missing: int,
    plain: Counter[tuple[str, str, str]],
    slow: Counter[tuple[str, str]],
    replay: _Replay,
    itself: float,
) -> list[str]:
    """The short report: the gain, what is left, what ran how, what the report took."""
    lines = ["gymspaces patch mode report (every figure, and how it is made: --report-details)"]
    for group in figures:
        lines.append(_gain_line(group))
        if group.startup:
            lines.append(
                f"    of the run, {_durations(group.startup)[0]} was patch mode's own start-up "
                "(importing gymspaces, patching)"
            )
        lines.append(_left_line(group))
    compiled = main.compiled_calls() + workers.compiled_calls()
    seconds = main.seconds + workers.seconds
    labels = sorted(compiled, key=lambda label: (-seconds[label], label))
    if labels:
        shown = ", ".join(f"{label} x{compiled[label]}" for label in labels[:3])
        lines.append(f"  compiled: {shown}{f', {len(labels) - 3} more' if len(labels) > 3 else ''}")
    else:
        lines.append("  compiled: nothing (no patched space operation ran compiled)")
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


def _left_line(figures: _Figures) -> str:
    """What is left in space operations, and the most that taking it away could gain."""
    left = f"    left: {_durations(figures.spent)[0]} in space operations ({figures.share:.1%} of the run)"
    if figures.share < 0.005:  # a ceiling that rounds to 1.00x
        return f"{left}: nothing measurable left to gain there"
    return f"{left}; at most {figures.ceiling} faster if they took no time"


def _plain_summary(plain: Counter[tuple[str, str, str]]) -> list[str]:
    """The short report's lines on calls that ran Gymnasium's own code: how many of
    which operation, and the most frequent reason, whole."""
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


def _table(main: _Group, workers: _Group) -> list[str]:
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
    figures: list[_Figures], missing: int, cost: tuple[float, float], replay: _Replay | None, itself: float
) -> list[str]:
    lines = ["gymspaces: what space operations cost this program"]
    for group in figures:
        summed = " (summed over the processes)" if group.summed else ""
        spent_text, run_text = _durations(group.spent, group.run)
        lines.append(
            f"{group.name}: {spent_text} in space operations of {run_text} run time{summed}: "
            f"{group.share:.1%}, ceiling {group.ceiling}"
        )
        lines.append(f"  run time: {_since(group) or 'since patching or process start'}" + _startup_text(group, replay))
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
        "counts in the run and not in the plain estimate (plain = run - start-up + what patch mode removed)"
    )
    lines.append(
        "space operations: calls not inside another, whether they ran compiled or Gymnasium's own code, "
        f"the timer's own cost ({cost[0] * 1e9:.0f} ns a call) taken out"
    )
    lines.append(
        "ceiling = 1 / (1 - share): how much faster the process would be if its space operations took no "
        "time at all, a limit no spaces library (gymspaces included) can pass; in processes running side by "
        "side, time saved in children shortens the run only where the main process waits for them"
    )
    if replay is not None:
        lines.append(f"estimate: {replay.note}")
        lines.append(
            f"the report itself: {_durations(itself)[0]} at exit, in no run time above "
            f"(the replay: {_durations(replay.seconds)[0]})"
        )
    return lines


def _startup_text(group: _Figures, replay: _Replay | None) -> str:
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
